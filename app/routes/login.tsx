import { getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { browserCheckedFormProps } from "~/components/form-props";
import { ThirdPartySignIn } from "~/components/auth/ThirdPartySignIn";
import { authenticator, SignInError } from "~/domain/auth/authenticator.server";
import { loginSchema, type LoginInput } from "~/domain/auth/forms";
import { TURNSTILE_FIELD, turnstileRefusal, turnstileWidgetSettings } from "~/domain/auth/turnstile.server";
import { TurnstileWidget } from "~/components/TurnstileWidget";
import { options } from "~/domain/options/store.server";
import { isDefaultRootPassword } from "~/domain/users/users.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { optionalUser } from "~/web/guards.server";
import { thirdPartyMethods } from "~/web/oauth.server";
import { createSession } from "~/web/session-cookie.server";
import { safeRedirectPath } from "~/utils/safe-redirect";
import { allowCriticalRequest, releaseCriticalRequest } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";
import { readForm } from "~/utils/edge-input";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "登录");

// A successful sign-in comes back here once with this marker before going on: a browser that
// kept the session cookie is sent on at once, one that dropped it is told so.
const SIGNED_IN_MARK = "signedIn";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const target = safeRedirectPath(url.searchParams.get("redirectTo"), url.origin, "/token");
  const user = await optionalUser(request);
  if (user && url.searchParams.get(SIGNED_IN_MARK) === "1") {
    // The notice rides on this hop, so a browser that lost the session sees no "登录成功！".
    throw await redirectWithFlash(target, {
      type: "success",
      message: messages.loginSuccess,
      defaultPassword: await isDefaultRootPassword(user),
    });
  }
  if (user) throw redirect(target);
  return {
    cookieRejected: url.searchParams.get(SIGNED_IN_MARK) === "1",
    passwordLogin: options.bool("PasswordLoginEnabled"),
    thirdParty: thirdPartyMethods(),
    registerEnabled: options.bool("RegisterEnabled"),
    turnstile: turnstileWidgetSettings(),
    constraint: formConstraint(loginSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await optionalUser(request);
  const form = await readForm(request.clone());
  const submission = parseWithZod(form, { schema: loginSchema });
  if (!(await allowCriticalRequest(clientIp(request)))) {
    return data(submission.reply({ formErrors: [messages.tooManyRequests] }), { status: 429 });
  }
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const turnstile = await turnstileRefusal(String(form.get(TURNSTILE_FIELD) ?? ""), clientIp(request));
  if (turnstile) return data(submission.reply({ formErrors: [turnstile], hideFields: ["password"] }), { status: 400 });
  try {
    const user = await authenticator.authenticate("password", request);
    // Taken before the check (so parallel guesses cannot slip under the limit), given back when
    // the password was right: only failures count.
    await releaseCriticalRequest(clientIp(request));
    const sessionCookie = await createSession(request, user.id);
    const target = safeRedirectPath(submission.value.redirectTo, new URL(request.url).origin, "/token");
    const check = `/login?${new URLSearchParams({ [SIGNED_IN_MARK]: "1", redirectTo: target })}`;
    return redirect(check, { headers: { "Set-Cookie": sessionCookie } });
  } catch (error) {
    if (error instanceof SignInError)
      return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), { status: 400 });
    throw error;
  }
}

export default function LoginPage() {
  const settings = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  // The browser refuses an empty field (the schema's constraints); the server validates again.
  const [form, fields] = useForm<LoginInput>({ lastResult, constraint: settings.constraint });
  const expired = params.get("expired") === "true";
  const t = useT();
  const message = useMessage();
  return (
    <div className="mx-auto mt-6 max-w-sm">
      <div className="card">
        <h1 className="mb-4 text-center text-xl font-bold">{t("用户登录")}</h1>
        {settings.cookieRejected && !form.errors ? (
          <FlashBanner type="error" message={t(messages.loginCookieRejected)} />
        ) : null}
        {expired && !form.errors && !settings.cookieRejected ? (
          <FlashBanner type="error" message={t(messages.loginExpired)} />
        ) : null}
        {form.errors?.map((e) => (
          <FlashBanner key={e} type="error" message={e} />
        ))}
        {settings.passwordLogin ? (
          <Form
            method="post"
            {...browserCheckedFormProps(form, settings.constraint, message)}
            className="flex flex-col gap-3"
          >
            <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
            <div>
              <label className="label" htmlFor={fields.username.id}>
                {t("用户名")}
              </label>
              <input
                {...getInputProps(fields.username, { type: "text" })}
                className="input"
                placeholder={t("用户名或邮箱")}
                autoComplete="username"
              />
              {fields.username.errors ? <p className="field-error">{fields.username.errors[0]}</p> : null}
            </div>
            <div>
              <label className="label" htmlFor={fields.password.id}>
                {t("密码")}
              </label>
              <input
                {...getInputProps(fields.password, { type: "password" })}
                className="input"
                placeholder={t("密码")}
                autoComplete="current-password"
              />
              {fields.password.errors && !fields.username.errors ? (
                <p className="field-error">{fields.password.errors[0]}</p>
              ) : null}
            </div>
            <TurnstileWidget {...settings.turnstile} />
            <button type="submit" className="btn-primary">
              {t("登录")}
            </button>
          </Form>
        ) : (
          <FlashBanner type="info" message={t(messages.passwordLoginDisabled)} />
        )}
        <ThirdPartySignIn methods={settings.thirdParty} />
        <div className="mt-4 flex justify-between text-sm">
          <Link to="/reset" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("忘记密码")}
          </Link>
          {settings.registerEnabled ? (
            <Link to="/register" className="text-blue-600 hover:underline dark:text-blue-400">
              {t("没有账户？点击注册")}
            </Link>
          ) : null}
        </div>
      </div>
    </div>
  );
}
