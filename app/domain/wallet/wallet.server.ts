import type { User } from "../../../db/schema";
import { options } from "~/domain/options/store.server";

/** A link the wallet may open: only http(s), whatever the option holds. */
function safeLink(raw: string): string | undefined {
  try {
    const url = new URL(raw.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** What the wallet's balance and redeem cards show. */
export function walletSummary(user: User) {
  return {
    quota: user.quota,
    usedQuota: user.used_quota,
    requestCount: user.request_count,
    topUpLink: safeLink(options.string("TopUpLink")),
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
  };
}

export type WalletSummary = ReturnType<typeof walletSummary>;
