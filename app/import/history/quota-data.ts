import type { SourceRow } from "../types";
import { asInt } from "../values";
import type { Cell } from "./batch-writer";
import { CellReader } from "./cells";
import type { HistoryMove } from "./history-mover";

const COLUMNS = ["id", "user_id", "username", "model_name", "created_at", "token_used", "count", "quota"] as const;

/**
 * The sources' hourly dashboard rows, with their ids. They are kept for the hours whose logs
 * the source no longer has (log retention); the hours that do have logs are recomputed from the
 * imported logs afterwards (decision 023), which also puts right the sources' `token_used`,
 * never added to after an hour's first flush. Two rows for one (user, model, hour) — two nodes
 * flushing at once — keep the first; the recomputation sums the hour's logs anyway.
 */
export const quotaDataMove: HistoryMove = {
  source: "quota_data",
  target: "quota_data",
  targetColumns: COLUMNS,
  known: COLUMNS,
  from: (ctx) => ctx.source,
  mapper(ctx) {
    const cells = new CellReader(ctx.report, "quota_data");
    return (row: SourceRow): Cell[] => {
      const id = asInt(row.id);
      const at = cells.seconds(id, "created_at", row.created_at);
      return [
        id,
        cells.int32(id, "user_id", row.user_id),
        cells.text(id, "username", row.username),
        cells.text(id, "model_name", row.model_name),
        at - (at % 3600),
        cells.int64(id, "token_used", row.token_used),
        cells.int64(id, "count", row.count),
        cells.int64(id, "quota", row.quota),
      ];
    };
  },
};
