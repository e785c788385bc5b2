import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CopyField } from "~/components/CopyField";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { resetPasswordWithToken } from "~/domain/email/email-flows.server";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { allowCriticalRequest } from "~/utils/rate-limit.server";
import { clientIp } from "~/utils/request.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "密码重置确认");

// The underscore keeps this page out of any /user layout: it is for visitors holding a mailed link.

/**
 * The page the reset mail links to. Opening the link changes nothing: mail scanners and link
 * previews fetch it. The password is reset by pressing the button (a POST), and the new one is
 * shown once.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  return { email: (params.get("email") ?? "").slice(0, 254), token: (params.get("token") ?? "").slice(0, 128) };
}

type ConfirmResult = { password?: string; error?: string };

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (!(await allowCriticalRequest(clientIp(request))))
    return data<ConfirmResult>({ error: messages.tooManyRequests }, { status: 429 });
  const result = await resetPasswordWithToken(
    String(form.get("email") ?? "").slice(0, 254),
    String(form.get("token") ?? "").slice(0, 128),
  );
  if (!result.ok) return data<ConfirmResult>({ error: result.message }, { status: 400 });
  return data<ConfirmResult>({ password: result.value }, { headers: { "Cache-Control": "no-store" } });
}

/**
 * The product copies the new password to the clipboard. A browser only lets a page do that on a
 * click, so there is a copy button (with the enhancement script); the field is selectable anyway.
 */
function NewPassword({ password }: { password: string }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <FlashBanner type="success" message={t(messages.resetDone)} />
      <CopyField id="new-password" testId="new-password" label={t("新密码")} value={password} />
      <p className="text-sm text-gray-500">{t("新密码只显示这一次，请妥善保存，登录后可在个人设置中修改。")}</p>
      <Link to="/login" className="btn-primary text-center">
        {t("前往登录")}
      </Link>
    </div>
  );
}

export default function ResetConfirmPage() {
  const { email, token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const linkComplete = Boolean(email && token);
  const t = useT();
  return (
    <div className="mx-auto mt-6 max-w-sm">
      <div className="card">
        <h1 className="mb-4 text-center text-xl font-bold">{t("密码重置确认")}</h1>
        {result?.password ? (
          <NewPassword password={result.password} />
        ) : (
          <>
            {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
            {!linkComplete ? <FlashBanner type="error" message={t(messages.resetLinkInvalid)} /> : null}
            <Form method="post" className="flex flex-col gap-3">
              <div>
                <label className="label" htmlFor="reset-confirm-email">
                  {t("邮箱")}
                </label>
                <input id="reset-confirm-email" name="email" type="email" className="input" readOnly value={email} />
              </div>
              <input type="hidden" name="token" value={token} />
              <button type="submit" className="btn-primary" disabled={!linkComplete}>
                {t("确认重置密码")}
              </button>
            </Form>
            <p className="mt-4 text-center text-sm">
              <Link to="/reset" className="text-blue-600 hover:underline dark:text-blue-400">
                {t("重新发送重置邮件")}
              </Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
