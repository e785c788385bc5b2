import { getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { z } from "zod";
import { FlashBanner } from "~/components/FlashBanner";
import { browserCheckedFormProps } from "~/components/form-props";
import type { addUserConsoleSchema, editUserConsoleSchema } from "~/domain/users/admin-console-form";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { messages } from "~/messages";
import { renderQuota } from "~/utils/format";
import type { FormConstraint } from "~/web/form-constraint";

function Err({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

type Result = SubmissionResult<string[]> | null | undefined;

/**
 * The product's add-user drawer as a page. Validated on the server; the HTML constraints (from the
 * same schema, computed by the loader) let the browser stop an empty or too-short field first.
 */
export function AddUserForm({ lastResult, constraint }: { lastResult: Result; constraint: FormConstraint }) {
  const [form, fields] = useForm<z.input<typeof addUserConsoleSchema>>({ lastResult, constraint });
  const t = useT();
  const message = useMessage();
  return (
    <Form
      method="post"
      {...browserCheckedFormProps(form, constraint, message)}
      className="card flex max-w-xl flex-col gap-4"
    >
      <h1 className="text-xl font-bold">{t("添加用户")}</h1>
      {form.errors?.map((e) => (
        <FlashBanner key={e} type="error" message={e} />
      ))}
      <div>
        <label className="label" htmlFor={fields.username.id}>
          {t("用户名")}
        </label>
        <input
          {...getInputProps(fields.username, { type: "text" })}
          className="input"
          placeholder={t("请输入用户名")}
          autoComplete="off"
        />
        <Err errors={fields.username.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.display_name.id}>
          {t("显示名称")}
        </label>
        <input
          {...getInputProps(fields.display_name, { type: "text" })}
          className="input"
          placeholder={t("请输入显示名称")}
        />
        <Err errors={fields.display_name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.password.id}>
          {t("密码")}
        </label>
        <input
          {...getInputProps(fields.password, { type: "password" })}
          className="input"
          placeholder={t("请输入密码")}
          autoComplete="new-password"
        />
        <Err errors={fields.password.errors} />
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          {t("提交")}
        </button>
        <Link to="/user" className="btn-secondary">
          {t("取消")}
        </Link>
      </div>
    </Form>
  );
}

export type EditUserContext = {
  /** Editing oneself: the product shows neither group nor quota then. */
  self: boolean;
  groups: string[];
  quota: number;
  bindings: { github_id: string; wechat_id: string; telegram_id: string };
  displayInCurrency: boolean;
  quotaPerUnit: number;
};

/** The product's edit-user drawer as a page. A blank password keeps the old one. */
export function EditUserForm({
  lastResult,
  defaultValue,
  context,
  constraint,
}: {
  lastResult: Result;
  defaultValue: Record<string, unknown>;
  context: EditUserContext;
  constraint: FormConstraint;
}) {
  const [form, fields] = useForm<z.input<typeof editUserConsoleSchema>>({
    lastResult,
    defaultValue: defaultValue as never,
    constraint,
  });
  const t = useT();
  const message = useMessage();
  return (
    <Form
      method="post"
      {...browserCheckedFormProps(form, constraint, message)}
      className="card flex max-w-xl flex-col gap-4"
    >
      <h1 className="text-xl font-bold">{t("更新用户信息")}</h1>
      {form.errors?.map((e) => (
        <FlashBanner key={e} type="error" message={e} />
      ))}
      <div>
        <label className="label" htmlFor={fields.username.id}>
          {t("用户名")}
        </label>
        <input {...getInputProps(fields.username, { type: "text" })} className="input" autoComplete="off" />
        <Err errors={fields.username.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.display_name.id}>
          {t("显示名称")}
        </label>
        <input {...getInputProps(fields.display_name, { type: "text" })} className="input" />
        <Err errors={fields.display_name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.password.id}>
          {t("密码")}
        </label>
        <input
          {...getInputProps(fields.password, { type: "password" })}
          className="input"
          placeholder={t("请输入新的密码，留空则不修改")}
          autoComplete="new-password"
        />
        <p className="mt-1 text-xs text-gray-500">{t(messages.userPasswordHint)}</p>
        <Err errors={fields.password.errors} />
      </div>
      {context.self ? null : (
        <>
          <div>
            <label className="label" htmlFor={fields.group.id}>
              {t("分组")}
            </label>
            <select {...getSelectProps(fields.group)} className="input">
              {context.groups.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
            <Err errors={fields.group.errors} />
          </div>
          <div>
            <label className="label" htmlFor={fields.quota.id}>
              {t("剩余额度")}
            </label>
            <input {...getInputProps(fields.quota, { type: "number" })} className="input" />
            <input {...getInputProps(fields.original_quota, { type: "hidden" })} />
            <p className="mt-1 text-xs text-gray-500">
              {t("打开本页时为 {{quota}}；不改动则保留实时余额。增减额度请用列表中的“添加额度”。", {
                quota: renderQuota(context.quota, context.displayInCurrency, context.quotaPerUnit),
              })}
            </p>
            <Err errors={fields.quota.errors} />
          </div>
        </>
      )}
      <div>
        <label className="label" htmlFor={fields.email.id}>
          {t("邮箱")}
        </label>
        <input {...getInputProps(fields.email, { type: "email" })} className="input" />
        <Err errors={fields.email.errors} />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-gray-600 dark:text-gray-300">
        <dt>{t("已绑定的 GitHub 账户")}</dt>
        <dd>{context.bindings.github_id || t("无")}</dd>
        <dt>{t("已绑定的微信账户")}</dt>
        <dd>{context.bindings.wechat_id || t("无")}</dd>
        <dt>{t("已绑定的 Telegram 账户")}</dt>
        <dd>{context.bindings.telegram_id || t("无")}</dd>
      </dl>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          {t("提交")}
        </button>
        <Link to="/user" className="btn-secondary">
          {t("取消")}
        </Link>
      </div>
    </Form>
  );
}
