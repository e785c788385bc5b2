import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The standard 易支付 (Epay) MD5 signature, used both for the form this server
 * hands the browser and for the gateway's notifies: every parameter except `sign` and
 * `sign_type`, empty values dropped, keys in ASCII order, joined as raw `k=v&k=v`, the merchant
 * key appended directly, lowercase hex MD5. Pure so the gateway mock and the tests share it.
 */
export type EpayParams = Record<string, string>;

export const EPAY_SIGN_TYPE = "MD5";

export function epaySigningString(params: EpayParams): string {
  return (
    Object.keys(params)
      .filter((key) => key !== "sign" && key !== "sign_type" && params[key] !== "")
      // Code-unit order is ASCII order for the keys gateways use; localeCompare would not be.
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => `${key}=${params[key]}`)
      .join("&")
  );
}

export function epaySignature(params: EpayParams, merchantKey: string): string {
  return createHash("md5")
    .update(epaySigningString(params) + merchantKey, "utf8")
    .digest("hex");
}

/** The params with `sign` and `sign_type` added, as the gateway expects them. */
export function signEpayParams(params: EpayParams, merchantKey: string): EpayParams {
  const unsigned = { ...params };
  delete unsigned.sign;
  delete unsigned.sign_type;
  return { ...unsigned, sign: epaySignature(unsigned, merchantKey), sign_type: EPAY_SIGN_TYPE };
}

/**
 * Whether `params` carry a valid signature under `merchantKey`. Every received parameter enters
 * the string (gateways sign what they send, unknown ones included). The comparison takes the same
 * time wherever the first differing digit is, so a forger learns nothing from response times.
 */
export function verifyEpaySignature(params: EpayParams, merchantKey: string): boolean {
  const received = (params.sign ?? "").toLowerCase();
  const signType = params.sign_type ?? EPAY_SIGN_TYPE;
  if (signType.toUpperCase() !== EPAY_SIGN_TYPE || !/^[0-9a-f]{32}$/.test(received)) return false;
  const expected = epaySignature(params, merchantKey);
  return timingSafeEqual(Buffer.from(received, "utf8"), Buffer.from(expected, "utf8"));
}

/** The console's payment buttons (zfb, wx) as Epay's `type`. */
export const EPAY_TYPE_OF_METHOD = { zfb: "alipay", wx: "wxpay" } as const;
export type PaymentMethod = keyof typeof EPAY_TYPE_OF_METHOD;
export const PAYMENT_METHODS = Object.keys(EPAY_TYPE_OF_METHOD) as PaymentMethod[];
