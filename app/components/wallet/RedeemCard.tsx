import { Form, Link } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useT } from "~/components/i18n/locale-context";
import { messages } from "~/messages";
import { validityMessagesProp } from "~/web/form-constraint";

/**
 * Redeem a code (docs/product.md, Wallet): a plain POST (intent=redeem), so it works without
 * JavaScript; with the enhancement script the button reads 兑换中... while the request runs. The get-codes button
 * opens the operator's TopUpLink, or says none is set.
 */
export function RedeemCard({
  error,
  topUpLink,
  linkMissing,
}: {
  error?: string;
  topUpLink?: string;
  linkMissing: boolean;
}) {
  const t = useT();
  return (
    <div className="card flex flex-col gap-3">
      <h2 className="font-semibold">{t("兑换余额")}</h2>
      {error ? <FlashBanner type="error" message={error} /> : null}
      {linkMissing ? <FlashBanner type="error" message={t(messages.topUpLinkMissing)} /> : null}
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="redeem" />
        <div className="flex-1">
          <label className="label" htmlFor="redeem-key">
            {t("兑换码", { context: "single" })}
          </label>
          <input
            id="redeem-key"
            name="key"
            className="input font-mono"
            placeholder={t("请输入兑换码")}
            required
            {...validityMessagesProp({ valueMissing: t(messages.redeemKeyRequired) })}
            maxLength={64}
            autoComplete="off"
          />
        </div>
        <button type="submit" className="btn-primary" data-busy-label={t("兑换中...")}>
          {t("兑换")}
        </button>
        {topUpLink ? (
          <a href={topUpLink} target="_blank" rel="noopener noreferrer" className="btn-secondary">
            {t("获取兑换码")}
          </a>
        ) : (
          <Link to="?get_codes=1" className="btn-secondary">
            {t("获取兑换码")}
          </Link>
        )}
      </Form>
    </div>
  );
}
