import type { IncomingMessage } from "node:http";
import type { Span } from "@opentelemetry/api";
import { endSpan, startSpan } from "~/utils/tracing.server";
import type { ObservedResponse } from "~/utils/observed-response.server";
import {
  gaugeReadAtScrape,
  quotaConsumed,
  relayDuration,
  relayRequests,
  relayTtfb,
  tokensBilled,
  upstreamErrors,
  limitRefusals,
} from "~/utils/metrics.server";
import { JSON_ENDPOINTS, MULTIPART_ENDPOINTS } from "./request-parse";
import { leases } from "./billing/lease-book.server";
import { settlementBacklog } from "./billing/settlement-writer.server";

/**
 * What the relay tells operators about each call. Prometheus: counted and timed when its response
 * closes, labelled with what admission learned on the way (model, channel). Traces (when on):
 * one span per call, with children for admission, each upstream attempt and the settlement,
 * carrying the model, channel, token id and status (never a key). Only calls observed here get
 * an entry, and it goes with the response, so nothing accumulates.
 */
type CallFacts = { model: string; channel: string; tokenId?: number; span?: Span };
const calls = new Map<string, CallFacts>();

gaugeReadAtScrape(
  "switchyard_settlements_queued",
  "Charges journaled and not yet written to the database",
  () => settlementBacklog().queued,
);
gaugeReadAtScrape("switchyard_quota_leases", "Quota leases this process holds", () => leases.size);

export function observeRelayCall(req: IncomingMessage, res: ObservedResponse, requestId: string, path: string): void {
  const startedAt = performance.now();
  const surface = relaySurfaceOf(path);
  const facts: CallFacts = {
    model: "",
    channel: "",
    span: startSpan(`relay ${surface}`, {
      "switchyard.surface": surface,
      "switchyard.request_id": requestId,
      "http.request.method": req.method ?? "",
    }),
  };
  calls.set(requestId, facts);
  // A response closes once: `on`, not `once` (no wrapper per call). Its head's time and type
  // were noted by the response itself (ObservedResponse), whatever wrote it.
  res.on("close", () => {
    calls.delete(requestId);
    const streamed = res.eventStream;
    const stream = streamed ? "true" : "false";
    if (facts.span) {
      facts.span.setAttributes({
        "http.response.status_code": res.statusCode,
        "switchyard.model": facts.model,
        "switchyard.channel_id": facts.channel,
        "switchyard.stream": streamed,
        ...(facts.tokenId ? { "switchyard.token_id": facts.tokenId } : {}),
      });
      endSpan(facts.span, res.statusCode >= 500 ? `status ${res.statusCode}` : undefined);
    }
    relayRequests.inc({ surface, model: facts.model, channel: facts.channel, code: String(res.statusCode) });
    relayDuration.observe({ surface, stream }, (performance.now() - startedAt) / 1000);
    if (res.headAt !== 0) relayTtfb.observe({ surface, stream }, (res.headAt - startedAt) / 1000);
  });
}

/** The native surfaces and listings beside the OpenAI endpoints, whose surface is their mode. */
const OTHER_SURFACES: Record<string, string> = {
  "/v1/messages": "anthropic",
  "/v1/responses": "responses",
  "/v1/models": "models",
};

/** A relay path's surface, from a fixed list (never the path itself: it can carry a model name). */
export function relaySurfaceOf(path: string): string {
  const known = JSON_ENDPOINTS[path] ?? MULTIPART_ENDPOINTS[path] ?? OTHER_SURFACES[path];
  if (known) return known;
  if (path.startsWith("/v1beta/") || /^\/v1\/models\/[^/]+:/.test(path)) return "gemini";
  if (path.startsWith("/v1/models/")) return "models";
  if (path.startsWith("/v1/engines/")) return "embeddings";
  if (path.includes("/mj/")) return "midjourney";
  if (path.startsWith("/suno/")) return "suno";
  if (path.includes("/dashboard/billing/")) return "billing";
  return "other";
}

/** The call's model passed admission (it is routed in the caller's group): it may name a series. */
export function noteAdmittedModel(requestId: string, model: string, tokenId?: number): void {
  const facts = calls.get(requestId);
  if (!facts) return;
  facts.model = model;
  facts.tokenId = tokenId;
}

/** A step of an observed call as a child span (admission, an upstream attempt, the settlement); undefined while tracing is off. */
export function callStep(
  requestId: string,
  name: string,
  attributes: Record<string, string | number> = {},
): Span | undefined {
  const parent = calls.get(requestId)?.span;
  return parent ? startSpan(name, attributes, parent) : undefined;
}

export function noteServingChannel(requestId: string, channelId: number | undefined): void {
  const facts = calls.get(requestId);
  if (facts && channelId) facts.channel = String(channelId);
}

export function noteUpstreamFailure(channelId: number): void {
  upstreamErrors.inc({ channel: String(channelId) });
}

export function noteLimitRefusal(limit: string): void {
  limitRefusals.inc({ limit });
}

export function noteCharge(quota: number, promptTokens: number, completionTokens: number): void {
  if (quota > 0) quotaConsumed.inc(quota);
  if (promptTokens > 0) tokensBilled.inc({ direction: "prompt" }, promptTokens);
  if (completionTokens > 0) tokensBilled.inc({ direction: "completion" }, completionTokens);
}
