import type { IncomingHttpHeaders } from "node:http";
import type { Usage } from "../../billing/pricing";
import { parseOpenAiUsage } from "../../billing/usage-parse";

/** Browsers cannot set headers on a WebSocket: OpenAI's clients pass the key as this subprotocol. */
const KEY_PROTOCOL = "openai-insecure-api-key.";

function offeredProtocols(headers: IncomingHttpHeaders): string[] {
  const offered = headers["sec-websocket-protocol"];
  return typeof offered === "string"
    ? offered
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
}

/** The key a Realtime client presented: `Authorization: Bearer …`, else the key subprotocol. */
export function realtimeCredential(headers: IncomingHttpHeaders): string | undefined {
  if (headers.authorization) return headers.authorization;
  const carried = offeredProtocols(headers).find((p) => p.startsWith(KEY_PROTOCOL));
  return carried ? `Bearer ${carried.slice(KEY_PROTOCOL.length)}` : undefined;
}

/** The subprotocols that go upstream: the client's, never the one carrying the gateway key. */
export function forwardedProtocols(headers: IncomingHttpHeaders): string[] {
  return offeredProtocols(headers).filter((p) => !p.startsWith(KEY_PROTOCOL));
}

/** The channel's base URL as a WebSocket URL for the model (http → ws, https → wss). */
export function realtimeUrl(base: string, model: string): string | undefined {
  const trimmed = base.replace(/\/+$/, "");
  const ws = trimmed.replace(/^http(s?):\/\//i, (_m, s: string) => `ws${s}://`);
  if (!/^wss?:\/\//i.test(ws)) return undefined;
  return `${ws}/v1/realtime?model=${encodeURIComponent(model)}`;
}

/**
 * Usage of a Realtime session, added up from each `response.done` event as it passes (the
 * only event that carries it). Counts go through usage-parse: a bad one adds nothing and the
 * warning is kept for the log.
 */
export class RealtimeMeter {
  readonly usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  responses = 0;
  warning: string | undefined;

  /** One upstream text message; cheap for every other event (no parse without the type's name in it). */
  read(text: string): void {
    if (!text.includes('"response.done"')) return;
    let event: { type?: unknown; response?: { usage?: unknown } };
    try {
      event = JSON.parse(text) as typeof event;
    } catch {
      return;
    }
    if (event?.type !== "response.done") return;
    this.responses += 1;
    const parsed = parseOpenAiUsage(event.response?.usage);
    if (parsed.usage) {
      this.usage.prompt_tokens += parsed.usage.prompt_tokens;
      this.usage.completion_tokens += parsed.usage.completion_tokens;
      for (const part of ["cached_tokens", "cache_write_tokens", "reasoning_tokens"] as const) {
        if (parsed.usage[part]) this.usage[part] = (this.usage[part] ?? 0) + (parsed.usage[part] ?? 0);
      }
    } else if (parsed.usageNote?.usage_warning) this.warning = parsed.usageNote.usage_warning;
  }
}
