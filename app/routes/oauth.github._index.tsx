import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { githubCallback, oauthRateLimited, signedInLocation } from "~/web/oauth.server";
import { getSessionUser } from "~/web/session-cookie.server";

/**
 * GitHub's callback (docs/product.md, Sign-in and accounts): reads code and state. A sign-in goes on to /token with its
 * session cookie, a binding back to /setting; a failure says 操作失败，重定向至登录界面中... with the
 * reason and moves on (to /setting when signed in, else /login) after a few seconds.
 */
const FAILURE_REDIRECT_SECONDS = 5;

export const meta: MetaFunction<typeof loader> = ({ data: page, matches }) => [
  ...pageTitle(matches, "GitHub 登录"),
  ...(page ? [{ httpEquiv: "refresh", content: `${FAILURE_REDIRECT_SECONDS};url=${page.back}` }] : []),
];

export async function loader({ request }: LoaderFunctionArgs) {
  await whenBooted();
  const query = new URL(request.url).searchParams;
  const back = (await getSessionUser(request)) ? "/setting" : "/login";
  if (await oauthRateLimited(request)) return data({ reason: messages.tooManyRequests, back }, { status: 429 });
  const outcome = await githubCallback(request, query);
  if (!outcome.ok) return data({ reason: outcome.message, back }, { status: outcome.status ?? 400 });
  if (outcome.mode === "bind") return redirectWithFlash("/setting", { type: "success", message: messages.githubBound });
  throw redirect(signedInLocation(), { headers: { "Set-Cookie": outcome.cookie } });
}

export default function GitHubCallbackPage() {
  const page = useLoaderData<typeof loader>();
  const t = useT();
  const message = useMessage();
  return (
    <div className="mx-auto mt-6 max-w-sm">
      <div className="card">
        <FlashBanner type="error" message={t(messages.oauthFailed)} />
        <p className="mb-3 text-sm text-gray-700 dark:text-gray-300">{message(page.reason)}</p>
        <a href={page.back} className="text-blue-600 hover:underline dark:text-blue-400">
          {t(page.back === "/setting" ? "返回设置页" : "返回登录页")}
        </a>
      </div>
    </div>
  );
}
