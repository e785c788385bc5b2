import type { ThirdPartyMethods } from "~/web/oauth.server";
import { useT } from "~/components/i18n/locale-context";
import { TelegramLoginWidget } from "./TelegramLoginWidget";

/** The word the official account answers with a code: Chinese in either language, so marked as such. */
const WECHAT_KEYWORD = "验证码";
const KEYWORD_MARK = "\u0000";

/**
 * The login page's third-party methods, each shown only when the operator enabled it
 * (docs/product.md, Sign-in and accounts): the GitHub button (a link to a server route, so it works without JavaScript), the WeChat QR
 * code with a code form (a plain POST), and Telegram's widget (JavaScript only).
 */
export function ThirdPartySignIn({ methods }: { methods: ThirdPartyMethods }) {
  const t = useT();
  if (!methods.github && !methods.wechat && !methods.telegram) return null;
  const [beforeKeyword, afterKeyword] = t("微信扫码关注公众号，输入「{{keyword}}」获取验证码（三分钟内有效）", {
    keyword: KEYWORD_MARK,
  }).split(KEYWORD_MARK);
  return (
    <section
      aria-label={t("第三方登录")}
      className="mt-4 flex flex-col gap-3 border-t border-gray-200 pt-4 dark:border-gray-700"
    >
      {methods.github ? (
        <a href="/oauth/github/start" className="btn-secondary text-center">
          {t("使用 GitHub 登录")}
        </a>
      ) : null}
      {methods.wechat ? (
        <form method="post" action="/oauth/wechat" className="flex flex-col gap-2">
          {methods.wechat.qrCode ? (
            <img src={methods.wechat.qrCode} alt={t("微信公众号二维码")} className="mx-auto h-40 w-40" />
          ) : null}
          <p className="text-sm text-gray-600 dark:text-gray-300">
            {beforeKeyword}
            <span lang="zh-CN">{WECHAT_KEYWORD}</span>
            {afterKeyword}
          </p>
          <label className="label" htmlFor="wechat-code">
            {t("微信验证码")}
          </label>
          <div className="flex gap-2">
            <input
              id="wechat-code"
              name="code"
              className="input"
              required
              maxLength={64}
              autoComplete="one-time-code"
              placeholder={t("验证码")}
            />
            <button type="submit" className="btn-secondary whitespace-nowrap">
              {t("微信登录")}
            </button>
          </div>
        </form>
      ) : null}
      {methods.telegram ? (
        <TelegramLoginWidget botName={methods.telegram.botName} action="/oauth/telegram/login" />
      ) : null}
    </section>
  );
}
