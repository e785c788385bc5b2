/**
 * Context windows (prompt and reply together, in tokens) of the models a gateway commonly
 * serves, as their providers publish them: the default of the ModelContextLength option. The
 * relay bills no call for more tokens than its model can take, whatever an upstream reports, so
 * a lying or broken upstream cannot bill a small model's call as a million-token one. Operators
 * add or correct entries in 倍率设置; a model in neither falls back to RELAY_USAGE_CEILING.
 */
export const DEFAULT_MODEL_CONTEXT_LENGTH: Record<string, number> = {
  "gpt-3.5-turbo": 16_385,
  "gpt-3.5-turbo-16k": 16_385,
  "gpt-3.5-turbo-instruct": 4_096,
  "gpt-4": 8_192,
  "gpt-4-32k": 32_768,
  "gpt-4-turbo": 128_000,
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  "chatgpt-4o-latest": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "gpt-4.1-nano": 1_047_576,
  o1: 200_000,
  "o1-mini": 128_000,
  "o1-preview": 128_000,
  "o3-mini": 200_000,
  o3: 200_000,
  "o4-mini": 200_000,
  "text-embedding-ada-002": 8_191,
  "text-embedding-3-small": 8_191,
  "text-embedding-3-large": 8_191,
  "claude-3-haiku": 200_000,
  "claude-3-5-haiku": 200_000,
  "claude-3-sonnet": 200_000,
  "claude-3-opus": 200_000,
  "claude-3-5-sonnet": 200_000,
  "claude-3-7-sonnet": 200_000,
  "claude-sonnet-4": 200_000,
  "claude-opus-4": 200_000,
  "gemini-1.5-pro": 2_097_152,
  "gemini-1.5-flash": 1_048_576,
  "gemini-2.0-flash": 1_048_576,
  "gemini-2.5-pro": 1_048_576,
  "gemini-2.5-flash": 1_048_576,
  "deepseek-chat": 65_536,
  "deepseek-reasoner": 65_536,
  "mistral-small-latest": 32_000,
  "mistral-medium-latest": 131_072,
  "mistral-large-latest": 131_072,
  "command-r": 128_000,
  "command-r-plus": 128_000,
  "llama3-8b-8192": 8_192,
  "llama3-70b-8192": 8_192,
  "qwen-turbo": 1_000_000,
  "qwen-plus": 131_072,
  "qwen-max": 32_768,
  "glm-4": 128_000,
  "glm-4-flash": 128_000,
  "moonshot-v1-8k": 8_192,
  "moonshot-v1-32k": 32_768,
  "moonshot-v1-128k": 131_072,
};

/**
 * A model's context window from a table: its own entry, else the entry of the longest name it
 * starts with followed by a dash (a dated snapshot such as `gpt-4o-mini-2024-07-18`, or
 * `claude-3-5-sonnet-20241022`, inherits its family's window).
 */
export function contextLengthIn(table: Record<string, number>, model: string): number | undefined {
  const own = table[model];
  if (typeof own === "number" && own > 0) return own;
  let best: string | undefined;
  for (const name of Object.keys(table)) {
    if (model.startsWith(`${name}-`) && (!best || name.length > best.length)) best = name;
  }
  const family = best === undefined ? undefined : table[best];
  return typeof family === "number" && family > 0 ? family : undefined;
}
