/**
 * Built-in prices, the defaults of the ModelRatio / CompletionRatio / ModelPrice options.
 * Ratio 1 = $2 per 1M prompt tokens (500000 quota = $1). Prices are USD per call.
 * Operators override any of them in the settings; these only fill a fresh install.
 */
export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  "gpt-3.5-turbo": 0.25,
  "gpt-3.5-turbo-0125": 0.25,
  "gpt-3.5-turbo-1106": 0.5,
  "gpt-3.5-turbo-16k": 1.5,
  "gpt-3.5-turbo-instruct": 0.75,
  "gpt-4": 15,
  "gpt-4-0613": 15,
  "gpt-4-32k": 30,
  "gpt-4-turbo": 5,
  "gpt-4-turbo-2024-04-09": 5,
  "gpt-4-1106-preview": 5,
  "gpt-4-0125-preview": 5,
  "gpt-4o": 1.25,
  "gpt-4o-2024-05-13": 2.5,
  "gpt-4o-2024-08-06": 1.25,
  "gpt-4o-2024-11-20": 1.25,
  "chatgpt-4o-latest": 2.5,
  "gpt-4o-mini": 0.075,
  "gpt-4o-mini-2024-07-18": 0.075,
  "gpt-4.1": 1,
  "gpt-4.1-mini": 0.2,
  "gpt-4.1-nano": 0.05,
  o1: 7.5,
  "o1-preview": 7.5,
  "o1-mini": 0.55,
  "o3-mini": 0.55,
  o3: 1,
  "o4-mini": 0.55,
  "text-embedding-ada-002": 0.05,
  "text-embedding-3-small": 0.01,
  "text-embedding-3-large": 0.065,
  "text-moderation-latest": 0.1,
  "text-moderation-stable": 0.1,
  "omni-moderation-latest": 0.1,
  "whisper-1": 15,
  "tts-1": 7.5,
  "tts-1-hd": 15,
  "davinci-002": 1,
  "babbage-002": 0.2,
  "claude-instant-1": 0.4,
  "claude-2.0": 4,
  "claude-2.1": 4,
  "claude-3-haiku-20240307": 0.125,
  "claude-3-5-haiku-20241022": 0.5,
  "claude-3-sonnet-20240229": 1.5,
  "claude-3-opus-20240229": 7.5,
  "claude-3-5-sonnet-20240620": 1.5,
  "claude-3-5-sonnet-20241022": 1.5,
  "claude-3-7-sonnet-20250219": 1.5,
  "claude-sonnet-4-20250514": 1.5,
  "claude-opus-4-20250514": 7.5,
  "gemini-pro": 0.25,
  "gemini-1.5-pro": 1.75,
  "gemini-1.5-flash": 0.0375,
  "gemini-2.0-flash": 0.05,
  "gemini-2.5-pro": 0.625,
  "gemini-2.5-flash": 0.15,
  "text-embedding-004": 0.001,
  "mistral-small-latest": 0.1,
  "mistral-medium-latest": 0.2,
  "mistral-large-latest": 1,
  "deepseek-chat": 0.135,
  "deepseek-reasoner": 0.275,
  "deepseek-coder": 0.135,
  "command-r": 0.25,
  "command-r-plus": 1.5,
  "llama3-8b-8192": 0.025,
  "llama3-70b-8192": 0.295,
  "qwen-turbo": 0.15,
  "qwen-plus": 0.4,
  "qwen-max": 1.6,
  "glm-4": 7.143,
  "glm-4-flash": 0.05,
  "moonshot-v1-8k": 0.857,
  "ERNIE-4.0-8K": 8.572,
  "ERNIE-Speed-8K": 0.286,
  "SparkDesk-v3.5": 1.2858,
  "hunyuan-lite": 0,
  "abab6.5-chat": 2.143,
};

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {};

export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  "dall-e-2": 0.02,
  "dall-e-3": 0.04,
  "gpt-4-gizmo-*": 0.1,
  suno_music: 0.1,
  suno_lyrics: 0.01,
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  swap_face: 0.05,
  mj_upload: 0.05,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
};

/**
 * Built-in completion ratio by model family, used only when the operator's CompletionRatio
 * option has no entry for the model (the reference applies these first and so ignores the
 * operator for every listed family; Switchyard lets the operator win).
 */
export function defaultCompletionRatio(model: string): number {
  const m = model.toLowerCase();
  if (m === "gpt-4o-2024-05-13" || m === "chatgpt-4o-latest") return 3;
  if (
    m.startsWith("gpt-4o") ||
    m.startsWith("gpt-4.1") ||
    m.startsWith("o1") ||
    m.startsWith("o3") ||
    m.startsWith("o4")
  )
    return 4;
  if (m.startsWith("gpt-4-turbo") || (m.startsWith("gpt-4") && m.endsWith("preview"))) return 3;
  if (m.startsWith("gpt-4")) return 2;
  if (m.startsWith("gpt-3.5")) return m.endsWith("1106") ? 2 : 3;
  if (m.startsWith("claude-3") || m.startsWith("claude-sonnet-4") || m.startsWith("claude-opus-4")) return 5;
  if (m.startsWith("claude-2") || m.startsWith("claude-instant")) return 3;
  if (m.startsWith("mistral-")) return 3;
  if (m.startsWith("gemini-")) return 4;
  if (m === "command-r-plus") return 5;
  if (m.startsWith("command-r") && m.endsWith("08-2024")) return 4;
  if (m === "command-r") return 3;
  if (m.startsWith("command")) return 2;
  if (m.startsWith("deepseek")) return m === "deepseek-reasoner" ? 4 : 2;
  if (
    m.startsWith("ernie-speed") ||
    m.startsWith("ernie-lite") ||
    m.startsWith("ernie-character") ||
    m.startsWith("ernie-functions")
  )
    return 2;
  if (m.startsWith("tts") || m.startsWith("whisper") || m.startsWith("text-embedding") || m.includes("moderation"))
    return 1;
  return 1;
}
