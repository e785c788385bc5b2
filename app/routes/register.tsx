import { getInputProps, useForm } from "@conform-to/react";
import { requestLocale } from "~/i18n/locale";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  createCookie,
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { browserCheckedFormProps } from "~/components/form-props";
import { registerSchema, sendCodeSchema, type RegisterInput } from "~/domain/auth/forms";
import { TURNSTILE_FIELD, turnstileRefusal, turnstileWidgetSettings } from "~/domain/auth/turnstile.server";
import { sendVerificationCode } from "~/domain/email/email-flows.server";
import { TurnstileWidget } from "~/components/TurnstileWidget";
import { options } from "~/domain/options/store.server";
import { registerWithPassword } from "~/domain/users/registration.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import type { FormConstraint } from "~/web/form-constraint";
import { optionalUser } from "~/web/guards.server";
import { allowCriticalRequest } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";
import { readForm } from "~/utils/edge-input";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "注册");

// The product keeps ?aff= "locally" so an invite survives a detour; a cookie does that without JS.
const affCookie = createCookie("aff", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 30 * 24 * 3600 });

/**
 * The form's HTML constraints. With email verification on, the schema's refinement also asks for
 * an address (as 获取验证码 checks it) and a code; the browser is told so too. 获取验证码 posts
 * with formNoValidate, so an empty code never stops a code being sent.
 */
function registerConstraint(emailVerification: boolean): FormConstraint {
  const constraint = formConstraint(registerSchema(emailVerification));
  if (!emailVerification) return constraint;
  return {
    ...constraint,
    email: formConstraint(sendCodeSchema).email!,
    verification_code: { required: true, messages: { valueMissing: messages.verificationCodeRequired } },
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (await optionalUser(request)) throw redirect("/token");
  const fromQuery = new URL(request.url).searchParams.get("aff")?.trim().slice(0, 32);
  const stored: unknown = await affCookie.parse(request.headers.get("Cookie"));
  const aff = fromQuery || (typeof stored === "string" ? stored : "");
  const emailVerification = options.bool("EmailVerificationEnabled");
  const settings = {
    aff,
    registerEnabled: options.bool("RegisterEnabled"),
    passwordRegister: options.bool("PasswordRegisterEnabled"),
    emailVerification,
    turnstile: turnstileWidgetSettings(),
    constraint: registerConstraint(emailVerification),
  };
  return data(settings, fromQuery ? { headers: { "Set-Cookie": await affCookie.serialize(fromQuery) } } : undefined);
}

const HIDDEN = { hideFields: ["password", "password2"] };

/**
 * Two buttons post here: 注册 (no intent) and 获取验证码 (intent=send-code), which mails a code
 * and renders the form again with what was typed (passwords excepted), so it works without JS.
 */
export async function action({ request }: ActionFunctionArgs) {
  await optionalUser(request);
  const form = await readForm(request);
  const sendCode = form.get("intent") === "send-code";
  const schema = sendCode ? sendCodeSchema : registerSchema(options.bool("EmailVerificationEnabled"));
  const submission = parseWithZod(form, { schema });
  if (!(await allowCriticalRequest(clientIp(request)))) {
    return data({ result: submission.reply({ formErrors: [messages.tooManyRequests], ...HIDDEN }) }, { status: 429 });
  }
  if (submission.status !== "success") return data({ result: submission.reply(HIDDEN) }, { status: 400 });
  const turnstile = await turnstileRefusal(String(form.get(TURNSTILE_FIELD) ?? ""), clientIp(request));
  if (turnstile) return data({ result: submission.reply({ formErrors: [turnstile], ...HIDDEN }) }, { status: 400 });
  if (sendCode) {
    const sent = await sendVerificationCode(String(form.get("email") ?? ""), requestLocale(request));
    if (!sent.ok)
      return data({ result: submission.reply({ fieldErrors: { email: [sent.message] }, ...HIDDEN }) }, { status: 400 });
    return data({ result: submission.reply(HIDDEN), notice: messages.verificationCodeSent });
  }
  const result = await registerWithPassword(submission.value as RegisterInput);
  if (!result.ok) {
    const reply = result.field
      ? submission.reply({ fieldErrors: { [result.field]: [result.message] }, ...HIDDEN })
      : submission.reply({ formErrors: [result.message], ...HIDDEN });
    return data({ result: reply }, { status: 400 });
  }
  return redirectWithFlash("/login", { type: "success", message: messages.registerSuccess }, [
    await affCookie.serialize("", { maxAge: 0 }),
  ]);
}

function FieldError({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

export default function RegisterPage() {
  const settings = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.result;
  const notice = actionData && "notice" in actionData ? actionData.notice : undefined;
  // The browser checks the schema's constraints (a too-short password is refused before posting);
  // the server validates everything again, the passwords' match included.
  const [form, fields] = useForm<RegisterInput>({
    lastResult,
    defaultValue: { aff_code: settings.aff },
    constraint: settings.constraint,
  });
  const open = settings.registerEnabled && settings.passwordRegister;
  const t = useT();
  const message = useMessage();
  return (
    <div className="mx-auto mt-6 max-w-sm">
      <div className="card">
        <h1 className="mb-4 text-center text-xl font-bold">{t("新用户注册")}</h1>
        {notice ? <FlashBanner type="success" message={message(notice)} /> : null}
        {form.errors?.map((e) => (
          <FlashBanner key={e} type="error" message={e} />
        ))}
        {!open ? (
          <FlashBanner
            type="info"
            message={t(settings.registerEnabled ? messages.passwordRegisterDisabled : messages.registerDisabled)}
          />
        ) : (
          <Form
            method="post"
            {...browserCheckedFormProps(form, settings.constraint, message)}
            className="flex flex-col gap-3"
          >
            {/* Enter in a field presses the form's first submit button: this one, so it registers rather than sends a code. */}
            {settings.emailVerification ? (
              <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true">
                {t("注册")}
              </button>
            ) : null}
            <div>
              <label className="label" htmlFor={fields.username.id}>
                {t("用户名")}
              </label>
              <input
                {...getInputProps(fields.username, { type: "text" })}
                className="input"
                placeholder={t("输入用户名，最长 12 位")}
                autoComplete="username"
              />
              <FieldError errors={fields.username.errors} />
            </div>
            <div>
              <label className="label" htmlFor={fields.password.id}>
                {t("密码")}
              </label>
              <input
                {...getInputProps(fields.password, { type: "password" })}
                className="input"
                placeholder={t("输入密码，最短 8 位，最长 20 位")}
                autoComplete="new-password"
              />
              <FieldError errors={fields.password.errors} />
            </div>
            <div>
              <label className="label" htmlFor={fields.password2.id}>
                {t("确认密码")}
              </label>
              <input
                {...getInputProps(fields.password2, { type: "password" })}
                className="input"
                placeholder={t("再次输入密码")}
                autoComplete="new-password"
              />
              <FieldError errors={fields.password2.errors} />
            </div>
            {settings.emailVerification ? (
              <>
                <div>
                  <label className="label" htmlFor={fields.email.id}>
                    {t("邮箱")}
                  </label>
                  <div className="flex gap-2">
                    <input
                      {...getInputProps(fields.email, { type: "email" })}
                      className="input"
                      placeholder={t("输入邮箱地址")}
                    />
                    <button
                      type="submit"
                      name="intent"
                      value="send-code"
                      formNoValidate
                      className="btn-secondary shrink-0"
                    >
                      {t("获取验证码")}
                    </button>
                  </div>
                  <FieldError errors={fields.email.errors} />
                </div>
                <div>
                  <label className="label" htmlFor={fields.verification_code.id}>
                    {t("验证码")}
                  </label>
                  <input
                    {...getInputProps(fields.verification_code, { type: "text" })}
                    className="input"
                    placeholder={t("输入验证码")}
                  />
                  <FieldError errors={fields.verification_code.errors} />
                </div>
              </>
            ) : null}
            <input {...getInputProps(fields.aff_code, { type: "hidden" })} />
            <TurnstileWidget {...settings.turnstile} />
            <button type="submit" className="btn-primary">
              {t("注册")}
            </button>
          </Form>
        )}
        <p className="mt-4 text-center text-sm">
          {t("已有账户？")}
          <Link to="/login" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("点击登录")}
          </Link>
        </p>
      </div>
    </div>
  );
}
