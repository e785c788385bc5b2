import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer, type RawData } from "ws";
import type { Channel } from "../../../../db/schema";
import { getChannelType } from "~/domain/channels/catalog";
import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { guardedLookup, upstreamUrlRefusal } from "~/utils/upstream-address";
import { isBooted, whenBooted } from "~/utils/boot-gate.server";
import { relayAdmitted } from "../../admission/run.server";
import type { FailedAttempt } from "../../admission/attempt-loop.server";
import type { CallSettlement } from "../../admission/settlement.server";
import type { UpstreamError } from "../../adapters/types";
import { channelKeyOf, mapModel } from "../../attempt.server";
import { authenticateToken, isFailure } from "../../auth/token-auth.server";
import { holdFor, quotaFor, reservationFor } from "../../billing/pricing";
import { clampUsage } from "../../billing/usage-parse";
import { usageBounds } from "../../billing/usage-bounds.server";
import { newRequestId } from "../../errors.server";
import { isRetryableStatus, mapStatusCode } from "../../failure-policy";
import { relayClientIp } from "../../http.server";
import { localFailure, type RelayFailure } from "../../relay-error";
import { forwardedProtocols, RealtimeMeter, realtimeCredential, realtimeUrl } from "./realtime-terms";

/** Frames bigger than this are refused (an audio chunk is a few hundred KB at most). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const clients = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });

/** A refusal before the upgrade: a plain HTTP answer in the OpenAI error shape, then the socket closes. */
function refuse(socket: Duplex, failure: RelayFailure, requestId: string): void {
  const body = JSON.stringify({
    error: { message: failure.message, type: failure.type, param: failure.param ?? null, code: failure.code },
  });
  const reason = STATUS_CODES[failure.status] ?? "Error";
  socket.end(
    `HTTP/1.1 ${failure.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Oneapi-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

type Frame = { data: RawData; isBinary: boolean };

function failedConnect(
  status: number,
  error: UpstreamError,
  upstreamStatus: number,
  retryable: boolean,
): FailedAttempt {
  return { ok: false, status, error, retryable, responded: false, upstreamStatus };
}

/** Opens the channel's Realtime socket; settles on open, refusal (its status) or error, bounded by the connect timeout. */
function connectUpstream(
  channel: Channel,
  model: string,
  req: IncomingMessage,
): Promise<({ ok: true } & Connected) | FailedAttempt> {
  const base = channel.base_url || (getChannelType(channel.type)?.defaultBaseUrl ?? "");
  const url = realtimeUrl(base, mapModel(channel, model));
  if (!url || upstreamUrlRefusal(url))
    return Promise.resolve(
      failedConnect(
        500,
        { message: `渠道 #${channel.id} 未设置可用的 Base URL`, type: "new_api_error", code: "channel_misconfigured" },
        0,
        true,
      ),
    );
  const headers: Record<string, string> = { Authorization: `Bearer ${channelKeyOf(channel)}` };
  const beta = req.headers["openai-beta"];
  if (typeof beta === "string") headers["OpenAI-Beta"] = beta;
  return new Promise((resolve) => {
    const socket = new WebSocket(url, forwardedProtocols(req.headers), {
      headers,
      handshakeTimeout: env.RELAY_CONNECT_TIMEOUT * 1000,
      maxPayload: MAX_FRAME_BYTES,
      lookup: guardedLookup,
      perMessageDeflate: false,
      followRedirects: false,
    });
    // The upstream greets at once (session.created), before the client's side is upgraded: what
    // arrives meanwhile is kept for relayFrames to send first.
    const early: Frame[] = [];
    const keep = (data: RawData, isBinary: boolean) => void early.push({ data, isBinary });
    socket.on("message", keep);
    socket.once("open", () => resolve({ ok: true, socket, early }));
    socket.once("close", () => socket.off("message", keep));
    socket.once("unexpected-response", (_request, response) => {
      response.resume();
      const status = response.statusCode ?? 502;
      socket.terminate();
      // Anything but a 101 is a refused upgrade; a 2xx or 3xx there is no answer a client can use (a 502).
      const answered = status >= 400 && status < 500 ? status : 502;
      resolve(
        failedConnect(
          mapStatusCode(channel.status_code_mapping, answered),
          { message: `上游拒绝实时连接（${status}）`, type: "upstream_error", code: "upstream_refused" },
          status,
          isRetryableStatus(status, channel.type),
        ),
      );
    });
    socket.once("error", () =>
      resolve(
        failedConnect(502, { message: "请求上游地址失败", type: "upstream_error", code: "do_request_failed" }, 0, true),
      ),
    );
  });
}

type Connected = { socket: WebSocket; early: Frame[] };

/**
 * `GET /v1/realtime?model=…` upgraded to a WebSocket, through the admission module like every
 * relayed call: the token checked, a hold reserved, the channel's Realtime socket opened (the
 * next channel tried on failure), then frames relayed both ways; usage added up from
 * `response.done` and billed when either side closes. A session with no traffic either way for
 * STREAMING_TIMEOUT seconds is closed.
 */
export async function handleRealtimeUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const requestId = newRequestId();
  const startedAt = Date.now();
  socket.on("error", () => undefined);
  const url = new URL(req.url ?? "/", "http://relay.invalid");
  if (url.pathname.replace(/\/+$/, "") !== "/v1/realtime")
    return refuse(
      socket,
      localFailure(404, `Invalid URL (${req.method} ${url.pathname})`, "not_found", "invalid_request_error"),
      requestId,
    );
  if (!isBooted()) await whenBooted();
  const authenticated = authenticateToken(realtimeCredential(req.headers), relayClientIp(req, env.TRUST_PROXY));
  const token = authenticated instanceof Promise ? await authenticated : authenticated;
  if (isFailure(token)) return refuse(socket, token, requestId);
  const model = url.searchParams.get("model")?.trim() ?? "";
  if (model.length > 256 || model.includes("\u0000"))
    return refuse(
      socket,
      localFailure(400, "model is required", "invalid_request", "invalid_request_error"),
      requestId,
    );
  const failure = await relayAdmitted<Connected>({
    token,
    model,
    requestId,
    startedAt,
    // A session's length is unknown at connect: it holds what one call without max_tokens holds, and settles at close.
    hold({ pricing, quotaPerUnit }) {
      const preConsumed = options.int("PreConsumedQuota");
      const estimate = Math.ceil(reservationFor(pricing, 0, undefined, preConsumed, quotaPerUnit));
      return {
        estimate,
        hold: Math.max(estimate, Math.ceil(holdFor(pricing, 0, undefined, preConsumed, quotaPerUnit))),
      };
    },
    attempt: (channel) => connectUpstream(channel, model, req),
    clientGone: () => socket.destroyed,
    served(upstream, settlement, channel) {
      if (socket.destroyed) {
        upstream.socket.terminate();
        settlement.refund();
        return;
      }
      clients.handleUpgrade(req, socket, head, (client) =>
        relayFrames(client, upstream.socket, upstream.early, channel, model, settlement),
      );
    },
  });
  if (failure) refuse(socket, failure, requestId);
}

/** Both directions relayed frame by frame; the first close (or idle bound) ends both sides and bills once. */
function relayFrames(
  client: WebSocket,
  upstream: WebSocket,
  early: Frame[],
  channel: Channel,
  model: string,
  settlement: CallSettlement,
): void {
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
    void settleSession(settlement, channel, meter, model);
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
  const sendable = (code: number) =>
    code >= 1000 && code <= 4999 && code !== 1005 && code !== 1006 && code !== 1015 ? code : 1000;
  client.on("close", (code, reason) => end(sendable(code), reason.toString()));
  upstream.on("close", (code, reason) => end(sendable(code), reason.toString()));
  client.on("error", () => end(1011, "client error"));
  upstream.on("error", () => end(1011, "upstream error"));
}

async function settleSession(
  settlement: CallSettlement,
  channel: Channel,
  meter: RealtimeMeter,
  model: string,
): Promise<void> {
  // A session is many responses: each may fill the model's window, so the bound is per response.
  const window = usageBounds(model, undefined);
  const responses = Math.max(1, meter.responses);
  const { usage, usageNote } = clampUsage(meter.usage, {
    prompt_tokens: window.prompt_tokens * responses,
    completion_tokens: window.completion_tokens * responses,
  });
  if (usage.prompt_tokens + usage.completion_tokens === 0) {
    settlement.refund();
    return;
  }
  const { pricing, quotaPerUnit } = settlement.priced;
  try {
    const charged = settlement.settle({
      quota: Math.round(quotaFor(pricing, usage, quotaPerUnit)),
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      isStream: true,
      other: { realtime: { responses: meter.responses } },
      usageParts: usage,
      note: { ...usageNote, ...(meter.warning ? { usage_warning: meter.warning } : {}) },
    });
    if (charged instanceof Promise) await charged;
    await settlement.durable("journal");
  } catch (error) {
    console.error(`[relay] realtime settlement on channel #${channel.id} failed`, error);
  }
}
