import { Form, useActionData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useT } from "~/components/i18n/locale-context";
import { textAround } from "./page-text";
import { TelegramLoginWidget } from "~/components/auth/TelegramLoginWidget";
import type { loadOAuthBindings } from "~/web/settings/personal-oauth.server";
import type { SettingsActionResult } from "~/web/settings/tabs";

type Bindings = ReturnType<typeof loadOAuthBindings>["oauth"];

function useResult(intent: string): SettingsActionResult | undefined {
  const result = useActionData<SettingsActionResult>();
  return result?.intent === intent ? result : undefined;
}

function Bound({ provider, label, value }: { provider: string; label: string; value: string }) {
  const t = useT();
  return (
    <p className="text-sm">
      {t("{{label}}：", { label })}
      <span className="font-mono" data-testid={`bound-${provider}`}>
        {value}
      </span>
    </p>
  );
}

/**
 * The personal tab's account bindings (docs/product.md, Settings): a bound identifier is shown read-only; an
 * unbound provider the operator enabled offers its way to bind — GitHub a link into its OAuth
 * round trip, WeChat the QR code and a code form, Telegram its widget (JavaScript only).
 */
export function OAuthBindCards({ data: b }: { data: { oauth: Bindings } }) {
  const t = useT();
  const o = b.oauth;
  // The word to send the official account stays Chinese: it is what the WeChat server answers to.
  const [wechatHowBefore, wechatHowAfter] = textAround(
    t,
    "微信扫码关注公众号，输入「{{word}}」获取验证码（三分钟内有效）",
    "word",
  );
  const wechatResult = useResult("bind-wechat");
  const telegramResult = useResult("bind-telegram");
  // Once bound the code field is gone, so a refused code is said above the bound id instead.
  const wechatProblem = wechatResult?.error ?? (o.wechatId ? wechatResult?.fieldErrors?.code?.[0] : undefined);
  const showGitHub = o.githubEnabled || o.githubId;
  const showWeChat = o.wechatEnabled || o.wechatId;
  const showTelegram = (o.telegramEnabled && o.telegramBotName) || o.telegramId;
  if (!showGitHub && !showWeChat && !showTelegram) return null;
  return (
    <section className="card flex flex-col gap-4" aria-label={t("账号绑定")}>
      <h2 className="font-semibold">{t("账号绑定")}</h2>
      {showGitHub ? (
        <div className="flex flex-col gap-2">
          {o.githubId ? (
            <Bound provider="github" label="GitHub ID" value={o.githubId} />
          ) : (
            <a href="/oauth/github/start" className="btn-secondary self-start">
              {t("绑定 GitHub 账号")}
            </a>
          )}
        </div>
      ) : null}
      {showWeChat ? (
        <div className="flex flex-col gap-2">
          {/* Shown bound or not: a post after binding (a second tab, a resent form) still gets its answer. */}
          {wechatProblem ? <FlashBanner type="error" message={wechatProblem} /> : null}
          {o.wechatId ? (
            <Bound provider="wechat" label={t("微信")} value={o.wechatId} />
          ) : (
            <Form method="post" className="flex flex-col gap-2">
              <input type="hidden" name="intent" value="bind-wechat" />
              {o.wechatQrCode ? <img src={o.wechatQrCode} alt={t("微信公众号二维码")} className="h-40 w-40" /> : null}
              <p className="text-sm text-gray-600 dark:text-gray-300">
                {wechatHowBefore}
                <span lang="zh-CN">{"验证码"}</span>
                {wechatHowAfter}
              </p>
              <label className="label" htmlFor="bind-wechat-code">
                {t("微信验证码")}
              </label>
              <div className="flex gap-2">
                <input
                  id="bind-wechat-code"
                  name="code"
                  className="input"
                  required
                  maxLength={64}
                  autoComplete="one-time-code"
                  aria-invalid={wechatResult?.fieldErrors?.code ? true : undefined}
                />
                <button type="submit" className="btn-secondary whitespace-nowrap">
                  {t("绑定微信账号")}
                </button>
              </div>
              {wechatResult?.fieldErrors?.code ? (
                <p className="field-error">{wechatResult.fieldErrors.code[0]}</p>
              ) : null}
            </Form>
          )}
        </div>
      ) : null}
      {showTelegram ? (
        <div className="flex flex-col gap-2">
          {telegramResult?.error ? <FlashBanner type="error" message={telegramResult.error} /> : null}
          {o.telegramId ? (
            <Bound provider="telegram" label="Telegram ID" value={o.telegramId} />
          ) : (
            <>
              <p className="text-sm">{t("绑定 Telegram 账号")}</p>
              <TelegramLoginWidget botName={o.telegramBotName} action="/setting" fields={{ intent: "bind-telegram" }} />
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
