import { Form } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { constraintInLanguage } from "~/components/form-props";
import { messages } from "~/messages";
import { constraintProps, validityMessagesProp, type FormConstraint } from "~/web/form-constraint";
import { CopyField } from "~/components/CopyField";
import { CardError, useCardResult, type PersonalTab } from "./card-parts";
import { textAround } from "./page-text";

/** The cards of 个人设置 that guard the account: the access token, the password, deletion. */
export function AccessTokenCard() {
  const t = useT();
  const result = useCardResult("access-token");
  const [usageBefore, usageAfter] = textAround(
    t,
    "用于以 {{header}} 请求头调用管理 API。生成新令牌会使旧令牌立即失效；令牌只在生成时显示一次。",
    "header",
  );
  return (
    <section className="card" aria-labelledby="access-token-title">
      <h2 id="access-token-title" className="mb-1 font-semibold">
        {t("系统访问令牌")}
      </h2>
      <p className="mb-3 text-sm text-gray-500">
        {usageBefore}
        <code>Authorization</code>
        {usageAfter}
      </p>
      {result?.shownOnce ? (
        <div className="mb-3" data-testid="access-token-once">
          {result.success ? <FlashBanner type="success" message={result.success} /> : null}
          <CopyField id="access-token-value" label={t("新的系统访问令牌")} value={result.shownOnce} />
        </div>
      ) : null}
      <Form method="post">
        <input type="hidden" name="intent" value="access-token" />
        <button type="submit" className="btn-primary">
          {t("生成系统访问令牌")}
        </button>
      </Form>
    </section>
  );
}

export function PasswordCard({ constraint: chinese }: { constraint: FormConstraint }) {
  const t = useT();
  const constraint = constraintInLanguage(chinese, useMessage());
  const result = useCardResult("password");
  const errors = result?.fieldErrors ?? {};
  return (
    <section className="card">
      <h2 className="mb-3 font-semibold">{t("修改密码")}</h2>
      <CardError result={result} />
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="password" />
        {(
          [
            ["original_password", "原密码", "current-password"],
            ["password", "新密码", "new-password"],
            ["password2", "确认新密码", "new-password"],
          ] as const
        ).map(([name, label, autoComplete]) => (
          <div key={name}>
            <label className="label" htmlFor={`password-${name}`}>
              {t(label)}
            </label>
            {/* The confirmation must equal the new password, so it is held to the same bounds. */}
            <input
              id={`password-${name}`}
              name={name}
              type="password"
              className="input"
              autoComplete={autoComplete}
              {...constraintProps(constraint, name)}
              {...(name === "password2" ? constraintProps(constraint, "password") : {})}
              aria-invalid={errors[name] ? true : undefined}
            />
            {errors[name] ? <p className="field-error">{errors[name][0]}</p> : null}
          </div>
        ))}
        <button type="submit" className="btn-primary self-start">
          {t("确认修改")}
        </button>
      </Form>
    </section>
  );
}

export function DeleteAccountCard({ me }: { me: PersonalTab }) {
  const t = useT();
  const result = useCardResult("delete-account");
  const error = result?.fieldErrors?.confirm_username?.[0];
  return (
    <section className="card border-red-200 dark:border-red-900" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className="mb-1 font-semibold text-red-700 dark:text-red-300">
        {t("删除账户")}
      </h2>
      <p className="mb-3 text-sm text-gray-500">{t("您正在删除自己的账户，账户将无法再登录，且不可恢复。")}</p>
      <CardError result={result} />
      {me.isRoot ? (
        <p className="text-sm text-gray-500">{t(messages.rootCannotDelete)}</p>
      ) : (
        <Form method="post" className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="delete-account" />
          <label className="label" htmlFor="delete-confirm-username">
            {t(messages.deleteConfirmPrompt)}
          </label>
          <input
            id="delete-confirm-username"
            name="confirm_username"
            className="input"
            required
            {...validityMessagesProp({ valueMissing: t(messages.deleteConfirmPrompt) })}
            autoComplete="off"
            placeholder={me.username}
            aria-invalid={error ? true : undefined}
          />
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn-danger self-start">
            {t("确认删除")}
          </button>
        </Form>
      )}
    </section>
  );
}
