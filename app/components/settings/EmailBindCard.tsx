import { Form, useActionData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useT } from "~/components/i18n/locale-context";
import { TurnstileWidget } from "~/components/TurnstileWidget";
import type { EmailCardResult, loadEmailBinding } from "~/web/settings/personal-email.server";
import { validityMessagesProp } from "~/web/form-constraint";
import { messages } from "~/messages";

type Props = { data: ReturnType<typeof loadEmailBinding> };

/** The product's resend cooldown; the server enforces it, the enhancement script counts it down on the button. */
const RESEND_SECONDS = 30;

/**
 * 绑定邮箱: one form, two buttons. 获取验证码 (intent email-code) mails a code to the address
 * typed; 绑定 (intent email-bind) binds it. Both work without JavaScript.
 */
export function EmailBindCard({ data }: Props) {
  const t = useT();
  const actionData = useActionData<EmailCardResult>();
  const result = actionData?.intent === "email-code" || actionData?.intent === "email-bind" ? actionData : undefined;
  const codeSent = result?.intent === "email-code" && Boolean(result.success);
  const errors = result?.fieldErrors ?? {};
  return (
    <section className="card">
      <h2 className="mb-3 font-semibold">{t("绑定邮箱")}</h2>
      <p className="mb-3 text-sm text-gray-600 dark:text-gray-300">
        {t("当前邮箱：{{email}}", { email: data.email || t("未绑定") })}
      </p>
      {result?.success ? <FlashBanner type="success" message={result.success} /> : null}
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      <Form method="post" className="flex flex-col gap-3">
        {/* Enter in a field presses the first submit button: this one, so it binds rather than sends a code. */}
        <button type="submit" name="intent" value="email-bind" className="sr-only" tabIndex={-1} aria-hidden="true">
          {t("绑定")}
        </button>
        <div>
          <label className="label" htmlFor="bind-email">
            {t("新邮箱")}
          </label>
          <div className="flex gap-2">
            {/* Both buttons need an address (the server says 请输入邮箱！ too); the code is only the bind button's, so the browser does not ask for it. */}
            <input
              id="bind-email"
              name="email"
              type="email"
              className="input"
              placeholder={t("输入邮箱地址")}
              required
              maxLength={50}
              {...validityMessagesProp({ valueMissing: t(messages.emailBindEmailRequired) })}
              defaultValue={result?.email ?? ""}
              aria-invalid={errors.email ? true : undefined}
            />
            <button
              type="submit"
              name="intent"
              value="email-code"
              className="btn-secondary shrink-0"
              data-countdown={codeSent ? RESEND_SECONDS : undefined}
              data-countdown-label={t("重新发送 ({n})")}
            >
              {t("获取验证码")}
            </button>
          </div>
          {errors.email ? <p className="field-error">{errors.email[0]}</p> : null}
        </div>
        <div>
          <label className="label" htmlFor="bind-code">
            {t("验证码")}
          </label>
          <input
            id="bind-code"
            name="code"
            type="text"
            inputMode="numeric"
            className="input"
            placeholder={t("输入验证码")}
            maxLength={32}
            aria-invalid={errors.code ? true : undefined}
          />
          {errors.code ? <p className="field-error">{errors.code[0]}</p> : null}
        </div>
        <TurnstileWidget {...data.turnstile} />
        <button type="submit" name="intent" value="email-bind" className="btn-primary self-start">
          {t("绑定")}
        </button>
      </Form>
    </section>
  );
}
