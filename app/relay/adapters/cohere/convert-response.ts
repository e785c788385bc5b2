import type { Usage } from "../../billing/pricing";
import { parseCounts, type ParsedUsage } from "../../billing/usage-parse";
import { countText } from "../../stream/token-counter";
import { chatCompletion, type FinishReason } from "../shared/openai-shapes";

export type CohereMeta = {
  billed_units?: { input_tokens?: unknown; output_tokens?: unknown };
  tokens?: { input_tokens?: unknown; output_tokens?: unknown };
};
export type CohereChatReply = {
  response_id?: unknown;
  generation_id?: unknown;
  text?: unknown;
  finish_reason?: unknown;
  meta?: CohereMeta;
};

/** COMPLETE, MAX_TOKENS, ERROR_TOXIC… → OpenAI's finish reasons. */
export function mapCohereFinish(reason: unknown): FinishReason {
  switch (reason) {
    case "MAX_TOKENS":
      return "length";
    case "ERROR_TOXIC":
      return "content_filter";
    default:
      return "stop";
  }
}

/** Cohere bills `meta.billed_units`; `meta.tokens` is the fallback (it counts the prompt template too). */
export function cohereUsage(meta: CohereMeta | undefined): ParsedUsage {
  const units = meta?.billed_units ?? meta?.tokens;
  if (!units || typeof units !== "object") return {};
  return parseCounts({
    prompt_tokens: { key: "billed_units.input_tokens", value: units.input_tokens },
    completion_tokens: { key: "billed_units.output_tokens", value: units.output_tokens },
  });
}

export function cohereChatToOpenAi(
  reply: CohereChatReply,
  model: string,
): { body: string; usage?: Usage; usageNote?: ParsedUsage["usageNote"] } {
  const parsed = cohereUsage(reply.meta);
  const id = `chatcmpl-${String(reply.response_id ?? reply.generation_id ?? "")}`;
  const body = chatCompletion({
    id,
    model,
    content: typeof reply.text === "string" ? reply.text : "",
    finishReason: mapCohereFinish(reply.finish_reason),
    usage: parsed.usage,
  });
  return { body: JSON.stringify(body), ...parsed };
}

type CohereRerankReply = {
  id?: unknown;
  results?: { index?: unknown; relevance_score?: unknown; document?: unknown }[];
};

/**
 * Cohere rerank → the gateway's shape. Cohere bills rerank in search units, not tokens, so the
 * usage is the request's text counted (query and documents), as for any reply without tokens.
 */
export function cohereRerankToGateway(reply: CohereRerankReply, request: Record<string, unknown>): string {
  const results = (Array.isArray(reply.results) ? reply.results : []).map((r) => {
    const out: Record<string, unknown> = { index: r.index, relevance_score: r.relevance_score };
    if (r.document !== undefined) out.document = r.document;
    return out;
  });
  const docs = Array.isArray(request.documents) ? request.documents : [];
  const text = [request.query, ...docs]
    .map((d) =>
      typeof d === "string" ? d : d && typeof d === "object" ? String((d as { text?: unknown }).text ?? "") : "",
    )
    .join("\n");
  const tokens = countText(text);
  return JSON.stringify({ id: reply.id, results, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}
