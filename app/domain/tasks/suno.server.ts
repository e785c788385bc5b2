import type { Selectable } from "kysely";
import type { TasksTable } from "../../../db/schema";
import { logQuotaText } from "~/domain/logs/quota-text.server";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import { refundTaskCharge } from "./task-refund.server";
import { jsonWithoutNul, TASK_PAGE_SIZE, withoutNul, type TaskListFilter } from "./task-list";

export type TaskRow = Selectable<TasksTable>;

/** A Suno task's state as its API reports it (POST /suno/fetch), read leniently. */
export type SunoTaskState = {
  status: string;
  failReason: string;
  progress: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  data: unknown;
};

export const TASK_DONE = "100%";
export const SUNO_PLATFORM = "suno";

export async function insertSunoTask(values: {
  userId: number;
  tokenId: number;
  channelId: number;
  taskId: string;
  action: string;
  quota: number;
  input: unknown;
}): Promise<TaskRow> {
  const db = await getDb();
  const now = Math.floor(Date.now() / 1000);
  return db
    .insertInto("tasks")
    .values({
      created_at: now,
      updated_at: now,
      task_id: withoutNul(values.taskId).slice(0, 100),
      platform: SUNO_PLATFORM,
      user_id: values.userId,
      token_id: values.tokenId,
      channel_id: values.channelId,
      quota: values.quota,
      action: values.action,
      status: "NOT_START",
      progress: "0%",
      submit_time: now,
      properties: JSON.stringify(jsonWithoutNul({ input: values.input })),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findSunoTasks(ids: string[], userId: number): Promise<TaskRow[]> {
  const taskIds = ids.filter((id) => !id.includes("\u0000"));
  if (taskIds.length === 0) return [];
  const db = await getDb();
  return db
    .selectFrom("tasks")
    .selectAll()
    .where("platform", "=", SUNO_PLATFORM)
    .where("task_id", "in", taskIds)
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .execute();
}

/** Unfinished Suno tasks, oldest first: the reference polls at most 500 per pass. */
export async function unfinishedSunoTasks(limit = 500): Promise<TaskRow[]> {
  const db = await getDb();
  return db
    .selectFrom("tasks")
    .selectAll()
    .where("platform", "=", SUNO_PLATFORM)
    .where("progress", "<>", TASK_DONE)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Applies what the Suno API says about one task; the same exactly-once rule as Midjourney
 * (midjourney.server applyMjState): only the UPDATE that moves an unfinished row to its final
 * state refunds, in its own transaction.
 */
export async function applySunoState(
  row: TaskRow,
  update: SunoTaskState,
): Promise<"unchanged" | "updated" | "refunded"> {
  const fail = update.status === "FAILURE" || (update.failReason !== "" && update.status !== "SUCCESS");
  const done = fail || update.status === "SUCCESS";
  const progress = done ? TASK_DONE : update.progress === TASK_DONE ? "99%" : update.progress.slice(0, 20);
  const now = Math.floor(Date.now() / 1000);
  const db = await getDb();
  let tokenHash: string | undefined;
  const outcome = await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("tasks")
      .set({
        status: fail ? "FAILURE" : withoutNul(update.status).slice(0, 20),
        progress,
        fail_reason: withoutNul(fail && !update.failReason ? "任务失败" : update.failReason).slice(0, 2000),
        start_time: update.startTime,
        finish_time: done && !update.finishTime ? now : update.finishTime,
        updated_at: now,
        ...(update.submitTime ? { submit_time: update.submitTime } : undefined),
        ...(update.data === undefined ? undefined : { data: JSON.stringify(jsonWithoutNul(update.data)) }),
        ...(fail && row.quota > 0 ? { refunded_at: now } : undefined),
      })
      .where("id", "=", row.id)
      .where("progress", "<>", TASK_DONE)
      .returning(["id", "user_id", "token_id", "channel_id", "quota", "action", "task_id"])
      .executeTakeFirst();
    if (!changed) return "unchanged" as const;
    if (!fail || changed.quota <= 0) return "updated" as const;
    tokenHash = await refundTaskCharge(
      trx,
      {
        userId: changed.user_id,
        tokenId: changed.token_id,
        channelId: changed.channel_id,
        quota: changed.quota,
        modelName: `suno_${changed.action.toLowerCase()}`,
      },
      `异步任务执行失败 ${changed.task_id}，补偿 ${logQuotaText(changed.quota)}`,
    );
    return "refunded" as const;
  });
  if (tokenHash) await publish(TOKEN_CHANGED_CHANNEL, tokenHash).catch(() => undefined);
  return outcome;
}

export async function listSunoTasks(
  filter: TaskListFilter,
  page: number,
): Promise<{ items: TaskRow[]; hasMore: boolean }> {
  const db = await getDb();
  let query = db.selectFrom("tasks").selectAll();
  if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
  if (filter.channelId !== undefined) query = query.where("channel_id", "=", filter.channelId);
  if (filter.taskId) query = query.where("task_id", "=", filter.taskId);
  if (filter.start !== undefined) query = query.where("submit_time", ">=", filter.start);
  if (filter.end !== undefined) query = query.where("submit_time", "<=", filter.end);
  const rows = await query
    .orderBy("id", "desc")
    .limit(TASK_PAGE_SIZE + 1)
    .offset(page * TASK_PAGE_SIZE)
    .execute();
  return { items: rows.slice(0, TASK_PAGE_SIZE), hasMore: rows.length > TASK_PAGE_SIZE };
}

function parsedJson(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The reference's Task JSON (gateway bookkeeping columns left out). */
export function toTaskJson(row: TaskRow) {
  const { token_id: _token, refunded_at: _refunded, ...rest } = row;
  return { ...rest, properties: parsedJson(rest.properties), data: parsedJson(rest.data) };
}

/** The task object of `/suno/fetch` (new-api's DTO). */
export function sunoTaskObject(row: TaskRow) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data: parsedJson(row.data),
  };
}
