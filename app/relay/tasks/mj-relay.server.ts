import type { IncomingMessage, ServerResponse } from "node:http";
import type { Channel } from "../../../db/schema";
import {
  findMjTask,
  findMjTasks,
  insertMjTask,
  mjImageUrl,
  mjModelName,
  MJ_DONE,
} from "~/domain/tasks/midjourney.server";
import { options } from "~/domain/options/store.server";
import type { TokenContext } from "../auth/token-auth.server";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { mjError, mjFailure, readJsonObject } from "./mj-replies.server";
import { notifyHookFor } from "./mj-notify.server";
import { sendJson } from "../http.server";
import { clearModeFlags, decodeTaskId, MJ_SUBMIT_ROUTES, mjSubmitKind, mjTaskObject } from "./mj-wire";
import { failedTaskAttempt, taskBill, taskCall } from "./task-billing.server";
import { relayAdmitted } from "../admission/run.server";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { callTaskUpstream, parseJsonBody, TaskUpstreamError } from "./task-upstream.server";

/** `/mj/…` and `/{mode}/mj/…` (the Midjourney-proxy protocol): the mode, when given, and the path from `/mj` on. */
export const MJ_MODES = ["fast", "relax", "turbo", "mj-fast", "mj-relax", "mj-turbo"] as const;
export const MJ_PATH_PREFIXES = ["/mj/", ...MJ_MODES.map((mode) => `/${mode}/mj/`)];

export function splitMjPath(path: string): { mode?: string; rest: string } | undefined {
  if (path.startsWith("/mj/")) return { rest: path.slice(3) };
  const match = /^\/([a-z-]+)(\/mj\/.*)$/.exec(path);
  if (!match || !(MJ_MODES as readonly string[]).includes(match[1]!)) return undefined;
  return { mode: match[1]!.replace(/^mj-/, ""), rest: match[2]!.slice(3) };
}

export type MjRequestMeta = { requestId: string; startedAt: number };

/** Routes a token-authenticated `/mj` request (everything but the image proxy and notify). */
export async function handleMjAuthenticated(
  req: IncomingMessage,
  res: ServerResponse,
  split: { mode?: string; rest: string },
  token: TokenContext,
  meta: MjRequestMeta,
): Promise<void> {
  const { rest } = split;
  const method = req.method ?? "GET";
  const fetch = /^\/task\/([^/]+)\/fetch$/.exec(rest);
  if (method === "GET" && fetch) return fetchTask(res, decodeTaskId(fetch[1]!), token);
  const seed = /^\/task\/([^/]+)\/image-seed$/.exec(rest);
  if (method === "GET" && seed) return imageSeed(res, decodeTaskId(seed[1]!), token);
  if (method !== "POST") {
    req.resume();
    return mjError(res, 404, 4, `Invalid URL (${method} /mj${rest})`);
  }
  if (rest === "/task/list-by-condition") return listByCondition(req, res, token);
  const submit = /^\/submit\/([a-z-]+)$/.exec(rest);
  const route =
    submit && (MJ_SUBMIT_ROUTES as readonly string[]).includes(submit[1]!)
      ? submit[1]!
      : rest === "/insight-face/swap"
        ? "insight-face/swap"
        : undefined;
  if (!route) {
    req.resume();
    return mjError(res, 404, 4, `Invalid URL (${method} /mj${rest})`);
  }
  const body = await readJsonObject(req, res);
  if (!body) return;
  return submitTask(res, route, split, body, token, meta);
}

async function fetchTask(res: ServerResponse, mjId: string, token: TokenContext): Promise<void> {
  const row = await findMjTask(mjId.slice(0, 100), token.user.id);
  if (!row) return mjError(res, 404, 4, "task_no_found");
  sendJson(res, 200, mjTaskObject(row, mjImageUrl(row)));
}

async function listByCondition(req: IncomingMessage, res: ServerResponse, token: TokenContext): Promise<void> {
  const body = await readJsonObject(req, res);
  if (!body) return;
  const ids = Array.isArray(body.ids)
    ? body.ids.filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 100).slice(0, 500)
    : [];
  const rows = await findMjTasks(ids, token.user.id);
  const seen = new Set<string>();
  const tasks = rows
    .filter((row) => !seen.has(row.mj_id) && seen.add(row.mj_id))
    .map((row) => mjTaskObject(row, mjImageUrl(row)));
  sendJson(res, 200, tasks);
}

async function imageSeed(res: ServerResponse, mjId: string, token: TokenContext): Promise<void> {
  const row = await findMjTask(mjId.slice(0, 100), token.user.id);
  if (!row) return mjError(res, 404, 4, "task_no_found");
  const channel = await getChannel(row.channel_id);
  if (!channel) return mjError(res, 400, 4, "原任务的渠道已不存在");
  try {
    const reply = await callTaskUpstream(channel, {
      method: "GET",
      path: `/mj/task/${encodeURIComponent(row.mj_id)}/image-seed`,
      auth: "mj",
      timeoutMs: 15_000,
    });
    const parsed = parseJsonBody(reply.body);
    if (parsed === undefined) return mjError(res, 502, 5, `上游返回了无法解析的回复（HTTP ${reply.status}）`);
    sendJson(res, reply.status === 200 ? 200 : 502, parsed);
  } catch (error) {
    mjError(res, 502, 5, error instanceof TaskUpstreamError ? error.message : "上游请求失败");
  }
}

type ProxyReply = { code: number; description: string; result: string; properties: Record<string, unknown> };

function readProxyReply(body: string): ProxyReply | undefined {
  const parsed = parseJsonBody(body);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const o = parsed as Record<string, unknown>;
  const code = typeof o.code === "number" && Number.isInteger(o.code) ? o.code : undefined;
  if (code === undefined) return undefined;
  const result = typeof o.result === "string" || typeof o.result === "number" ? String(o.result) : "";
  const properties =
    typeof o.properties === "object" && o.properties !== null && !Array.isArray(o.properties)
      ? (o.properties as Record<string, unknown>)
      : {};
  return { code, description: typeof o.description === "string" ? o.description : "", result, properties };
}

/** What the proxy's accepted codes mean for the new task row (1, 21 exists, 22 queued). */
const ACCEPTED = new Set([1, 21, 22]);
const MODAL_ACTIONS = new Set(["INPAINT", "CUSTOM_ZOOM"]);

type Submitted = { channel: Channel; proxy: ProxyReply };

async function submitTask(
  res: ServerResponse,
  route: string,
  split: { mode?: string; rest: string },
  body: Record<string, unknown>,
  token: TokenContext,
  meta: MjRequestMeta,
): Promise<void> {
  const kind = mjSubmitKind(route, body);
  if ("error" in kind) return mjError(res, 400, 4, kind.error);
  // Actions on an earlier task go to the proxy that has it; new tasks are routed like any model.
  let originChannel: Channel | undefined;
  if (kind.originTaskId) {
    const origin = await findMjTask(kind.originTaskId.slice(0, 100), token.user.id);
    if (!origin) return mjError(res, 400, 4, "task_not_found");
    if (options.bool("MjActionCheckSuccessEnabled") && kind.action !== "MODAL" && origin.status !== "SUCCESS")
      return mjError(res, 400, 4, "task_status_not_success");
    originChannel = await getChannel(origin.channel_id);
    if (!originChannel || originChannel.status !== CHANNEL_STATUS.enabled)
      return mjError(res, 400, 4, "原任务的渠道已被禁用");
  }

  // The reference's body edits: no account filter unless allowed, the mode flags cleared on request.
  if (!options.bool("MjAccountFilterEnabled")) delete body.accountFilter;
  const modeClear = options.bool("MjModeClearEnabled");
  if (modeClear && typeof body.prompt === "string") body.prompt = clearModeFlags(body.prompt);
  const forwardPath = `${split.mode && !modeClear ? `/mj-${split.mode}` : ""}/mj${split.rest}`;
  const prompt = typeof body.prompt === "string" ? body.prompt : "";
  const state = typeof body.state === "string" ? body.state : "";
  const model = mjModelName(kind.action);

  const failure = await relayAdmitted<Submitted>({
    ...taskCall(token, model, meta, originChannel),
    async attempt(channel) {
      // The gateway takes the proxy's callbacks itself (signed per channel); a client's own hook is not passed on.
      if (options.bool("MjNotifyEnabled")) body.notifyHook = notifyHookFor(channel);
      else delete body.notifyHook;
      let reply;
      try {
        reply = await callTaskUpstream(channel, {
          method: "POST",
          path: forwardPath,
          body: JSON.stringify(body),
          auth: "mj",
          timeoutMs: 60_000,
        });
      } catch (error) {
        return failedTaskAttempt(channel, 0, error instanceof Error ? error.message : "上游请求失败");
      }
      const proxy = reply.status === 200 ? readProxyReply(reply.body) : undefined;
      if (!proxy) return failedTaskAttempt(channel, reply.status, `上游返回 HTTP ${reply.status}`);
      return { ok: true, channel, proxy };
    },
    async served({ channel, proxy }, settlement) {
      if (!ACCEPTED.has(proxy.code) || !proxy.result) {
        // The proxy answered, and refused the task: nothing is charged, the refusal is kept as a failed task.
        settlement.refund();
        await insertMjTask({
          userId: token.user.id,
          tokenId: token.token.id,
          channelId: channel.id,
          code: proxy.code,
          action: kind.action,
          mjId: proxy.result,
          prompt,
          description: proxy.description,
          state,
          status: "FAILURE",
          progress: MJ_DONE,
          failReason: proxy.description || `提交失败（code ${proxy.code}）`,
          quota: 0,
          finishTime: Date.now(),
        });
        return sendJson(res, 200, {
          code: proxy.code,
          description: proxy.description,
          result: proxy.result,
          properties: proxy.properties,
        });
      }
      // The task row is written after its charge is in the database, so a refund can never reach the ledger first.
      const bill = taskBill(settlement.priced, kind.action, proxy.result);
      const settling = settlement.settle(bill);
      if (settling instanceof Promise) await settling;
      await settlement.durable("database");
      const waitsForModal = proxy.code === 21 && MODAL_ACTIONS.has(kind.action);
      const uploaded = kind.action === "UPLOAD";
      await insertMjTask({
        userId: token.user.id,
        tokenId: token.token.id,
        channelId: channel.id,
        code: 1,
        action: kind.action,
        mjId: proxy.result,
        prompt,
        description: proxy.description,
        state,
        status: uploaded ? "SUCCESS" : waitsForModal ? "MODAL" : "SUBMITTED",
        progress: uploaded ? MJ_DONE : "0%",
        failReason: "",
        quota: bill.quota,
        finishTime: uploaded ? Date.now() : 0,
        properties: JSON.stringify(proxy.properties).slice(0, 20_000),
      });
      // The reference shows clients 1 for "exists" and "queued", except for tasks waiting in MODAL.
      return sendJson(res, 200, {
        code: waitsForModal ? 21 : 1,
        description: proxy.description,
        result: proxy.result,
        properties: proxy.properties,
      });
    },
  });
  if (failure) mjFailure(res, failure);
}
