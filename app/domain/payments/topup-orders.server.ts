import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { TopUpsTable, User } from "../../../db/schema";
import { options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import { epayMerchant, epayNotifyUrl, epayReturnUrl, epaySubmitUrl } from "./epay-config.server";
import { EPAY_TYPE_OF_METHOD, signEpayParams, type EpayParams, type PaymentMethod } from "./epay-sign";
import { formatYuan, minimumAmount, payableCents, quotaForAmount } from "./money";

/** Why a top-up cannot go ahead; the wire layers word it (the API as the reference, the console as docs/product.md). */
export type TopUpRefusal =
  | { reason: "below-min"; min: number }
  | { reason: "money-too-low" }
  | { reason: "too-large" }
  | { reason: "not-configured" }
  | { reason: "order-failed" };

export type TopUpQuote = { amount: number; cents: number; quota: number };

/** The user's group's top-up ratio (missing or 0 counts as 1, as in the reference). */
function topUpGroupRatio(group: string): number {
  const ratios = options.json<Record<string, unknown>>("TopupGroupRatio");
  const ratio = ratios && typeof ratios === "object" ? ratios[group] : undefined;
  return typeof ratio === "number" && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
}

/**
 * What `amount` costs this user and what it credits. MinTopUp is enforced here, for the quote
 * and the order alike; a payable sum under one fen cannot be paid and is refused.
 */
export function quoteTopUp(
  user: Pick<User, "group">,
  amount: number,
): { ok: true; quote: TopUpQuote } | { ok: false; refusal: TopUpRefusal } {
  const displayInCurrency = options.bool("DisplayInCurrencyEnabled");
  const quotaPerUnit = options.float("QuotaPerUnit");
  const min = minimumAmount(options.int("MinTopUp"), displayInCurrency, quotaPerUnit);
  if (amount < min) return { ok: false, refusal: { reason: "below-min", min } };
  const quota = quotaForAmount(amount, displayInCurrency, quotaPerUnit);
  const cents = payableCents({
    amount,
    price: options.float("Price"),
    groupRatio: topUpGroupRatio(user.group),
    displayInCurrency,
    quotaPerUnit,
  });
  if (quota === undefined || cents === undefined) return { ok: false, refusal: { reason: "too-large" } };
  if (cents < 1) return { ok: false, refusal: { reason: "money-too-low" } };
  return { ok: true, quote: { amount, cents, quota } };
}

/** The signed form the browser posts to the gateway. */
export type EpayForm = { url: string; params: EpayParams; quote: TopUpQuote; tradeNo: string };

// The reference's shape (USR{uid}NO{random}{unix}), with the random part from a CSPRNG: the
// number only has to be unique, which the unique index guarantees, and not guessable.
function newTradeNo(userId: number): string {
  return `USR${userId}NO${randomBytes(5).toString("hex")}${Math.floor(Date.now() / 1000)}`;
}

/**
 * Creates a pending order and signs the gateway form for it. The order fixes the money (fen)
 * and the quota it will credit, so the notify only has to compare and apply them.
 */
export async function createTopUpOrder(
  user: Pick<User, "id" | "group">,
  amount: number,
  method: PaymentMethod,
): Promise<{ ok: true; form: EpayForm } | { ok: false; refusal: TopUpRefusal }> {
  const merchant = epayMerchant();
  if (!merchant) return { ok: false, refusal: { reason: "not-configured" } };
  const quoted = quoteTopUp(user, amount);
  if (!quoted.ok) return quoted;
  const { quote } = quoted;
  const type = EPAY_TYPE_OF_METHOD[method];
  const db = await getDb();
  let tradeNo = "";
  for (let attempt = 0; attempt < 3 && !tradeNo; attempt++) {
    const candidate = newTradeNo(user.id);
    const inserted = await db
      .insertInto("top_ups")
      .values({
        user_id: user.id,
        amount: quote.amount,
        money_cents: quote.cents,
        quota: quote.quota,
        trade_no: candidate,
        payment_method: type,
        create_time: Math.floor(Date.now() / 1000),
        paid_time: 0,
        status: "pending",
      })
      .onConflict((oc) => oc.column("trade_no").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) tradeNo = candidate;
  }
  if (!tradeNo) return { ok: false, refusal: { reason: "order-failed" } };
  const params = signEpayParams(
    {
      pid: merchant.pid,
      type,
      out_trade_no: tradeNo,
      notify_url: epayNotifyUrl(),
      name: `TUC${quote.amount}`,
      money: formatYuan(quote.cents),
      device: "pc",
      return_url: epayReturnUrl(),
    },
    merchant.key,
  );
  return { ok: true, form: { url: epaySubmitUrl(merchant), params, quote, tradeNo } };
}

/** An order as the wallet's history shows it (money in yuan, as the reference's `money`). */
export function toTopUpJson(row: Selectable<TopUpsTable>) {
  return {
    id: row.id,
    trade_no: row.trade_no,
    amount: row.amount,
    quota: row.quota,
    money: row.money_cents / 100,
    payment_method: row.payment_method,
    status: row.status,
    create_time: row.create_time,
    paid_time: row.paid_time,
  };
}
export type TopUpJson = ReturnType<typeof toTopUpJson>;

/** One page (0-based) of a user's orders, newest first. */
export async function listTopUps(
  userId: number,
  page: number,
  size: number,
): Promise<{ items: TopUpJson[]; total: number }> {
  const db = await getDb();
  const [rows, count] = await Promise.all([
    db
      .selectFrom("top_ups")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .limit(size)
      .offset(page * size)
      .execute(),
    db
      .selectFrom("top_ups")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toTopUpJson), total: Number(count.n) };
}
