import type { IncomingMessage, ServerResponse } from "node:http";
import { isBooted, whenBooted } from "~/utils/boot-gate.server";
import type { ObservedResponse } from "~/utils/observed-response.server";
import { env } from "~/utils/env.server";
import { isDatabaseUnavailable } from "~/utils/db-errors";
import { refusals } from "./admission/refusals";
import { authenticateToken, isFailure } from "./auth/token-auth.server";
import { sendBilling } from "./billing-endpoint.server";
import { observeRelayCall } from "./observe-call.server";
import { newRequestId, sendRelayError } from "./errors.server";
import { answerPreflight, BodyTooLargeError, readBody, relayClientIp } from "./http.server";
import { sendModels } from "./models-endpoint.server";
import { matchIngress, serveIngress } from "./ingress/serve-ingress.server";
import { relay } from "./pipeline.server";
import { nodeSink } from "./reply-sink";
import type { RelayFailure } from "./relay-error";
import {
  JSON_ENDPOINTS,
  MULTIPART_ENDPOINTS,
  NOT_IMPLEMENTED_PREFIXES,
  multipartField,
  multipartImageFields,
  parseRelayJson,
} from "./request-parse";
import { requestHeadersToForward } from "./wire-headers";
import { MJ_PATH_PREFIXES } from "./tasks/mj-relay.server";
import { keepLastOfRepeated, setMember } from "./json-edit";
import { handleTaskRelay } from "./tasks/task-routes.server";

/** Path prefixes served by the relay instead of Remix (docs/architecture.md, The layers). */
export const RELAY_PREFIXES = ["/v1/", "/v1beta/", ...MJ_PATH_PREFIXES, "/suno/", "/dashboard/billing/"];

export function isRelayPath(url: string): boolean {
  return RELAY_PREFIXES.some((prefix) => url.startsWith(prefix)) || url === "/v1";
}

/** The path without its query and trailing slashes. */
function pathOf(url: string): string {
  const query = url.indexOf("?");
  let end = query < 0 ? url.length : query;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end -= 1;
  return end === url.length ? url : url.slice(0, end);
}

/** A %-escaped path segment, or undefined when the escapes are broken or decode to NUL. */
function decodePathPart(part: string): string | undefined {
  try {
    const decoded = decodeURIComponent(part);
    return decoded.includes("\u0000") ? undefined : decoded;
  } catch {
    return undefined;
  }
}

const badPath: RelayFailure = {
  status: 400,
  message: "无效的请求路径：错误的 % 转义",
  type: "invalid_request_error",
  code: "invalid_request",
};

function fail(res: ServerResponse, failure: RelayFailure, requestId: string) {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendRelayError(res, failure, requestId);
}

/**
 * Entry of the relay surface: authenticate, dispatch by path, answer every failure in the OpenAI
 * shape — a database that cannot be reached for what the call needs included (a 503, try again).
 */
export async function handleRelay(req: IncomingMessage, res: ObservedResponse): Promise<void> {
  const requestId = newRequestId();
  observeRelayCall(req, res, requestId, pathOf(req.url ?? "/"));
  try {
    await dispatchRelay(req, res, requestId);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    req.resume();
    fail(res, refusals.databaseAway(), requestId);
  }
}

async function dispatchRelay(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  const startedAt = Date.now();
  if (answerPreflight(req, res)) return;
  if (!isBooted()) await whenBooted();
  const path = pathOf(req.url ?? "/");
  const native = matchIngress(req.method, path);
  if (native) return serveIngress(req, res, native.surface, native.match, requestId, startedAt);
  // Only task paths pay the await: the OpenAI surface is the hot path.
  if (!path.startsWith("/v1") && (await handleTaskRelay(req, res, path, requestId, startedAt))) return;
  const jsonMode = JSON_ENDPOINTS[path];
  // The reference routes DELETE /v1/models/:model (OpenAI's fine-tune deletion) but never implemented it.
  if (
    !jsonMode &&
    (NOT_IMPLEMENTED_PREFIXES.some((p) => path.startsWith(p)) ||
      (req.method === "DELETE" && path.startsWith("/v1/models/")))
  ) {
    req.resume();
    return fail(
      res,
      { status: 501, message: "API not implemented", type: "new_api_error", code: "api_not_implemented" },
      requestId,
    );
  }
  // Answered from memory in the steady state: awaited only when it is a promise.
  const authenticated = authenticateToken(req.headers.authorization, relayClientIp(req, env.TRUST_PROXY));
  const token = authenticated instanceof Promise ? await authenticated : authenticated;
  if (isFailure(token)) {
    req.resume();
    return fail(res, token, requestId);
  }
  if (req.method === "GET") {
    const billing = /^(?:\/v1)?\/dashboard\/billing\/(subscription|usage)$/.exec(path);
    if (billing) return sendBilling(token, billing[1] as "subscription" | "usage", res, requestId);
    if (path === "/v1/models") {
      const failure = await sendModels(token, res, requestId);
      return failure ? fail(res, failure, requestId) : undefined;
    }
    const single = /^\/v1\/models\/(.+)$/.exec(path);
    if (single) {
      const name = decodePathPart(single[1]!);
      if (name === undefined) return fail(res, badPath, requestId);
      const failure = await sendModels(token, res, requestId, name);
      return failure ? fail(res, failure, requestId) : undefined;
    }
  }
  const engine = jsonMode ? null : /^\/v1\/engines\/([^/]+)\/embeddings$/.exec(path);
  const engineModel = engine ? decodePathPart(engine[1]!) : undefined;
  if (engine && engineModel === undefined) {
    req.resume();
    return fail(res, badPath, requestId);
  }
  const mode = engine ? "embeddings" : (jsonMode ?? MULTIPART_ENDPOINTS[path]);
  if (req.method !== "POST" || !mode) {
    req.resume();
    return fail(
      res,
      { status: 404, message: `Invalid URL (${req.method} ${path})`, type: "invalid_request_error", code: "not_found" },
      requestId,
    );
  }
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return fail(
        res,
        { status: 413, message: "请求体过大", type: "invalid_request_error", code: "request_too_large" },
        requestId,
      );
    throw error;
  }
  let body: Record<string, unknown>;
  let rawBody: Buffer | undefined = raw;
  let contentType: string | undefined;
  if (MULTIPART_ENDPOINTS[path]) {
    contentType = String(req.headers["content-type"] ?? "");
    body = mode === "images" ? multipartImageFields(raw) : { model: multipartField(raw, "model") ?? "" };
  } else {
    const parsed = parseRelayJson(raw, mode);
    if ("failure" in parsed) return fail(res, parsed.failure, requestId);
    body = parsed.body;
    // The upstream must read the request the gateway billed, whatever its parser does with a repeated key.
    rawBody = keepLastOfRepeated(raw) ?? raw;
    if (engine) {
      // The path names the model: the client's bytes get it too, so they still read as `body`.
      body.model = engineModel;
      rawBody = setMember(rawBody, ["model"], JSON.stringify(engineModel));
    }
  }
  const failure = await relay(
    {
      token,
      mode,
      path: engine ? "/v1/embeddings" : path,
      body,
      rawBody,
      contentType,
      requestId,
      clientHeaders: requestHeadersToForward(req.headers),
      startedAt,
    },
    nodeSink(res),
  );
  if (failure) fail(res, failure, requestId);
}
