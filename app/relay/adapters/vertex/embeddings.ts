import { formatEmbedding } from "../gemini/embedding-format";
import { parseCounts, readCount, type ParsedUsage } from "../../billing/usage-parse";

/**
 * Vertex AI text embeddings (`…/publishers/google/models/{model}:predict`): one instance per
 * input, and `statistics.token_count` per prediction, summed as the prompt tokens billed.
 */
export function toVertexEmbedRequest(body: Record<string, unknown>): Record<string, unknown> {
  const input = body.input;
  const texts = (Array.isArray(input) ? input : [input]).map((item) =>
    typeof item === "string" ? item : JSON.stringify(item ?? ""),
  );
  const request: Record<string, unknown> = { instances: texts.map((content) => ({ content })) };
  if (typeof body.dimensions === "number") request.parameters = { outputDimensionality: body.dimensions };
  return request;
}

type Prediction = { embeddings?: { values?: unknown; statistics?: { token_count?: unknown } } };

export function toOpenAiFromVertexEmbeddings(
  reply: { predictions?: Prediction[] },
  requestModel: string,
  body: Record<string, unknown> = {},
): { body: Record<string, unknown> } & ParsedUsage {
  const predictions = Array.isArray(reply.predictions) ? reply.predictions : [];
  let tokens = 0;
  let parsed: ParsedUsage = {};
  for (const p of predictions) {
    const count = readCount(p?.embeddings?.statistics?.token_count);
    if (typeof count === "number") tokens += count;
    else if (count !== undefined)
      parsed = parseCounts({
        prompt_tokens: { key: "statistics.token_count", value: p?.embeddings?.statistics?.token_count },
        completion_tokens: { key: "", value: undefined },
      });
  }
  if (!parsed.usageNote && predictions.length) parsed = { usage: { prompt_tokens: tokens, completion_tokens: 0 } };
  return {
    body: {
      object: "list",
      data: predictions.map((p, index) => ({
        object: "embedding",
        index,
        embedding: formatEmbedding(p?.embeddings?.values, body),
      })),
      model: requestModel,
      usage: { prompt_tokens: parsed.usage?.prompt_tokens ?? 0, total_tokens: parsed.usage?.prompt_tokens ?? 0 },
    },
    ...parsed,
  };
}
