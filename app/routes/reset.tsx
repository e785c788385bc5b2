import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { requestLocale } from "~/i18n/locale";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { TurnstileWidget } from "~/components/TurnstileWidget";
import { TURNSTILE_FIELD, turnstileRefusal, turnstileWidgetSettings } from "~/domain/auth/turnstile.server";
import { sendPasswordResetMail } from "~/domain/email/email-flows.server";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { allowCriticalRequest } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";
import { optionalUser } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "密码重置");

export async function loader({ request }: LoaderFunctionArgs) {
  if (await optionalUser(request)) throw redirect("/token");
  return { turnstile: turnstileWidgetSettings() };
}

type ResetRequestResult = { email: string; error?: string; sent?: string };

/** Mails a single-use reset link (docs/product.md, Sign-in and accounts); the address stays in the field either way. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const email = String(form.get("email") ?? "")
    .trim()
    .slice(0, 254);
  const ip = clientIp(request);
  if (!(await allowCriticalRequest(ip)))
    return data<ResetRequestResult>({ email, error: messages.tooManyRequests }, { status: 429 });
  if (!email) return data<ResetRequestResult>({ email, error: messages.emailRequired }, { status: 400 });
  const turnstile = await turnstileRefusal(String(form.get(TURNSTILE_FIELD) ?? ""), ip);
  if (turnstile) return data<ResetRequestResult>({ email, error: turnstile }, { status: 400 });
  const result = await sendPasswordResetMail(email, requestLocale(request));
  if (!result.ok) return data<ResetRequestResult>({ email, error: result.message }, { status: 400 });
  return data<ResetRequestResult>({ email, sent: messages.resetMailSent });
}

export default function ResetRequestPage() {
  const { turnstile } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const message = useMessage();
  return (
    <div className="mx-auto mt-6 max-w-sm">
      <div className="card">
        <h1 className="mb-4 text-center text-xl font-bold">{t("密码重置")}</h1>
        {result?.sent ? <FlashBanner type="success" message={message(result.sent)} /> : null}
        {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
        <Form method="post" className="flex flex-col gap-3">
          <div>
            <label className="label" htmlFor="reset-email">
              {t("邮箱")}
            </label>
            <input
              id="reset-email"
              name="email"
              type="email"
              className="input"
              placeholder={t("输入注册时使用的邮箱地址")}
              required
              maxLength={254}
              defaultValue={result?.email ?? ""}
              autoComplete="email"
            />
          </div>
          <TurnstileWidget {...turnstile} />
          <button type="submit" className="btn-primary">
            {t("发送重置邮件")}
          </button>
        </Form>
        <p className="mt-4 text-center text-sm">
          {t("想起来了？")}
          <Link to="/login" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("点击登录")}
          </Link>
        </p>
      </div>
    </div>
  );
}
