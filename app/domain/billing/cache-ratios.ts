import { DEFAULT_MODEL_RATIO } from "./default-ratios";

/**
 * What a prompt token read from the provider's cache costs (CacheRatio), and one written to it
 * (CreateCacheRatio), as a fraction of an ordinary prompt token. The defaults are the providers'
 * published prices: OpenAI bills cached input at half (GPT-4o, o1 and o3-mini), a quarter
 * (GPT-4.1, o3, o4-mini) or a tenth (GPT-5); Anthropic reads at a tenth and writes (5-minute
 * cache) at 1.25; Gemini reads at a quarter; DeepSeek's cache hits cost a tenth. A model no
 * family covers pays full price for cached tokens, as it did before they were told apart.
 */
export function defaultCacheRatio(model: string): number {
  const m = model.toLowerCase();
  if (m.startsWith("gpt-5")) return 0.1;
  if (m.startsWith("gpt-4.1") || m === "o3" || m.startsWith("o3-20") || m.startsWith("o4-mini")) return 0.25;
  if (m.startsWith("gpt-4o") || m.startsWith("chatgpt-4o") || m.startsWith("o1") || m.startsWith("o3-mini")) return 0.5;
  if (m.startsWith("claude")) return 0.1;
  if (m.startsWith("gemini-1.5") || m.startsWith("gemini-2")) return 0.25;
  if (m.startsWith("deepseek")) return 0.1;
  return 1;
}

/** Only Anthropic charges for writing the cache (others cache for free, at the prompt price). */
export function defaultCreateCacheRatio(model: string): number {
  return model.toLowerCase().startsWith("claude") ? 1.25 : 1;
}

/** The option defaults: every built-in model whose cache is priced apart, so the operator sees and edits them. */
function listed(ratioOf: (model: string) => number): Record<string, number> {
  return Object.fromEntries(
    Object.keys(DEFAULT_MODEL_RATIO).flatMap((model) => (ratioOf(model) === 1 ? [] : [[model, ratioOf(model)]])),
  );
}

export const DEFAULT_CACHE_RATIO: Record<string, number> = listed(defaultCacheRatio);
export const DEFAULT_CREATE_CACHE_RATIO: Record<string, number> = listed(defaultCreateCacheRatio);
