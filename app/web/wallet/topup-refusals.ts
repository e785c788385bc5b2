import type { TopUpRefusal } from "~/domain/payments/topup-orders.server";
import { messages } from "~/messages";

/**
 * A refused top-up in words. The API keeps the reference's text (a space before the minimum);
 * the console uses the product's (docs/product.md, Wallet), which has none.
 */
export function topUpRefusalText(refusal: TopUpRefusal, surface: "api" | "console"): string {
  switch (refusal.reason) {
    case "below-min":
      return (surface === "api" ? messages.topUpBelowMinApi : messages.topUpBelowMin).replace(
        "{min}",
        String(refusal.min),
      );
    case "money-too-low":
      return messages.topUpMoneyTooLow;
    case "too-large":
      return messages.topUpTooLarge;
    case "not-configured":
      return surface === "api" ? messages.topUpNotConfigured : messages.topUpDisabled;
    case "order-failed":
      return messages.topUpOrderFailed;
  }
}

/**
 * The reference's top-up replies carry no `success` key (kept for its console
 * and scripts): `{message:"success", data, url?}` or `{message:"error", data:"<reason>"}`.
 */
export function topUpReply(data: unknown, url?: string): Response {
  return Response.json({ message: "success", data, ...(url === undefined ? {} : { url }) });
}

export function topUpError(reason: string): Response {
  return Response.json({ message: "error", data: reason });
}
