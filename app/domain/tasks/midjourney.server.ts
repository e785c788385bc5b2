import type { Selectable } from "kysely";
import type { MidjourneysTable } from "../../../db/schema";
import { logQuotaText } from "~/domain/logs/quota-text.server";
import { effectiveServerAddress, options } from "~/domain/options/store.server";
import { TOKEN_CHANGED_CHANNEL } from "~/domain/tokens/tokens.server";
import { getDb } from "~/utils/db.server";
import { publish } from "~/utils/redis.server";
import { refundTaskCharge } from "./task-refund.server";
import { TASK_PAGE_SIZE, withoutNul, type TaskListFilter } from "./task-list";

export type MjRow = Selectable<MidjourneysTable>;

/** A task's state as the proxy reports it (fetch, list-by-condition, notify), already read leniently. */
export type MjTaskState = {
  status: string;
  progress: string;
  imageUrl: string;
  failReason: string;
  prompt?: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  buttons: string;
  properties: string;
};

export const MJ_DONE = "100%";

export async function insertMjTask(values: {
  userId: number;
  tokenId: number;
  channelId: number;
  code: number;
  action: string;
  mjId: string;
  prompt: string;
  description: string;
  state: string;
  status: string;
  progress: string;
  failReason: string;
  quota: number;
  imageUrl?: string;
  finishTime?: number;
  properties?: string;
}): Promise<MjRow> {
  const db = await getDb();
  const clean = (text: string, max: number) => withoutNul(text).slice(0, max);
  return db
    .insertInto("midjourneys")
    .values({
      user_id: values.userId,
      token_id: values.tokenId,
      channel_id: values.channelId,
      code: values.code,
      action: values.action,
      mj_id: clean(values.mjId, 100),
      prompt: clean(values.prompt, 8000),
      description: clean(values.description, 8000),
      state: clean(values.state, 1000),
      status: values.status,
      progress: values.progress,
      fail_reason: clean(values.failReason, 2000),
      quota: values.quota,
      submit_time: Date.now(),
      image_url: clean(values.imageUrl ?? "", 2000),
      finish_time: values.finishTime ?? 0,
      properties: clean(values.properties ?? "", 20_000),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The newest task with this proxy id (of this user, when given). */
export async function findMjTask(mjId: string, userId?: number): Promise<MjRow | undefined> {
  if (!mjId || mjId.includes("\u0000")) return undefined;
  const db = await getDb();
  let query = db.selectFrom("midjourneys").selectAll().where("mj_id", "=", mjId);
  if (userId !== undefined) query = query.where("user_id", "=", userId);
  return query.orderBy("id", "desc").limit(1).executeTakeFirst();
}

export async function findMjTasks(ids: string[], userId: number): Promise<MjRow[]> {
  const mjIds = ids.filter((id) => !id.includes("\u0000"));
  if (mjIds.length === 0) return [];
  const db = await getDb();
  return db
    .selectFrom("midjourneys")
    .selectAll()
    .where("mj_id", "in", mjIds)
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .execute();
}

/** Unfinished tasks, oldest first (the poller's batch). */
export async function unfinishedMjTasks(limit: number): Promise<MjRow[]> {
  const db = await getDb();
  return db.selectFrom("midjourneys").selectAll().where("progress", "<>", MJ_DONE).orderBy("id").limit(limit).execute();
}

function failed(update: MjTaskState): boolean {
  return update.status === "FAILURE" || (update.failReason !== "" && update.status !== "SUCCESS");
}

/**
 * Applies what the proxy says about one task. A task that already reached its final state (100%)
 * is never changed again: the UPDATE is conditional on it being unfinished, so of two pollers, or
 * a poll and a notify, only one moves it to FAILURE — and only that one refunds, in the same
 * transaction. Returns "refunded" when this call gave the charge back.
 */
export async function applyMjState(row: MjRow, update: MjTaskState): Promise<"unchanged" | "updated" | "refunded"> {
  const fail = failed(update);
  const done = fail || update.status === "SUCCESS";
  // A proxy saying 100% of a task still running would freeze it: only a final state is 100%.
  const progress = done ? MJ_DONE : update.progress === MJ_DONE ? "99%" : update.progress.slice(0, 30);
  const db = await getDb();
  let tokenHash: string | undefined;
  const outcome = await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("midjourneys")
      .set({
        code: 1,
        status: fail ? "FAILURE" : update.status.slice(0, 20),
        progress,
        image_url: update.imageUrl.slice(0, 2000),
        fail_reason: (fail && !update.failReason ? "任务失败" : update.failReason).slice(0, 2000),
        prompt_en: update.promptEn.slice(0, 8000),
        ...(update.prompt ? { prompt: update.prompt.slice(0, 8000) } : undefined),
        ...(update.description ? { description: update.description.slice(0, 8000) } : undefined),
        state: update.state.slice(0, 1000),
        start_time: update.startTime,
        finish_time: done && !update.finishTime ? Date.now() : update.finishTime,
        ...(update.submitTime ? { submit_time: update.submitTime } : undefined),
        buttons: update.buttons,
        properties: update.properties,
        ...(fail && row.quota > 0 ? { refunded_at: Date.now() } : undefined),
      })
      .where("id", "=", row.id)
      .where("progress", "<>", MJ_DONE)
      .returning(["id", "user_id", "token_id", "channel_id", "quota", "action", "mj_id"])
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
        modelName: mjModelName(changed.action),
      },
      `构图失败 ${changed.mj_id}，补偿 ${logQuotaText(changed.quota)}`,
    );
    return "refunded" as const;
  });
  if (tokenHash) await publish(TOKEN_CHANGED_CHANNEL, tokenHash).catch(() => undefined);
  return outcome;
}

/** The price key of an action, as the reference names them (`mj_imagine`, `swap_face`). */
export function mjModelName(action: string): string {
  const lower = action.toLowerCase();
  return lower === "swap_face" ? "swap_face" : `mj_${lower}`;
}

export async function listMjTasks(filter: TaskListFilter, page: number): Promise<{ items: MjRow[]; hasMore: boolean }> {
  const db = await getDb();
  let query = db.selectFrom("midjourneys").selectAll();
  if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
  if (filter.channelId !== undefined) query = query.where("channel_id", "=", filter.channelId);
  if (filter.taskId) query = query.where("mj_id", "=", filter.taskId);
  if (filter.start !== undefined) query = query.where("submit_time", ">=", filter.start);
  if (filter.end !== undefined) query = query.where("submit_time", "<=", filter.end);
  const rows = await query
    .orderBy("id", "desc")
    .limit(TASK_PAGE_SIZE + 1)
    .offset(page * TASK_PAGE_SIZE)
    .execute();
  return { items: rows.slice(0, TASK_PAGE_SIZE), hasMore: rows.length > TASK_PAGE_SIZE };
}

/** The address clients are given for a task's image: the gateway's proxy when MjForwardUrlEnabled. */
export function mjImageUrl(row: Pick<MjRow, "mj_id" | "image_url">): string {
  if (!row.image_url || !options.bool("MjForwardUrlEnabled")) return row.image_url;
  return `${effectiveServerAddress().replace(/\/+$/, "")}/mj/image/${encodeURIComponent(row.mj_id)}`;
}

/** The reference's Midjourney JSON (gateway bookkeeping columns left out), image behind the gateway when forwarding. */
export function toMjJson(row: MjRow) {
  const { token_id: _token, refunded_at: _refunded, ...rest } = row;
  return { ...rest, image_url: mjImageUrl(row) };
}
