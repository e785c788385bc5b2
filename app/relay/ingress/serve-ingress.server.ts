import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/utils/env.server";
import { authenticateToken, isFailure } from "../auth/token-auth.server";
import { BodyTooLargeError, readBody, relayClientIp } from "../http.server";
import { keepLastOfRepeated } from "../json-edit";
import { relay } from "../pipeline.server";
import { nodeSink } from "../reply-sink";
import type { RelayFailure } from "../relay-error";
import { anthropicSurface } from "./anthropic/surface";
import { geminiSurface } from "./gemini/surface";
import { responsesSurface } from "./responses/surface";
import { requestHeadersToForward } from "../wire-headers";
import type { IngressMatch, IngressSurface } from "./types";

/** A %-escaped model name from a path, or undefined when the escapes are broken or hide NUL. */
function decodeModel(part: string): string | undefined {
  try {
    const decoded = decodeURIComponent(part);
    return decoded && !decoded.includes("\u0000") ? decoded : undefined;
  } catch {
    return undefined;
  }
}

const GEMINI_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The native surface a POST path belongs to (decision 026), or undefined for the OpenAI surface. */
export function matchIngress(
  method: string | undefined,
  path: string,
): { surface: IngressSurface; match: IngressMatch } | undefined {
  if (method !== "POST") return undefined;
  if (path === "/v1/messages") return { surface: anthropicSurface, match: {} };
  if (path === "/v1/responses") return { surface: responsesSurface, match: {} };
  const gemini = GEMINI_PATH.exec(path);
  if (gemini)
    return {
      surface: geminiSurface,
      match: { model: decodeModel(gemini[1]!) ?? "", stream: gemini[2] === "streamGenerateContent" },
    };
  return undefined;
}

/** One native request: its key checked, its body parsed into an ingress, relayed; every failure in the surface's shape. */
export async function serveIngress(
  req: IncomingMessage,
  res: ServerResponse,
  surface: IngressSurface,
  match: IngressMatch,
  requestId: string,
  startedAt: number,
): Promise<void> {
  const fail = (failure: RelayFailure) => {
    if (res.headersSent) res.end();
    else surface.sendError(res, failure, requestId);
  };
  const url = new URL(req.url ?? "/", "http://relay.invalid");
  const authenticated = authenticateToken(surface.credential(req, url), relayClientIp(req, env.TRUST_PROXY));
  const token = authenticated instanceof Promise ? await authenticated : authenticated;
  if (isFailure(token)) {
    req.resume();
    return fail(token);
  }
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return fail({ status: 413, message: "请求体过大", type: "invalid_request_error", code: "request_too_large" });
    throw error;
  }
  if (match.model === "")
    return fail({
      status: 400,
      message: "无效的请求路径：错误的 % 转义",
      type: "invalid_request_error",
      code: "invalid_request",
    });
  // The upstream must read the request the gateway billed, whatever its parser does with a repeated key.
  raw = keepLastOfRepeated(raw) ?? raw;
  const parsed = surface.parse(raw, match, req);
  if ("failure" in parsed) return fail(parsed.failure);
  const failure = await relay(
    {
      token,
      mode: "chat",
      path: "/v1/chat/completions",
      body: parsed.body,
      requestId,
      clientHeaders: requestHeadersToForward(req.headers),
      startedAt,
      ingress: parsed.ingress,
    },
    nodeSink(res),
  );
  if (failure) fail(failure);
}
