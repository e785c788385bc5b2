import { inCallersLanguage } from "../errors.server";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Channel } from "../../../db/schema";
import { findSunoTasks, insertSunoTask, sunoTaskObject } from "~/domain/tasks/suno.server";
import { getDb } from "~/utils/db.server";
import type { TokenContext } from "../auth/token-auth.server";
import { BodyTooLargeError, readBody, sendJson } from "../http.server";
import type { RelayFailure } from "../relay-error";
import { failedTaskAttempt, taskBill, taskCall } from "./task-billing.server";
import { relayAdmitted } from "../admission/run.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { decodeTaskId } from "./mj-wire";
import { callTaskUpstream, parseJsonBody } from "./task-upstream.server";

/**
 * The Suno task relay (the Suno-API protocol): `/suno/submit/:action` (music, lyrics), `/suno/fetch`
 * and `/suno/fetch/:id`. Replies keep Suno-API's envelope `{code, message, data}`.
 */
function sunoError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { code, message: inCallersLanguage(res, message), data: null });
}

function sunoFailure(res: ServerResponse, failure: RelayFailure): void {
  sunoError(res, failure.status, failure.code ?? "error", failure.message);
}

const ACTIONS = new Set(["MUSIC", "LYRICS"]);

async function readObject(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | undefined> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      sunoError(res, 413, "request_too_large", "请求体过大");
      return undefined;
    }
    throw error;
  }
  const parsed = parseJsonBody(raw.toString("utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    sunoError(res, 400, "invalid_request", "请求体必须是 JSON 对象");
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

export type SunoRequestMeta = { requestId: string; startedAt: number };

export async function handleSuno(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  token: TokenContext,
  meta: SunoRequestMeta,
): Promise<void> {
  const method = req.method ?? "GET";
  const one = /^\/suno\/fetch\/([^/]+)$/.exec(path);
  if (method === "GET" && one) {
    const [row] = await findSunoTasks([decodeTaskId(one[1]!)], token.user.id);
    if (!row) return sunoError(res, 404, "task_not_exist", "task_not_exist");
    return sendJson(res, 200, { code: "success", message: "", data: sunoTaskObject(row) });
  }
  if (method !== "POST") {
    req.resume();
    return sunoError(res, 404, "not_found", `Invalid URL (${method} ${path})`);
  }
  if (path === "/suno/fetch") {
    const body = await readObject(req, res);
    if (!body) return;
    const ids = Array.isArray(body.ids)
      ? body.ids.filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 100).slice(0, 500)
      : [];
    const rows = await findSunoTasks(ids, token.user.id);
    return sendJson(res, 200, { code: "success", message: "", data: rows.map(sunoTaskObject) });
  }
  const submit = /^\/suno\/submit\/([A-Za-z]+)$/.exec(path);
  const action = submit?.[1]?.toUpperCase();
  if (!action || !ACTIONS.has(action)) {
    req.resume();
    return sunoError(res, 404, "not_found", `Invalid URL (${method} ${path})`);
  }
  const body = await readObject(req, res);
  if (!body) return;
  return submitSuno(res, action, body, token, meta);
}

async function channelById(id: number): Promise<Channel | undefined> {
  const db = await getDb();
  return db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
}

type Submitted = { taskId: string; message: string };

async function submitSuno(
  res: ServerResponse,
  action: string,
  body: Record<string, unknown>,
  token: TokenContext,
  meta: SunoRequestMeta,
): Promise<void> {
  const prompt = typeof body.prompt === "string" ? body.prompt : "";
  if (action === "LYRICS" && !prompt.trim()) return sunoError(res, 400, "prompt_empty", "prompt is empty");
  let originChannel: Channel | undefined;
  if (action === "MUSIC") {
    if (body.mv === undefined || body.mv === "") body.mv = "chirp-v3-0";
    // A continuation runs on the channel that made the original task.
    if (typeof body.continue_clip_id === "string" && body.continue_clip_id) {
      const original =
        typeof body.task_id === "string"
          ? (await findSunoTasks([body.task_id.slice(0, 100)], token.user.id))[0]
          : undefined;
      if (!original) return sunoError(res, 400, "task_id_required", "continue_clip_id 需要有效的 task_id");
      originChannel = await channelById(original.channel_id);
      if (!originChannel || originChannel.status !== CHANNEL_STATUS.enabled)
        return sunoError(res, 400, "channel_disabled", "原任务的渠道已被禁用");
    }
  }
  const model = `suno_${action.toLowerCase()}`;
  const failure = await relayAdmitted<Submitted>({
    ...taskCall(token, model, meta, originChannel),
    async attempt(channel) {
      let reply;
      try {
        reply = await callTaskUpstream(channel, {
          method: "POST",
          path: `/suno/submit/${action}`,
          body: JSON.stringify(body),
          auth: "bearer",
          timeoutMs: 60_000,
        });
      } catch (error) {
        return failedTaskAttempt(channel, 0, error instanceof Error ? error.message : "上游请求失败");
      }
      const parsed = parseJsonBody(reply.body) as { code?: unknown; message?: unknown; data?: unknown } | undefined;
      const taskId =
        reply.status === 200 &&
        parsed?.code === "success" &&
        (typeof parsed.data === "string" || typeof parsed.data === "number")
          ? String(parsed.data)
          : "";
      const message = typeof parsed?.message === "string" ? parsed.message : "";
      if (!taskId)
        return failedTaskAttempt(
          channel,
          reply.status,
          message || `上游返回 HTTP ${reply.status}`,
          typeof parsed?.code === "string" ? parsed.code : null,
        );
      return { ok: true, taskId, message };
    },
    async served({ taskId, message }, settlement, channel) {
      // The task row is written after its charge is in the database, so a refund can never reach the ledger first.
      const bill = taskBill(settlement.priced, action, taskId);
      const settling = settlement.settle(bill);
      if (settling instanceof Promise) await settling;
      await settlement.durable("database");
      await insertSunoTask({
        userId: token.user.id,
        tokenId: token.token.id,
        channelId: channel.id,
        taskId,
        action,
        quota: bill.quota,
        input: prompt || body.gpt_description_prompt || "",
      });
      sendJson(res, 200, { code: "success", message, data: taskId });
    },
  });
  if (failure) sunoFailure(res, failure);
}
