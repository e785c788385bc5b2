import type { User } from "../../../db/schema";
import { options } from "~/domain/options/store.server";

/** What the wallet's balance and redeem cards show. */
export function walletSummary(user: User) {
  return {
    quota: user.quota,
    usedQuota: user.used_quota,
    requestCount: user.request_count,
    // Only an http(s) link, whatever the option holds.
    topUpLink: options.link("TopUpLink") || undefined,
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}

export type WalletSummary = ReturnType<typeof walletSummary>;
