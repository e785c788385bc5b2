import { ensureLogPartition } from "../../../db/connect";
import { LOG_TYPE } from "~/domain/logs/log-types";
import type { ImportContext, SourceRow } from "../types";
import { asBool, asInt } from "../values";
import type { Cell } from "./batch-writer";
import { CellReader } from "./cells";
import type { HistoryMove } from "./history-mover";

const COLUMNS = [
  "id",
  "created_at",
  "type",
  "content",
  "user_id",
  "username",
  "token_name",
  "model_name",
  "quota",
  "prompt_tokens",
  "completion_tokens",
  "use_time",
  "is_stream",
  "channel_id",
  "token_id",
  "group",
  "other",
] as const;

/** The log types Switchyard shows (top-up, consume, manage, system, and 0 for unknown). */
const KNOWN_TYPES = new Set<number>(Object.values(LOG_TYPE));

/**
 * Usage logs, with their ids and times, into the monthly partition of their month. new-api's
 * `use_time` is seconds; one-api keeps `elapsed_time` in milliseconds instead, carried as
 * seconds. Types Switchyard does not know (later new-api's error and refund logs) are kept as
 * type 0 with the original type in the report.
 */
export const logsMove: HistoryMove = {
  source: "logs",
  target: "logs",
  targetColumns: COLUMNS,
  known: [...COLUMNS, "elapsed_time"],
  from: (ctx) => ctx.logSource,
  where: (ctx) =>
    ctx.options.logsSince
      ? { sql: "created_at >= ?", params: [Math.floor(ctx.options.logsSince.getTime() / 1000)] }
      : undefined,
  mapper(ctx, have) {
    const cells = new CellReader(ctx.report, "logs");
    const elapsedMs = !have.has("use_time") && have.has("elapsed_time");
    return (row: SourceRow): Cell[] => {
      const id = asInt(row.id);
      let type = asInt(row.type);
      if (!KNOWN_TYPES.has(type)) {
        ctx.report.note("logs", id, "changed", `type ${type} is not one Switchyard shows: kept as 0 (unknown)`);
        type = LOG_TYPE.unknown;
      }
      const useTime = elapsedMs ? Math.round(asInt(row.elapsed_time) / 1000) : asInt(row.use_time);
      return [
        id,
        cells.seconds(id, "created_at", row.created_at),
        type,
        cells.text(id, "content", row.content),
        cells.int32(id, "user_id", row.user_id),
        cells.text(id, "username", row.username),
        cells.text(id, "token_name", row.token_name),
        cells.text(id, "model_name", row.model_name),
        cells.int64(id, "quota", row.quota),
        cells.int32(id, "prompt_tokens", row.prompt_tokens),
        cells.int32(id, "completion_tokens", row.completion_tokens),
        cells.int32(id, "use_time", useTime),
        asBool(row.is_stream),
        cells.int32(id, "channel_id", row.channel_id),
        cells.int32(id, "token_id", row.token_id),
        cells.text(id, "group", row.group),
        cells.text(id, "other", row.other),
      ];
    };
  },
  beforeWrite: ensureMonthPartitions,
};

/** Months already made sure of, per target: a batch usually spans one or two. */
const ensuredMonths = new WeakMap<object, Set<string>>();

/** Creates the monthly partitions a batch's rows fall into (old months have none yet). */
async function ensureMonthPartitions(ctx: ImportContext, rows: readonly Cell[][]): Promise<void> {
  let ensured = ensuredMonths.get(ctx.target);
  if (!ensured) ensuredMonths.set(ctx.target, (ensured = new Set()));
  for (const row of rows) {
    const day = new Date(Number(row[1]) * 1000);
    const month = `${day.getUTCFullYear()}-${day.getUTCMonth()}`;
    if (ensured.has(month)) continue;
    await ensureLogPartition(ctx.target, day);
    ensured.add(month);
  }
}
