import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { BalanceCard } from "~/components/wallet/BalanceCard";
import { OnlineTopUpCard } from "~/components/wallet/OnlineTopUpCard";
import { RedeemCard } from "~/components/wallet/RedeemCard";
import { TopUpHistory } from "~/components/wallet/TopUpHistory";
import { options } from "~/domain/options/store.server";
import { redeemCode } from "~/domain/redemptions/redeem.server";
import { redemptionMessages } from "~/domain/redemptions/redemption-constants";
import { walletSummary } from "~/domain/wallet/wallet.server";
import { readForm } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { renderQuota } from "~/utils/format";
import { clientIp } from "~/utils/request.server";
import { requireUser } from "~/web/guards.server";
import { loadOnlineTopUp, onlineTopUpAction } from "~/web/wallet/online-topup.server";
import type { OnlineTopUpResult } from "~/web/wallet/online-topup-view";
import { loadTopUpHistory } from "~/web/wallet/topup-history.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "钱包");

/** One key per card: balance, redeem, online top-up (Epay), and the top-up history. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    wallet: walletSummary(user),
    getCodesAsked: new URL(request.url).searchParams.has("get_codes"),
    onlineTopUp: loadOnlineTopUp(),
    topUpHistory: await loadTopUpHistory(user, new URL(request.url)),
  };
}

/** Each card posts its own intent. */
export type WalletActionResult = { intent: string; error?: string; onlineTopUp?: OnlineTopUpResult };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const onlineTopUp = await onlineTopUpAction(user, form);
  if (onlineTopUp)
    return data<WalletActionResult>({ intent, onlineTopUp }, { status: onlineTopUp.step === "error" ? 400 : 200 });
  switch (intent) {
    case "redeem": {
      const result = await redeemCode(user, String(form.get("key") ?? ""), clientIp(request));
      if (!result.ok)
        return data<WalletActionResult>(
          { intent, error: result.message },
          { status: result.reason === "limited" ? 429 : 400 },
        );
      const amount = renderQuota(result.quota, options.bool("DisplayInCurrencyEnabled"), options.float("QuotaPerUnit"));
      return redirectWithFlash("/topup", {
        type: "success",
        message: `${redemptionMessages.redeemed}成功兑换额度：${amount}`,
      });
    }
    default:
      return data<WalletActionResult>({ intent, error: "未知操作" }, { status: 400 });
  }
}

export default function WalletPage() {
  const { wallet, getCodesAsked, onlineTopUp, topUpHistory } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <h1 className="text-xl font-bold">{t("钱包")}</h1>
      <BalanceCard {...wallet} />
      <RedeemCard
        error={result?.intent === "redeem" ? result.error : undefined}
        topUpLink={wallet.topUpLink}
        linkMissing={getCodesAsked && !wallet.topUpLink}
      />
      <OnlineTopUpCard config={onlineTopUp} result={result?.onlineTopUp} />
      <TopUpHistory history={topUpHistory} />
    </div>
  );
}
