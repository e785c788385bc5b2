import type { ImportContext, SourceRow } from "../types";
import { asFloat, asInt, asString } from "../values";
import type { Cell } from "./batch-writer";
import { CellReader } from "./cells";
import type { HistoryMove } from "./history-mover";

const COLUMNS = [
  "id",
  "user_id",
  "amount",
  "money_cents",
  "quota",
  "trade_no",
  "payment_method",
  "provider_trade_no",
  "create_time",
  "paid_time",
  "status",
] as const;

/** The sources' default quota per unit (dollar) when their options do not set one. */
const DEFAULT_QUOTA_PER_UNIT = 500_000;

/**
 * Online top-up orders, with their ids. The sources keep the money as a float and no quota:
 * the money becomes fen and the quota is the amount at the source's QuotaPerUnit (what the
 * order credited there). Trade numbers must be unique here (the sources do not enforce it): a
 * repeated one gets the row's id appended. Orders of users the target does not have are
 * dropped (the table points at users).
 */
export const topUpsMove: HistoryMove = {
  source: "top_ups",
  target: "top_ups",
  targetColumns: COLUMNS,
  known: ["id", "user_id", "amount", "money", "trade_no", "payment_method", "create_time", "complete_time", "status"],
  from: (ctx) => ctx.source,
  async mapper(ctx) {
    const cells = new CellReader(ctx.report, "top_ups");
    const users = await knownUserIds(ctx);
    const quotaPerUnit = await sourceQuotaPerUnit(ctx);
    const tradeNos = new Set<string>();
    return (row: SourceRow): Cell[] | undefined => {
      const id = asInt(row.id);
      const userId = asInt(row.user_id);
      if (!users.has(userId)) {
        ctx.report.note("top_ups", id, "dropped", `user ${userId} is not in the target`);
        return undefined;
      }
      let tradeNo = cells.text(id, "trade_no", row.trade_no).trim();
      if (tradeNo === "" || tradeNos.has(tradeNo)) {
        const given = tradeNo;
        tradeNo = `${given || "import"}-${id}`;
        ctx.report.note(
          "top_ups",
          id,
          "changed",
          given
            ? `trade_no ${given} repeats an earlier order's: kept as ${tradeNo}`
            : `no trade_no: kept as ${tradeNo}`,
        );
      }
      tradeNos.add(tradeNo);
      const status = asString(row.status);
      if (status !== "success" && status !== "pending")
        ctx.report.note("top_ups", id, "changed", `status ${JSON.stringify(status)} kept as pending (never paid)`);
      const amount = Math.max(asInt(row.amount), 0);
      const moneyCents = Math.max(Math.round(asFloat(row.money) * 100), 0);
      if (amount !== asInt(row.amount) || moneyCents !== Math.round(asFloat(row.money) * 100))
        ctx.report.note("top_ups", id, "clamped", "a negative amount or money kept as 0");
      const createTime = cells.seconds(id, "create_time", row.create_time);
      const paid = status === "success";
      const completed = cells.seconds(id, "complete_time", row.complete_time);
      return [
        id,
        userId,
        amount,
        moneyCents,
        Math.round(amount * quotaPerUnit),
        tradeNo,
        asString(row.payment_method),
        "",
        createTime,
        paid ? completed || createTime : 0,
        paid ? "success" : "pending",
      ];
    };
  },
};

/** With --apply the target's users (written by the account steps); in a dry run the source's. */
async function knownUserIds(ctx: ImportContext): Promise<Set<number>> {
  if (ctx.apply) {
    const rows = await ctx.target.selectFrom("users").select("id").execute();
    return new Set(rows.map((r) => r.id));
  }
  if (!(await ctx.source.tables()).includes("users")) return new Set();
  return new Set((await ctx.source.all("users", ["id"])).map((r) => asInt(r.id)));
}

async function sourceQuotaPerUnit(ctx: ImportContext): Promise<number> {
  if (!(await ctx.source.tables()).includes("options")) return DEFAULT_QUOTA_PER_UNIT;
  const options = await ctx.source.all("options", ["key", "value"]);
  const value = asFloat(options.find((o) => asString(o.key) === "QuotaPerUnit")?.value, DEFAULT_QUOTA_PER_UNIT);
  return value > 0 ? value : DEFAULT_QUOTA_PER_UNIT;
}
