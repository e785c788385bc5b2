import { Form, Link } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { renderQuota } from "~/utils/format";
import type { OnlineTopUpConfig, OnlineTopUpMethod, OnlineTopUpResult } from "~/web/wallet/online-topup-view";
import { validityMessagesProp } from "~/web/form-constraint";
import { messages } from "~/messages";

const METHOD_LABEL: Record<OnlineTopUpMethod, string> = { zfb: "支付宝", wx: "微信" };

/**
 * The wallet's online top-up (docs/product.md, Wallet): amount and a payment-method button, then a
 * confirmation with the amount and the payable yuan, then the signed form to the payment
 * gateway. Each step is a plain POST answered by the next view, so it all works without
 * JavaScript; the last form posts straight to the gateway, which is where the reference's
 * console sends the browser too.
 */
export function OnlineTopUpCard({ config, result }: { config: OnlineTopUpConfig; result?: OnlineTopUpResult }) {
  const t = useT();
  // The refusal travels inside the action's answer, not as its own message: read it back here.
  const message = useMessage();
  return (
    <section className="card flex flex-col gap-3" aria-labelledby="online-topup-title">
      <h2 id="online-topup-title" className="text-lg font-semibold">
        {t("在线充值")}
      </h2>
      {!config.enabled ? (
        <p className="text-sm text-gray-600 dark:text-gray-300">{t("管理员未开启在线充值！")}</p>
      ) : result?.step === "confirm" ? (
        <ConfirmStep result={result} config={config} />
      ) : result?.step === "gateway" ? (
        <GatewayStep result={result} />
      ) : (
        <>
          {result?.step === "error" ? <FlashBanner type="error" message={message(result.message)} /> : null}
          <AmountForm config={config} amount={result?.step === "error" ? result.amount : undefined} />
        </>
      )}
    </section>
  );
}

function AmountForm({ config, amount }: { config: OnlineTopUpConfig; amount?: string }) {
  const t = useT();
  const message = useMessage();
  const label = config.displayInCurrency ? t("充值数量（美元）") : t("充值数量（额度）");
  const belowMin = message(messages.topUpBelowMin.replace("{min}", String(config.minAmount)));
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="topup-quote" />
      <div className="w-56">
        <label className="label" htmlFor="topup-amount">
          {label}
        </label>
        {/* The product raises an amount under 1 to 1; the minimum top-up is the server's check, worded as docs/product.md says. */}
        <input
          id="topup-amount"
          name="amount"
          type="number"
          min={1}
          step={1}
          required
          {...validityMessagesProp({ valueMissing: belowMin, rangeUnderflow: belowMin })}
          defaultValue={amount ?? String(config.minAmount)}
          placeholder={t("充值数量，最低 {{min}}", { min: config.minAmount })}
          className="input"
        />
      </div>
      <button type="submit" name="payment_method" value="zfb" className="btn-primary">
        {t(METHOD_LABEL.zfb)}
      </button>
      <button type="submit" name="payment_method" value="wx" className="btn-primary">
        {t(METHOD_LABEL.wx)}
      </button>
    </Form>
  );
}

function ConfirmStep({
  result,
  config,
}: {
  result: Extract<OnlineTopUpResult, { step: "confirm" }>;
  config: OnlineTopUpConfig;
}) {
  const t = useT();
  return (
    <div
      role="dialog"
      aria-labelledby="topup-confirm-title"
      className="flex flex-col gap-2 rounded border border-blue-300 p-3 dark:border-blue-700"
    >
      <h3 id="topup-confirm-title" className="font-semibold">
        {t("确定要充值吗")}
      </h3>
      <p data-testid="topup-confirm-amount">{t("充值数量：{{amount}}", { amount: result.amount })}</p>
      <p className="text-sm text-gray-600 dark:text-gray-300">
        {t("到账额度：{{quota}}", { quota: renderQuota(result.quota, config.displayInCurrency, config.quotaPerUnit) })}
      </p>
      <p data-testid="topup-confirm-money">{t("实付金额：{{money}}元", { money: result.money })}</p>
      <p>{t("支付方式：{{method}}", { method: t(METHOD_LABEL[result.method]) })}</p>
      <p>{t("是否确认充值？")}</p>
      <Form method="post" className="flex gap-2">
        <input type="hidden" name="intent" value="topup-pay" />
        <input type="hidden" name="amount" value={result.amount} />
        <input type="hidden" name="payment_method" value={result.method} />
        <button type="submit" className="btn-primary">
          {t("确定")}
        </button>
        <Link to="/topup" className="btn-secondary">
          {t("取消")}
        </Link>
      </Form>
    </div>
  );
}

function GatewayStep({ result }: { result: Extract<OnlineTopUpResult, { step: "gateway" }> }) {
  const t = useT();
  return (
    <div
      role="dialog"
      aria-labelledby="topup-gateway-title"
      className="flex flex-col gap-2 rounded border border-blue-300 p-3 dark:border-blue-700"
    >
      <h3 id="topup-gateway-title" className="font-semibold">
        {t("订单已创建")}
      </h3>
      <p>
        {t("订单号：")}
        <span className="font-mono" data-testid="topup-trade-no">
          {result.tradeNo}
        </span>
      </p>
      <p>{t("实付金额：{{money}}元", { money: result.money })}</p>
      {/* A plain form to the gateway with the fields this server signed; nothing here needs a script. */}
      <form method="post" action={result.url} className="flex gap-2">
        {result.fields.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn-primary">
          {t("前往支付")}
        </button>
        <Link to="/topup" className="btn-secondary">
          {t("取消")}
        </Link>
      </form>
    </div>
  );
}
