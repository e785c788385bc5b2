import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { OnlineTopUpCard } from "~/components/wallet/OnlineTopUpCard";
import { TopUpHistory } from "~/components/wallet/TopUpHistory";
import { options } from "~/domain/options/store.server";
import { readForm } from "~/utils/edge-input";
import { renderQuota } from "~/utils/format";
import { requireUser } from "~/web/guards.server";
import { loadOnlineTopUp, onlineTopUpAction } from "~/web/wallet/online-topup.server";
import { loadTopUpHistory } from "~/web/wallet/topup-history.server";

/*
 * The wallet (/topup). MINIMAL VERSION from branch i13-epay (online top-up): the page itself —
 * balance, redeem by code, the top-up link — is built on branch i13-redeem. When merging, keep
 * that page and add the lines marked "online top-up" below (one in the loader for each part,
 * one in the action, one in the view for each component).
 */
export const meta: MetaFunction = () => [{ title: "钱包" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    balance: renderQuota(user.quota, options.bool("DisplayInCurrencyEnabled"), options.float("QuotaPerUnit")),
    onlineTopUp: loadOnlineTopUp(), // online top-up
    topUpHistory: await loadTopUpHistory(user, new URL(request.url)), // online top-up
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const onlineTopUp = await onlineTopUpAction(user, form); // online top-up
  if (onlineTopUp) return data({ onlineTopUp, error: undefined }, { status: onlineTopUp.step === "error" ? 400 : 200 }); // online top-up
  return data({ onlineTopUp: undefined, error: "未知操作" }, { status: 400 });
}

export default function TopUpPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="flex flex-col gap-3">
      <h1 className="text-xl font-bold">钱包</h1>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      <section className="card" aria-label="余额">
        <p className="text-sm text-gray-600 dark:text-gray-300">当前余额</p>
        <p className="text-2xl font-bold" data-testid="wallet-balance">{page.balance}</p>
      </section>
      <OnlineTopUpCard config={page.onlineTopUp} result={result?.onlineTopUp} /> {/* online top-up */}
      <TopUpHistory history={page.topUpHistory} /> {/* online top-up */}
    </div>
  );
}
