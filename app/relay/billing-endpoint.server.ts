import { billingWritten } from "./billing/quota.server";
import type { ServerResponse } from "node:http";
import { options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import type { TokenContext } from "./auth/token-auth.server";
import { sendJson } from "./http.server";

/**
 * OpenAI's old billing endpoints, which chat apps call to show a key's balance. With
 * DisplayTokenStatEnabled the token's own numbers are shown, else the account's.
 */
export async function sendBilling(
  token: TokenContext,
  kind: "subscription" | "usage",
  res: ServerResponse,
  requestId: string,
): Promise<void> {
  const quotaPerUnit = options.float("QuotaPerUnit") || 500000;
  const byToken = options.bool("DisplayTokenStatEnabled");
  await billingWritten(); // this process's delivered charges are in the balance read below
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .select(["quota", "used_quota"])
    .where("id", "=", token.user.id)
    .executeTakeFirstOrThrow();
  const fresh = await db
    .selectFrom("tokens")
    .select(["remain_quota", "used_quota", "unlimited_quota", "expired_time"])
    .where("id", "=", token.token.id)
    .executeTakeFirstOrThrow();
  const headers = { "X-Oneapi-Request-Id": requestId };
  if (kind === "usage") {
    const used = byToken ? fresh.used_quota : user.used_quota;
    sendJson(res, 200, { object: "list", total_usage: (used / quotaPerUnit) * 100 }, headers);
    return;
  }
  const remaining = byToken && !fresh.unlimited_quota ? fresh.remain_quota : user.quota;
  const used = byToken ? fresh.used_quota : user.used_quota;
  const limitUsd = (remaining + used) / quotaPerUnit;
  sendJson(
    res,
    200,
    {
      object: "billing_subscription",
      has_payment_method: true,
      soft_limit_usd: limitUsd,
      hard_limit_usd: limitUsd,
      system_hard_limit_usd: limitUsd,
      access_until: fresh.expired_time === -1 ? 0 : fresh.expired_time,
    },
    headers,
  );
}
