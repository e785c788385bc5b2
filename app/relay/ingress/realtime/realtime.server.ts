import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer, type RawData } from "ws";
import type { Channel } from "../../../../db/schema";
import { getChannelType } from "~/domain/channels/catalog";
import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { guardedLookup, upstreamUrlRefusal } from "~/utils/upstream-address";
import { isBooted, bootApp } from "~/web/boot.server";
import { channelKeyOf, mapModel } from "../../attempt.server";
import { authenticateToken, checkModelAllowed, isFailure, resolveGroup, type TokenContext } from "../../auth/token-auth.server";
import { adjustCachedTokenQuota } from "../../auth/token-cache.server";
import { pricedModel } from "../../billing/price-tables.server";
import { holdFor, quotaFor, reservationFor } from "../../billing/pricing";
import { chargesJournaled, refundQuota, reserveQuota, settleQuota, type Reservation } from "../../billing/quota.server";
import { clampUsage } from "../../billing/usage-parse";
import { newRequestId } from "../../errors.server";
import { relayClientIp } from "../../http.server";
import { localFailure, type RelayFailure } from "../../relay-error";
import { routingTable, tiersIn } from "../../routing/channel-cache.server";
import { pickChannel } from "../../routing/pick-channel";
import { forwardedProtocols, RealtimeMeter, realtimeCredential, realtimeUrl } from "./realtime-terms";

/** Frames bigger than this are refused (an audio chunk is a few hundred KB at most). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const clients = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });

/** A refusal before the upgrade: a plain HTTP answer in the OpenAI error shape, then the socket closes. */
function refuse(socket: Duplex, failure: RelayFailure, requestId: string): void {
  const body = JSON.stringify({ error: { message: `${failure.message} (request id: ${requestId})`, type: failure.type, param: null, code: failure.code } });
  const reason = failure.status === 401 ? "Unauthorized" : failure.status === 403 ? "Forbidden" : failure.status === 404 ? "Not Found" : "Error";
  socket.end(`HTTP/1.1 ${failure.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

type Frame = { data: RawData; isBinary: boolean };
type Upstream = { socket: WebSocket; channel: Channel; early: Frame[] } | { failure: RelayFailure; status: number };

/** Opens the channel's Realtime socket; settles on open, refusal (its status) or error, bounded by the connect timeout. */
function connectUpstream(channel: Channel, model: string, req: IncomingMessage): Promise<Upstream> {
  const base = channel.base_url || (getChannelType(channel.type)?.defaultBaseUrl ?? "");
  const url = realtimeUrl(base, mapModel(channel, model));
  if (!url || upstreamUrlRefusal(url)) return Promise.resolve({ failure: localFailure(500, `渠道 #${channel.id} 未设置可用的 Base URL`, "channel_misconfigured"), status: 0 });
  const headers: Record<string, string> = { Authorization: `Bearer ${channelKeyOf(channel)}` };
  const beta = req.headers["openai-beta"];
  if (typeof beta === "string") headers["OpenAI-Beta"] = beta;
  return new Promise((resolve) => {
    const socket = new WebSocket(url, forwardedProtocols(req.headers), { headers, handshakeTimeout: env.RELAY_CONNECT_TIMEOUT * 1000, maxPayload: MAX_FRAME_BYTES, lookup: guardedLookup, perMessageDeflate: false, followRedirects: false });
    // The upstream greets at once (session.created), before the client's side is upgraded: what
    // arrives meanwhile is kept for relayFrames to send first.
    const early: Frame[] = [];
    const keep = (data: RawData, isBinary: boolean) => void early.push({ data, isBinary });
    socket.on("message", keep);
    socket.once("open", () => resolve({ socket, channel, early }));
    socket.once("close", () => socket.off("message", keep));
    socket.once("unexpected-response", (_request, response) => {
      response.resume();
      const status = response.statusCode ?? 502;
      socket.terminate();
      resolve({ failure: localFailure(status >= 500 ? 502 : status, `上游拒绝实时连接（${status}）`, "upstream_refused", "upstream_error"), status });
    });
    socket.once("error", () => resolve({ failure: localFailure(502, "请求上游地址失败", "do_request_failed", "upstream_error"), status: 0 }));
  });
}

type Session = { token: TokenContext; model: string; group: string; reservation: Reservation; requestId: string; startedAt: number; chain: number[] };

/**
 * `GET /v1/realtime?model=…` upgraded to a WebSocket: the token checked, a hold reserved, the
 * channel's Realtime socket opened (the next channel tried on failure), then frames relayed both
 * ways; usage added up from `response.done` and billed when either side closes. A session with
 * no traffic either way for STREAMING_TIMEOUT seconds is closed.
 */
export async function handleRealtimeUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const requestId = newRequestId();
  const startedAt = Date.now();
  socket.on("error", () => undefined);
  const url = new URL(req.url ?? "/", "http://relay.invalid");
  if (url.pathname.replace(/\/+$/, "") !== "/v1/realtime") return refuse(socket, localFailure(404, `Invalid URL (${req.method} ${url.pathname})`, "not_found", "invalid_request_error"), requestId);
  if (!isBooted()) await bootApp();
  const authenticated = authenticateToken(realtimeCredential(req.headers), relayClientIp(req, env.TRUST_PROXY));
  const token = authenticated instanceof Promise ? await authenticated : authenticated;
  if (isFailure(token)) return refuse(socket, token, requestId);
  const model = url.searchParams.get("model")?.trim() ?? "";
  if (!model || model.length > 256 || model.includes("\u0000")) return refuse(socket, localFailure(400, "model is required", "invalid_request", "invalid_request_error"), requestId);
  const refusal = checkModelAllowed(token, model);
  if (refusal) return refuse(socket, refusal, requestId);
  const group = resolveGroup(token);
  if (typeof group !== "string") return refuse(socket, group, requestId);
  const routing = await routingTable();
  let tiers = tiersIn(routing, group, model);
  if (token.pinnedChannelId) {
    const pinned = routing.channels.get(token.pinnedChannelId);
    tiers = pinned && pinned.status === 1 ? [{ priority: pinned.priority, channels: [{ id: pinned.id, weight: pinned.weight, priority: pinned.priority }] }] : [];
  }
  if (tiers.length === 0) return refuse(socket, localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available"), requestId);
  const priced = pricedModel(model, group);
  if (!priced) return refuse(socket, localFailure(400, `模型 ${model} 倍率或价格未配置，请联系管理员设置`, "model_price_error"), requestId);
  // A session's length is unknown at connect: it holds what one call without max_tokens holds, and settles at close.
  const preConsumed = options.int("PreConsumedQuota");
  const estimate = Math.ceil(reservationFor(priced.pricing, 0, undefined, preConsumed, priced.quotaPerUnit));
  const hold = Math.max(estimate, Math.ceil(holdFor(priced.pricing, 0, undefined, preConsumed, priced.quotaPerUnit)));
  const payer = { userId: token.user.id, tokenId: token.token.id, tokenUnlimited: token.token.unlimited_quota, tokenKeyHash: token.keyHash };
  const reserved = await reserveQuota(payer, hold, estimate);
  if (!reserved.ok) {
    const failure = reserved.reason === "busy" ? localFailure(503, "计费服务繁忙，请稍后再试", "billing_busy") : reserved.reason === "user" ? localFailure(403, "用户额度不足", "insufficient_user_quota") : localFailure(403, "该令牌额度已用尽", "token_quota_exhausted");
    return refuse(socket, failure, requestId);
  }
  const excluded = new Set<number>();
  const chain: number[] = [];
  let last: RelayFailure | undefined;
  const attempts = token.pinnedChannelId ? 1 : options.int("RetryTimes") + 1;
  for (let attempt = 0; attempt < attempts && !socket.destroyed; attempt += 1) {
    const routed = pickChannel(tiers, attempt, excluded);
    const channel = routed ? routing.channels.get(routed.id) : undefined;
    if (!channel) break;
    chain.push(channel.id);
    const upstream = await connectUpstream(channel, model, req);
    if ("socket" in upstream) {
      const session: Session = { token, model, group, reservation: reserved.reservation, requestId, startedAt, chain };
      if (socket.destroyed) {
        upstream.socket.terminate();
        break;
      }
      clients.handleUpgrade(req, socket, head, (client) => relayFrames(client, upstream.socket, upstream.early, channel, session));
      return;
    }
    last = upstream.failure;
    excluded.add(channel.id);
    if (upstream.status === 400 || upstream.status === 408) break;
  }
  refundQuota(reserved.reservation);
  refuse(socket, last ?? localFailure(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, "model_not_available"), requestId);
}

/** Both directions relayed frame by frame; the first close (or idle bound) ends both sides and bills once. */
function relayFrames(client: WebSocket, upstream: WebSocket, early: Frame[], channel: Channel, session: Session): void {
  const meter = new RealtimeMeter();
  upstream.removeAllListeners("message");
  const idleMs = env.STREAMING_TIMEOUT * 1000;
  let ended = false;
  const end = (code: number, reason: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    for (const side of [client, upstream]) {
      if (side.readyState === WebSocket.OPEN) side.close(code, reason);
      else side.terminate();
    }
    void settleSession(session, channel, meter);
  };
  const idle = setTimeout(() => end(1001, "idle timeout"), idleMs);
  client.on("message", (data: RawData, isBinary: boolean) => {
    idle.refresh();
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
  });
  const forward = (data: RawData, isBinary: boolean) => {
    idle.refresh();
    if (!isBinary) meter.read(data.toString());
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
  };
  for (const frame of early.splice(0)) forward(frame.data, frame.isBinary);
  upstream.on("message", forward);
  // Close codes 1005/1006 (none given, abnormal) may not be sent on: the other side gets a normal close.
  const sendable = (code: number) => (code >= 1000 && code <= 4999 && code !== 1005 && code !== 1006 && code !== 1015 ? code : 1000);
  client.on("close", (code, reason) => end(sendable(code), reason.toString()));
  upstream.on("close", (code, reason) => end(sendable(code), reason.toString()));
  client.on("error", () => end(1011, "client error"));
  upstream.on("error", () => end(1011, "upstream error"));
}

async function settleSession(session: Session, channel: Channel, meter: RealtimeMeter): Promise<void> {
  const { usage, usageNote } = clampUsage(meter.usage, env.RELAY_USAGE_CEILING);
  if (usage.prompt_tokens + usage.completion_tokens === 0) {
    refundQuota(session.reservation);
    return;
  }
  const priced = pricedModel(session.model, session.group);
  const quota = priced ? Math.round(quotaFor(priced.pricing, usage, priced.quotaPerUnit)) : 0;
  const { token } = session;
  const log = options.bool("LogConsumeEnabled")
    ? {
        username: token.user.username, tokenName: token.token.name, modelName: session.model, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens,
        useTimeSeconds: Math.round((Date.now() - session.startedAt) / 1000), isStream: true, channelId: channel.id, group: session.group, content: priced?.logContent ?? "",
        other: { ...priced?.logRatios, realtime: { responses: meter.responses }, admin_info: { use_channel: session.chain.map(String) }, request_id: session.requestId, ...usageNote, ...(meter.warning ? { usage_warning: meter.warning } : {}) },
      }
    : undefined;
  try {
    const charged = await settleQuota(session.reservation, quota, channel.id, log);
    if (charged) adjustCachedTokenQuota(token.keyHash, charged);
    await chargesJournaled(false);
  } catch (error) {
    console.error(`[relay] ${session.requestId} realtime settlement failed`, error);
  }
}
