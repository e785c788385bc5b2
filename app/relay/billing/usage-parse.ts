import type { Usage } from "./pricing";

/**
 * Token counts as upstreams report them are untrusted input: every adapter (OpenAI and
 * Anthropic shapes, streams and whole replies, audio and rerank) reads them through here, so a
 * count is either a finite non-negative integer or not believed at all.
 *
 *  - A number that is a non-negative integer, or a string of decimal digits ("10"), is a count.
 *  - Anything else in a count we need (text, a negative, a fraction, Infinity, an object) makes
 *    the whole usage "not reported": the pipeline counts tokens itself, as for a reply with no
 *    usage, and the log's `other.usage_warning` says what came. Half-believing a usage (taking
 *    the valid side, zero for the other) would bill an invented number.
 *  - Absent or null usage is simply "not reported", without a warning.
 *
 * Believable-but-absurd counts (3e9 prompt tokens) are clamped in the pipeline (clampUsage),
 * which also covers counted tokens.
 */
export type UsageNote = {
  /** Why the upstream's usage was not believed (the tokens were counted instead). */
  usage_warning?: string;
  /** What the upstream reported for a side that was cut to its bound, and the bounds (the model's context window, the request's max_tokens). */
  usage_clamped?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    bound?: { prompt_tokens: number; completion_tokens: number };
  };
  /** Why a stream stopped short of its end (the client was told, and billed for what it got). */
  stream_cut?: string;
};

export type ParsedUsage = { usage?: Usage; usageNote?: UsageNote };

const DECIMAL = /^\d+(?:\.\d+)?(?:[eE]\+?\d+)?$/;
const INVALID = Symbol("invalid");
type Count = number | undefined | typeof INVALID;

/** One count: undefined when absent (or null), INVALID when present but not a non-negative integer. */
export function readCount(value: unknown): Count {
  if (value === undefined || value === null) return undefined;
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && DECIMAL.test(value.trim())) n = Number(value.trim());
  else return INVALID;
  return Number.isFinite(n) && Number.isInteger(n) && n >= 0 ? n : INVALID;
}

/** A short, printable description of what came, for the log (never the upstream's raw control bytes). */
function describe(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, 120);
}

function rejected(reason: string): ParsedUsage {
  return { usageNote: { usage_warning: `upstream usage ignored (${reason}); tokens counted instead` } };
}

function firstPresent(usage: Record<string, unknown>, keys: string[]): { key: string; count: Count } | undefined {
  for (const key of keys) {
    const count = readCount(usage[key]);
    if (count !== undefined) return { key, count };
  }
  return undefined;
}

function asObject(raw: unknown): Record<string, unknown> | undefined | typeof INVALID {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "object" || Array.isArray(raw)) return INVALID;
  return raw as Record<string, unknown>;
}

/**
 * The parts of the prompt served from or written to the provider's cache, and the reasoning part
 * of the completion, as the usage reports them (`details` names where each count lives). They
 * only lower (or, for cache writes, raise) the price of tokens already counted, so a part that is
 * not a believable count is dropped with a warning and those tokens are billed as ordinary ones;
 * a part larger than its whole is cut to the whole.
 */
function withDetails(
  usage: Usage,
  raw: Record<string, unknown>,
  details: Partial<Record<"cached_tokens" | "cache_write_tokens" | "reasoning_tokens", string[]>>,
): ParsedUsage {
  const out: Usage = { ...usage };
  const warnings: string[] = [];
  for (const [field, paths] of Object.entries(details) as [
    "cached_tokens" | "cache_write_tokens" | "reasoning_tokens",
    string[],
  ][]) {
    for (const path of paths) {
      const value = path
        .split(".")
        .reduce<unknown>(
          (at, key) =>
            at && typeof at === "object" && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined,
          raw,
        );
      const count = readCount(value);
      if (count === undefined) continue;
      if (count === INVALID) warnings.push(`${path} ${describe(value)}`);
      else if (count > 0) out[field] = count;
      break;
    }
  }
  if (out.cached_tokens !== undefined) out.cached_tokens = Math.min(out.cached_tokens, out.prompt_tokens);
  if (out.cache_write_tokens !== undefined)
    out.cache_write_tokens = Math.min(out.cache_write_tokens, out.prompt_tokens - (out.cached_tokens ?? 0));
  if (out.reasoning_tokens !== undefined) out.reasoning_tokens = Math.min(out.reasoning_tokens, out.completion_tokens);
  if (!warnings.length) return { usage: out };
  return {
    usage: out,
    usageNote: { usage_warning: `upstream ${warnings.join(", ")} ignored; those tokens billed at the ordinary price` },
  };
}

/**
 * OpenAI's shape (`prompt_tokens`, `completion_tokens`, `total_tokens`), with the Responses and
 * embeddings variants some compatible providers send (`input_tokens`, `output_tokens`). A
 * missing completion side is the total minus the prompt, as before. Cached prompt tokens come
 * from `prompt_tokens_details.cached_tokens` (Responses: `input_tokens_details`, Realtime:
 * `input_token_details`), or DeepSeek's
 * `prompt_cache_hit_tokens`; reasoning tokens from `completion_tokens_details` / `output_tokens_details`.
 */
export function parseOpenAiUsage(raw: unknown): ParsedUsage {
  const usage = asObject(raw);
  if (usage === undefined) return {};
  if (usage === INVALID) return rejected(`usage ${describe(raw)}`);
  const prompt = firstPresent(usage, ["prompt_tokens", "input_tokens"]);
  const completion = firstPresent(usage, ["completion_tokens", "output_tokens"]);
  const total = readCount(usage.total_tokens);
  for (const side of [prompt, completion]) {
    if (side?.count === INVALID) return rejected(`${side.key} ${describe(usage[side.key])}`);
  }
  if (!prompt && !completion && total === undefined) return rejected(`usage ${describe(raw)} has no token counts`);
  const promptTokens = (prompt?.count as number | undefined) ?? 0;
  let counts: Usage;
  if (completion) counts = { prompt_tokens: promptTokens, completion_tokens: completion.count as number };
  else if (total === INVALID) return rejected(`total_tokens ${describe(usage.total_tokens)}`);
  else counts = { prompt_tokens: promptTokens, completion_tokens: Math.max(0, (total ?? promptTokens) - promptTokens) };
  return withDetails(counts, usage, {
    cached_tokens: [
      "prompt_tokens_details.cached_tokens",
      "input_tokens_details.cached_tokens",
      "input_token_details.cached_tokens",
      "prompt_cache_hit_tokens",
    ],
    reasoning_tokens: ["completion_tokens_details.reasoning_tokens", "output_tokens_details.reasoning_tokens"],
  });
}

const ANTHROPIC_PROMPT_KEYS = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"] as const;

export type ParsedAnthropicUsage = ParsedUsage & { cachedTokens: number };

/**
 * Anthropic's shape: prompt tokens are `input_tokens` plus the cache writes and reads it reports
 * apart (`cache_creation_input_tokens`, `cache_read_input_tokens`, kept as cache_write_tokens and
 * cached_tokens for their own prices); `output_tokens` is the completion (in a stream, the
 * cumulative count of message_delta). `completionFallback` stands in for an absent output count.
 */
export function parseAnthropicUsage(raw: unknown, completionFallback = 0): ParsedAnthropicUsage {
  const usage = asObject(raw);
  if (usage === undefined) return { cachedTokens: 0 };
  if (usage === INVALID) return { ...rejected(`usage ${describe(raw)}`), cachedTokens: 0 };
  let prompt = 0;
  for (const key of ANTHROPIC_PROMPT_KEYS) {
    const count = readCount(usage[key]);
    if (count === INVALID) return { ...rejected(`${key} ${describe(usage[key])}`), cachedTokens: 0 };
    prompt += count ?? 0;
  }
  const output = readCount(usage.output_tokens);
  if (output === INVALID) return { ...rejected(`output_tokens ${describe(usage.output_tokens)}`), cachedTokens: 0 };
  const parsed = withDetails({ prompt_tokens: prompt, completion_tokens: output ?? completionFallback }, usage, {
    cached_tokens: ["cache_read_input_tokens"],
    cache_write_tokens: ["cache_creation_input_tokens"],
  });
  return { ...parsed, cachedTokens: parsed.usage?.cached_tokens ?? 0 };
}

/**
 * Gemini's usageMetadata: the prompt is `promptTokenCount` (cached content included, as
 * `cachedContentTokenCount`); the completion is the candidates' tokens plus the thinking tokens
 * (`thoughtsTokenCount`, billed as output by Google and counted in totalTokenCount).
 */
export function parseGeminiUsage(metadata: unknown): ParsedUsage {
  const meta = asObject(metadata);
  if (meta === undefined) return {};
  if (meta === INVALID) return rejected(`usageMetadata ${describe(metadata)}`);
  const main = parseCounts({
    prompt_tokens: { key: "promptTokenCount", value: meta.promptTokenCount },
    completion_tokens: { key: "candidatesTokenCount", value: meta.candidatesTokenCount ?? 0 },
  });
  if (!main.usage) return main;
  const thoughts = readCount(meta.thoughtsTokenCount);
  if (thoughts === INVALID) return rejected(`thoughtsTokenCount ${describe(meta.thoughtsTokenCount)}`);
  const counts = {
    prompt_tokens: main.usage.prompt_tokens,
    completion_tokens: main.usage.completion_tokens + (thoughts ?? 0),
  };
  return withDetails(counts, meta, {
    cached_tokens: ["cachedContentTokenCount"],
    reasoning_tokens: ["thoughtsTokenCount"],
  });
}

/**
 * Endpoint shapes with a single count of input tokens (rerank's `total_tokens`, Cohere's
 * `billed_units.input_tokens`, a transcription's `input_tokens`/`output_tokens`).
 */
export function parseCounts(
  fields: Record<"prompt_tokens" | "completion_tokens", { key: string; value: unknown }>,
): ParsedUsage {
  const prompt = readCount(fields.prompt_tokens.value);
  if (prompt === INVALID) return rejected(`${fields.prompt_tokens.key} ${describe(fields.prompt_tokens.value)}`);
  const completion = readCount(fields.completion_tokens.value);
  if (completion === INVALID)
    return rejected(`${fields.completion_tokens.key} ${describe(fields.completion_tokens.value)}`);
  if (prompt === undefined && completion === undefined) return {};
  return { usage: { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0 } };
}

/**
 * No single call produces more tokens per side than this by default (the largest context
 * windows today hold about two million). It keeps every count inside PostgreSQL's int, which the
 * log's token columns are, with room to spare.
 */
export const DEFAULT_USAGE_CEILING = 2_000_000;
export const MAX_USAGE_CEILING = 2_000_000_000;

/** The most tokens one call can be billed for, per side. */
export type UsageBounds = { prompt_tokens: number; completion_tokens: number };

/**
 * A usage with each side cut to its bound (a number: the same for both sides), and what was cut
 * recorded for the log with the bound it was cut to: an upstream reporting 3e9 prompt tokens, or
 * a trillion for a small model, would otherwise charge a payer's whole balance.
 */
export function clampUsage(usage: Usage, bounds: number | UsageBounds): { usage: Usage; usageNote?: UsageNote } {
  const both = typeof bounds === "number" ? { prompt_tokens: bounds, completion_tokens: bounds } : bounds;
  const prompt = Math.min(Math.max(0, Math.floor(both.prompt_tokens)), MAX_USAGE_CEILING);
  const completion = Math.min(Math.max(0, Math.floor(both.completion_tokens)), MAX_USAGE_CEILING);
  if (usage.prompt_tokens <= prompt && usage.completion_tokens <= completion) return { usage };
  const clamped: NonNullable<UsageNote["usage_clamped"]> = {};
  if (usage.prompt_tokens > prompt) clamped.prompt_tokens = usage.prompt_tokens;
  if (usage.completion_tokens > completion) clamped.completion_tokens = usage.completion_tokens;
  if (typeof bounds !== "number") clamped.bound = { prompt_tokens: prompt, completion_tokens: completion };
  const cut: Usage = {
    ...usage,
    prompt_tokens: Math.min(usage.prompt_tokens, prompt),
    completion_tokens: Math.min(usage.completion_tokens, completion),
  };
  // The cached and written parts stay inside the (cut) prompt, reasoning inside the completion.
  if (cut.cached_tokens !== undefined) cut.cached_tokens = Math.min(cut.cached_tokens, cut.prompt_tokens);
  if (cut.cache_write_tokens !== undefined)
    cut.cache_write_tokens = Math.min(cut.cache_write_tokens, cut.prompt_tokens - (cut.cached_tokens ?? 0));
  if (cut.reasoning_tokens !== undefined) cut.reasoning_tokens = Math.min(cut.reasoning_tokens, cut.completion_tokens);
  return { usage: cut, usageNote: { usage_clamped: clamped } };
}
