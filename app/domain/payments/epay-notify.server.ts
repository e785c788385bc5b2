import { sql } from "kysely";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { options } from "~/domain/options/store.server";
import { USER_CHANGED_CHANNEL } from "~/domain/users/manage.server";
import { getDb } from "~/utils/db.server";
import { renderQuota } from "~/utils/format";
import { publish } from "~/utils/redis.server";
import { epayMerchant } from "./epay-config.server";
import { verifyEpaySignature, type EpayParams } from "./epay-sign";
import { formatYuan, parseYuan } from "./money";

/**
 * What the gateway's notify led to. `reply` is the plain-text body Epay expects: `success` stops
 * its retries, anything else (`fail`) makes it try again later. `outcome` says why, for the log
 * line and the tests.
 */
export type NotifyResult = {
  reply: "success" | "fail";
  outcome:
    | "credited"
    | "already-credited"
    | "not-paid"
    | "not-configured"
    | "bad-signature"
    | "ambiguous"
    | "wrong-merchant"
    | "unknown-order"
    | "wrong-money"
    | "owner-gone";
};

const TRADE_SUCCESS = "TRADE_SUCCESS";

const fail = (outcome: NotifyResult["outcome"]): NotifyResult => ({ reply: "fail", outcome });
const ok = (outcome: NotifyResult["outcome"]): NotifyResult => ({ reply: "success", outcome });

/** The query as a flat map; a parameter given twice makes it ambiguous which value was signed. */
function flatParams(query: URLSearchParams): EpayParams | undefined {
  const keys = [...query.keys()];
  if (new Set(keys).size !== keys.length) return undefined;
  // fromEntries defines own properties, so a `__proto__` parameter is a plain key like any other.
  return Object.fromEntries(query.entries());
}

/**
 * The gateway's payment notify (GET with query params). Every check the reference skipped is
 * made (docs/decisions/021): the signature under EpayKey (constant-time), pid = EpayId, the
 * order exists, and the paid `money` equals the order's to the fen. The order then goes from
 * pending to success, the user is credited and a top-up log written — one transaction whose
 * first statement is the conditional update, so of any number of replayed or concurrent
 * notifies exactly one finds the order pending and credits.
 */
export async function acceptEpayNotify(query: URLSearchParams): Promise<NotifyResult> {
  const merchant = epayMerchant();
  if (!merchant) return fail("not-configured");
  const params = flatParams(query);
  if (!params) return fail("ambiguous");
  if (!verifyEpaySignature(params, merchant.key)) return fail("bad-signature");
  if (params.pid !== merchant.pid) return fail("wrong-merchant");
  // A signed notify of an unpaid trade is acknowledged and changes nothing.
  if (params.trade_status !== TRADE_SUCCESS) return ok("not-paid");

  const tradeNo = params.out_trade_no ?? "";
  const db = await getDb();
  const order = await db
    .selectFrom("top_ups")
    .select(["id", "status", "money_cents"])
    .where("trade_no", "=", tradeNo)
    .executeTakeFirst();
  if (!order) return fail("unknown-order");
  const paid = parseYuan(params.money ?? "");
  if (paid !== order.money_cents) {
    console.warn(
      `[epay] notify for ${tradeNo} reports ${params.money ?? "(none)"} paid, the order is ${formatYuan(order.money_cents)}: not credited`,
    );
    return fail("wrong-money");
  }
  if (order.status !== "pending") return ok("already-credited");

  const now = Math.floor(Date.now() / 1000);
  const credited = await db
    .transaction()
    .execute(async (trx) => {
      const settled = await trx
        .updateTable("top_ups")
        .set({ status: "success", paid_time: now, provider_trade_no: (params.trade_no ?? "").slice(0, 128) })
        .where("id", "=", order.id)
        .where("status", "=", "pending")
        .where("money_cents", "=", paid)
        .returning(["user_id", "quota", "money_cents"])
        .executeTakeFirst();
      if (!settled) return "already-credited" as const;
      const user = await trx
        .updateTable("users")
        .set({ quota: sql`quota + ${settled.quota}::bigint` })
        .where("id", "=", settled.user_id)
        .returning(["id", "username"])
        .executeTakeFirst();
      // Rolled back: the order stays pending, so the money is credited when its owner can be.
      if (!user) throw new OwnerGone();
      const shownQuota = renderQuota(
        settled.quota,
        options.bool("DisplayInCurrencyEnabled"),
        options.float("QuotaPerUnit"),
        6,
      );
      await trx
        .insertInto("logs")
        .values({
          created_at: now,
          type: LOG_TYPE.topup,
          content: `使用在线充值成功，充值金额: ${shownQuota}，支付金额：${formatYuan(settled.money_cents)}`,
          user_id: user.id,
          username: user.username,
          quota: settled.quota,
          other: JSON.stringify({
            trade_no: tradeNo,
            provider_trade_no: params.trade_no ?? "",
            payment_method: params.type ?? "",
          }),
        })
        .execute();
      return { userId: user.id };
    })
    .catch((error: unknown) => {
      if (error instanceof OwnerGone) return "owner-gone" as const;
      throw error;
    });
  if (credited === "owner-gone") return fail("owner-gone");
  if (credited === "already-credited") return ok("already-credited");
  // Relay nodes drop their cached balance and quota slices for this user (decision 006).
  await publish(USER_CHANGED_CHANNEL, String(credited.userId));
  return ok("credited");
}

class OwnerGone extends Error {}
