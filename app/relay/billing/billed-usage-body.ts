import type { Usage } from "./pricing";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameUsage(a: Usage | undefined, b: Usage): boolean {
  return a !== undefined && a.prompt_tokens === b.prompt_tokens && a.completion_tokens === b.completion_tokens;
}

/**
 * A usage in Anthropic's terms: its input_tokens leave out what was read from or written to the
 * prompt cache, which it reports beside them (OpenAI's prompt_tokens include the cached part).
 */
export function anthropicCounts(usage: Usage | undefined) {
  const cached = usage?.cached_tokens ?? 0;
  const written = usage?.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached - written),
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    output_tokens: usage?.completion_tokens ?? 0,
  };
}

/** The counts of a usage object in the shape it already has (OpenAI's prompt/completion, or the input/output of Anthropic and Responses). */
function billedCounts(current: unknown, billed: Usage): Json {
  const usage: Json = isObject(current) ? { ...current } : {};
  const total = billed.prompt_tokens + billed.completion_tokens;
  if ("cache_read_input_tokens" in usage || "cache_creation_input_tokens" in usage)
    return { ...usage, ...anthropicCounts(billed) };
  if ("input_tokens" in usage || "output_tokens" in usage) {
    usage.input_tokens = billed.prompt_tokens;
    usage.output_tokens = billed.completion_tokens;
    if ("total_tokens" in usage) usage.total_tokens = total;
    return usage;
  }
  usage.prompt_tokens = billed.prompt_tokens;
  usage.completion_tokens = billed.completion_tokens;
  usage.total_tokens = total;
  return usage;
}

/**
 * A whole reply as the client gets it: the usage it reports is the usage billed. When the
 * upstream's own counts were billed as they came, its bytes go out untouched; when they were not
 * (a count that was no number, a side past its bound, none at all where the shape has a place
 * for it), the counts in the reply are replaced by the billed ones — in the shape the reply
 * already uses (OpenAI `usage`, Anthropic and Responses `usage` with input/output, Gemini
 * `usageMetadata`) — and every other field is kept.
 */
export function replyWithBilledUsage(
  body: string | Buffer,
  reported: Usage | undefined,
  billed: Usage,
): string | Buffer {
  if (sameUsage(reported, billed)) return body;
  let reply: unknown;
  try {
    reply = JSON.parse(typeof body === "string" ? body : body.toString("utf8"));
  } catch {
    return body;
  }
  if (!isObject(reply)) return body;
  if ("usageMetadata" in reply) {
    const metadata: Json = isObject(reply.usageMetadata) ? { ...reply.usageMetadata } : {};
    metadata.promptTokenCount = billed.prompt_tokens;
    metadata.candidatesTokenCount = billed.completion_tokens;
    metadata.totalTokenCount = billed.prompt_tokens + billed.completion_tokens;
    reply.usageMetadata = metadata;
  } else if ("usage" in reply || reply.object === "chat.completion" || reply.object === "text_completion") {
    reply.usage = billedCounts(reply.usage, billed);
  } else return body;
  return JSON.stringify(reply);
}
