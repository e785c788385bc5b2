import type { SourceRow } from "../types";
import { asInt } from "../values";
import type { Cell } from "./batch-writer";
import { CellReader } from "./cells";
import type { HistoryMove } from "./history-mover";

const MJ_COLUMNS = [
  "id",
  "code",
  "user_id",
  "action",
  "mj_id",
  "prompt",
  "prompt_en",
  "description",
  "state",
  "submit_time",
  "start_time",
  "finish_time",
  "image_url",
  "status",
  "progress",
  "fail_reason",
  "channel_id",
  "quota",
  "buttons",
  "properties",
] as const;

/**
 * Midjourney tasks, with their ids. Their times are milliseconds in new-api and in Switchyard
 * alike; a source that wrote seconds has them multiplied. The paying token is not recorded by
 * the sources (0), and a finished task needs no refund record.
 */
export const midjourneysMove: HistoryMove = {
  source: "midjourneys",
  target: "midjourneys",
  targetColumns: MJ_COLUMNS,
  known: MJ_COLUMNS,
  from: (ctx) => ctx.source,
  mapper(ctx) {
    const cells = new CellReader(ctx.report, "midjourneys");
    return (row: SourceRow): Cell[] => {
      const id = asInt(row.id);
      const text = (column: (typeof MJ_COLUMNS)[number]) => cells.text(id, column, row[column]);
      return [
        cells.int32(id, "id", row.id, 1),
        cells.int32(id, "code", row.code),
        cells.int32(id, "user_id", row.user_id),
        text("action"),
        text("mj_id"),
        text("prompt"),
        text("prompt_en"),
        text("description"),
        text("state"),
        cells.milliseconds(id, "submit_time", row.submit_time),
        cells.milliseconds(id, "start_time", row.start_time),
        cells.milliseconds(id, "finish_time", row.finish_time),
        text("image_url"),
        text("status"),
        text("progress"),
        text("fail_reason"),
        cells.int32(id, "channel_id", row.channel_id),
        cells.int64(id, "quota", row.quota),
        text("buttons"),
        text("properties"),
      ];
    };
  },
};

const TASK_COLUMNS = [
  "id",
  "created_at",
  "updated_at",
  "task_id",
  "platform",
  "user_id",
  "channel_id",
  "quota",
  "action",
  "status",
  "fail_reason",
  "submit_time",
  "start_time",
  "finish_time",
  "progress",
  "properties",
  "data",
] as const;

/** Suno (and later video) tasks, with their ids; times in seconds as in both sources. */
export const tasksMove: HistoryMove = {
  source: "tasks",
  target: "tasks",
  targetColumns: TASK_COLUMNS,
  known: TASK_COLUMNS,
  from: (ctx) => ctx.source,
  mapper(ctx) {
    const cells = new CellReader(ctx.report, "tasks");
    return (row: SourceRow): Cell[] => {
      const id = asInt(row.id);
      const text = (column: (typeof TASK_COLUMNS)[number]) => cells.text(id, column, row[column]);
      const seconds = (column: (typeof TASK_COLUMNS)[number]) => cells.seconds(id, column, row[column]);
      return [
        id,
        seconds("created_at"),
        seconds("updated_at"),
        text("task_id"),
        text("platform"),
        cells.int32(id, "user_id", row.user_id),
        cells.int32(id, "channel_id", row.channel_id),
        cells.int64(id, "quota", row.quota),
        text("action"),
        text("status"),
        text("fail_reason"),
        seconds("submit_time"),
        seconds("start_time"),
        seconds("finish_time"),
        text("progress"),
        cells.json(id, "properties", row.properties),
        cells.json(id, "data", row.data),
      ];
    };
  },
};
