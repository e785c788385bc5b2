import { effectiveServerAddress, options } from "~/domain/options/store.server";

/** The merchant account at an Epay gateway, when the operator has set all of it. */
export type EpayMerchant = { payAddress: string; pid: string; key: string };

/** Online top-up is on exactly when PayAddress, EpayId and EpayKey are all set (as /api/status says). */
export function epayMerchant(): EpayMerchant | undefined {
  const payAddress = options.string("PayAddress").trim();
  const pid = options.string("EpayId").trim();
  const key = options.string("EpayKey");
  return payAddress && pid && key ? { payAddress: withoutTrailingSlash(payAddress), pid, key } : undefined;
}

export function isOnlineTopUpEnabled(): boolean {
  return epayMerchant() !== undefined;
}

// A trailing slash on an address made `//api/user/epay/notify`, which some gateways and proxies
// do not deliver: paid but never credited (the reference's users hit it, QN #1687, #492).
function withoutTrailingSlash(address: string): string {
  return address.replace(/\/+$/, "");
}

/** Where the gateway sends its notify: CustomCallbackAddress, else the server address. */
export function epayNotifyUrl(): string {
  const base = options.string("CustomCallbackAddress").trim() || effectiveServerAddress();
  return `${withoutTrailingSlash(base)}/api/user/epay/notify`;
}

/** Where the gateway sends the payer's browser afterwards: the wallet, whose history shows the order. */
export function epayReturnUrl(): string {
  return `${withoutTrailingSlash(effectiveServerAddress())}/topup`;
}

export function epaySubmitUrl(merchant: EpayMerchant): string {
  return `${merchant.payAddress}/submit.php`;
}
