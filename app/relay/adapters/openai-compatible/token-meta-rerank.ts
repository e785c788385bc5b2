import { parseCounts } from "../../billing/usage-parse";

type TokenMetaRerank = {
  id?: unknown;
  results?: unknown;
  tokens?: { input_tokens?: unknown };
  meta?: { tokens?: { input_tokens?: unknown } };
};

/**
 * SiliconFlow's (and Xinference's) rerank reply counts tokens as `tokens.input_tokens` (older: `meta.tokens`); the
 * client gets the gateway's rerank shape with `usage`, and the bill reads that.
 */
export function convertTokenMetaRerank(raw: Buffer): string | Buffer {
  let reply: TokenMetaRerank;
  try {
    reply = JSON.parse(raw.toString("utf8")) as TokenMetaRerank;
  } catch {
    return raw;
  }
  const input = reply.tokens?.input_tokens ?? reply.meta?.tokens?.input_tokens;
  const parsed = parseCounts({
    prompt_tokens: { key: "tokens.input_tokens", value: input },
    completion_tokens: { key: "", value: undefined },
  });
  const usage = parsed.usage
    ? { prompt_tokens: parsed.usage.prompt_tokens, total_tokens: parsed.usage.prompt_tokens }
    : undefined;
  return JSON.stringify({ id: reply.id, results: Array.isArray(reply.results) ? reply.results : [], usage });
}
