import { getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { z } from "zod";
import { FlashBanner } from "~/components/FlashBanner";
import { ModelPicker } from "~/components/ModelPicker";
import type { tokenConsoleSchema } from "~/domain/tokens/token-console-form";
import { COUNT_PRESETS, QUOTA_PRESET_DOLLARS, RATE_LIMIT_LABELS } from "~/domain/tokens/token-constants";
import { compactNumber } from "~/utils/format";
import type { FormConstraint } from "~/web/form-constraint";
import { browserCheckedFormProps } from "~/components/form-props";
import { useMessage, useT } from "~/components/i18n/locale-context";

type Props = {
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, unknown>;
  groups: Record<string, string>;
  groupsConfigured: boolean;
  models: string[];
  expiryPresets: { label: string; value: string }[];
  displayInCurrency: boolean;
  quotaPerUnit: number;
  /** The zone the expiry is shown in; posted back so it is read in the same one. */
  timeZone: string;
  /** The schema's HTML constraints, computed by the loader. */
  constraint: FormConstraint;
};

function Err({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

/**
 * The product's token drawer as a page. Quick buttons (expiry, quota, count) are conform "update"
 * intents: with JS they fill the field in place, without JS the server re-renders the form
 * with the value set — either way nothing is saved until 提交.
 */
export function TokenForm(props: Props) {
  const [form, fields] = useForm<z.input<typeof tokenConsoleSchema>, z.output<typeof tokenConsoleSchema>>({
    lastResult: props.lastResult,
    // Loader data is plain JSON; conform only needs the field names to line up with the schema.
    defaultValue: props.defaultValue as never,
    // The browser checks the schema's constraints (required, maxlength, min…); the server
    // validates everything again. No zod in the page.
    constraint: props.constraint,
  });
  const unlimited = fields.unlimited_quota.value === "on";
  // conform reports a one-item list of checkboxes as a plain string. A limit on a model no
  // longer offered keeps its checkbox, so saving the form does not drop it unseen.
  const rawLimits = fields.model_limits.value as string[] | string | undefined;
  const limited = new Set(Array.isArray(rawLimits) ? rawLimits : rawLimits ? [rawLimits] : []);
  const t = useT();
  const message = useMessage();
  return (
    <Form
      method="post"
      {...browserCheckedFormProps(form, props.constraint, message)}
      className="card flex max-w-2xl flex-col gap-4"
    >
      <h1 className="text-xl font-bold">{t(props.mode === "create" ? "创建新的令牌" : "更新令牌信息")}</h1>
      {form.errors?.map((e) => (
        <FlashBanner key={e} type="error" message={e} />
      ))}
      <input type="hidden" name="tz" value={props.timeZone} />
      <div>
        <label className="label" htmlFor={fields.name.id}>
          {t("名称")}
        </label>
        <input {...getInputProps(fields.name, { type: "text" })} className="input" placeholder={t("请输入名称")} />
        <Err errors={fields.name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.expired_at.id}>
          {t("过期时间")}
        </label>
        <input
          {...getInputProps(fields.expired_at, { type: "text" })}
          className="input"
          placeholder={t("YYYY-MM-DD HH:mm:ss，留空为永不过期")}
        />
        <Err errors={fields.expired_at.errors} />
        <div className="mt-1 flex flex-wrap gap-1">
          {props.expiryPresets.map((preset) => (
            <button
              key={preset.label}
              {...form.update.getButtonProps({ name: fields.expired_at.name, value: preset.value })}
              className="btn-secondary"
            >
              {t(preset.label)}
            </button>
          ))}
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.remain_quota.id}>
          {t("额度")}
        </label>
        <input {...getInputProps(fields.remain_quota, { type: "number" })} className="input" disabled={unlimited} />
        <Err errors={fields.remain_quota.errors} />
        <div className="mt-1 flex flex-wrap gap-1">
          {QUOTA_PRESET_DOLLARS.map((dollars) => (
            <button
              key={dollars}
              {...form.update.getButtonProps({
                name: fields.remain_quota.name,
                value: String(dollars * props.quotaPerUnit),
              })}
              className="btn-secondary"
              disabled={unlimited}
              data-quota-preset=""
            >
              {props.displayInCurrency ? `${dollars}$` : compactNumber(dollars * props.quotaPerUnit)}
            </button>
          ))}
        </div>
        <p className="mt-1 text-xs text-gray-500">
          {t("注意，令牌的额度仅用于限制令牌本身的最大额度使用量，实际的使用受到账户的剩余额度限制。")}
        </p>
        <label className="mt-2 flex items-center gap-2 text-sm">
          {/* Rendered disabled when the page comes with it checked; the enhancement script follows a click. */}
          <input
            {...getInputProps(fields.unlimited_quota, { type: "checkbox" })}
            data-disables={`[name="${fields.remain_quota.name}"], [data-quota-preset]`}
          />{" "}
          {t("设为无限额度")}
        </label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {(["rpm_limit", "tpm_limit"] as const).map((name) => {
          const field = fields[name];
          const helpId = `${field.id}-help`;
          return (
            <div key={name}>
              <label className="label" htmlFor={field.id}>
                {t(RATE_LIMIT_LABELS[name])}
              </label>
              <input {...getInputProps(field, { type: "number", ariaDescribedBy: helpId })} className="input" />
              <p id={helpId} className="mt-1 text-xs text-gray-500">
                {t("0 表示不限制")}
              </p>
              <Err errors={field.errors} />
            </div>
          );
        })}
      </div>
      {props.mode === "create" ? (
        <div>
          <label className="label" htmlFor={fields.count.id}>
            {t("新建数量")}
          </label>
          <input {...getInputProps(fields.count, { type: "number" })} className="input" />
          <Err errors={fields.count.errors} />
          <div className="mt-1 flex flex-wrap gap-1">
            {COUNT_PRESETS.map((n) => (
              <button
                key={n}
                {...form.update.getButtonProps({ name: fields.count.name, value: String(n) })}
                className="btn-secondary"
              >
                {t("{{n}}个", { n })}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      <div>
        <label className="label" htmlFor={fields.allow_ips.id}>
          {t("IP 白名单（每行一个，支持 CIDR）")}
        </label>
        <textarea
          {...getTextareaProps(fields.allow_ips)}
          className="input font-mono"
          rows={3}
          placeholder={t("允许的 IP，一行一个，不填写则不限制\n例如 192.168.1.0/24")}
        />
        <Err errors={fields.allow_ips.errors} />
      </div>
      <div>
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.model_limits_enabled, { type: "checkbox" })} />{" "}
          {t("启用模型限制（非必要，不建议启用）")}
        </label>
        <div className="mt-2">
          <ModelPicker
            name={fields.model_limits.name}
            legend={t("可用模型")}
            models={[...new Set([...props.models, ...limited])]}
            chosen={limited}
            testId="token-models"
          />
        </div>
      </div>
      <div>
        <label className="label" htmlFor={fields.group.id}>
          {t("令牌分组")}
        </label>
        <select {...getSelectProps(fields.group)} className="input" disabled={!props.groupsConfigured}>
          <option value="">{t("使用用户分组")}</option>
          {/* The user's own group comes labelled with the fixed 用户分组; operators' descriptions are data and stay as written. */}
          {Object.entries(props.groups).map(([name, label]) => (
            <option key={name} value={name}>
              {t("{{label}}（{{detail}}）", { label: t(label), detail: name })}
            </option>
          ))}
        </select>
        {!props.groupsConfigured ? <p className="mt-1 text-xs text-gray-500">{t("管理员未设置用户可选分组")}</p> : null}
        <Err errors={fields.group.errors} />
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          {t("提交")}
        </button>
        <Link to="/token" className="btn-secondary">
          {t("取消")}
        </Link>
      </div>
    </Form>
  );
}
