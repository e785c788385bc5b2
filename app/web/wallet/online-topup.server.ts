import type { User } from "../../../db/schema";
import { isOnlineTopUpEnabled } from "~/domain/payments/epay-config.server";
import { formatYuan, minimumAmount } from "~/domain/payments/money";
import { createTopUpOrder, quoteTopUp } from "~/domain/payments/topup-orders.server";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import type { OnlineTopUpConfig, OnlineTopUpMethod, OnlineTopUpResult } from "./online-topup-view";
import { topUpRefusalText } from "./topup-refusals";

/** The form intents of the online top-up card; the wallet page's action hands them here. */
export const ONLINE_TOPUP_INTENTS = ["topup-quote", "topup-pay"] as const;

export function loadOnlineTopUp(): OnlineTopUpConfig {
  const displayInCurrency = options.bool("DisplayInCurrencyEnabled");
  const quotaPerUnit = options.float("QuotaPerUnit");
  return {
    enabled: isOnlineTopUpEnabled(),
    minAmount: Math.max(1, minimumAmount(options.int("MinTopUp"), displayInCurrency, quotaPerUnit)),
    displayInCurrency,
    quotaPerUnit,
  };
}

const MAX_AMOUNT_DIGITS = 15;

/**
 * The amount field as the console reads it: a whole number; below 1 it is raised to 1 (docs/product.md, Wallet).
 * Anything else is refused rather than guessed at.
 */
function readAmount(raw: FormDataEntryValue | null): number | undefined {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!new RegExp(`^-?\\d{1,${MAX_AMOUNT_DIGITS}}$`).test(text)) return undefined;
  return Math.max(1, Number(text));
}

function readMethod(raw: FormDataEntryValue | null): OnlineTopUpMethod | undefined {
  return raw === "zfb" || raw === "wx" ? raw : undefined;
}

/**
 * The card's two POSTs, each answered with what the page renders next (no redirect: the
 * confirmation and the gateway form are views of this one request):
 * - `topup-quote` (amount + the pressed method button) → the confirmation with the payable sum;
 * - `topup-pay` (the confirmed amount and method) → a pending order and its signed gateway form.
 * Returns undefined for any other intent, so the page's action goes on with its own.
 */
export async function onlineTopUpAction(user: User, form: FormData): Promise<OnlineTopUpResult | undefined> {
  const intent = form.get("intent");
  if (intent !== "topup-quote" && intent !== "topup-pay") return undefined;
  const rawAmount = typeof form.get("amount") === "string" ? String(form.get("amount")).slice(0, 32) : "";
  if (!isOnlineTopUpEnabled()) return { step: "error", message: messages.topUpDisabled, amount: rawAmount };
  const amount = readAmount(form.get("amount"));
  if (amount === undefined) return { step: "error", message: messages.topUpAmountInvalid, amount: rawAmount };
  const method = readMethod(form.get("payment_method")) ?? "zfb";
  if (intent === "topup-quote") {
    const quoted = quoteTopUp(user, amount);
    if (!quoted.ok) {
      // The reference's console checks the minimum itself (in the words of docs/product.md, Wallet) and shows any other
      // refusal of the amount query as 错误：{detail}.
      const text = topUpRefusalText(quoted.refusal, "console");
      const message =
        quoted.refusal.reason === "below-min" ? text : messages.topUpAmountError.replace("{detail}", text);
      return { step: "error", message, amount: String(amount) };
    }
    return { step: "confirm", amount, method, money: formatYuan(quoted.quote.cents), quota: quoted.quote.quota };
  }
  const created = await createTopUpOrder(user, amount, method);
  if (!created.ok)
    return { step: "error", message: topUpRefusalText(created.refusal, "console"), amount: String(amount) };
  const { form: gateway } = created;
  return {
    step: "gateway",
    amount,
    money: formatYuan(gateway.quote.cents),
    tradeNo: gateway.tradeNo,
    url: gateway.url,
    fields: Object.entries(gateway.params),
  };
}
