/**
 * one-api's channel type numbers, as Switchyard (new-api's numbering) knows them. The two
 * projects agree on 0, 1, 3 and 6–25; the rest differ (decision 042 has the table).
 *
 * - `type`: the Switchyard type the channel becomes;
 * - `baseUrl`: for OpenAI-compatible services one-api knew by name and Switchyard carries as
 *   OpenAI (1) or custom (8): the address one-api used when the channel had none;
 * - no entry: no counterpart, the channel comes across disabled with a note (never dropped).
 */
export type TypeMapping = { type: number; name: string; baseUrl?: string };

const SAME = [0, 1, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25];

export const ONE_API_TYPE_NAMES: Record<number, string> = {
  2: "API2D",
  4: "CloseAI",
  5: "OpenAI-SB",
  26: "Baichuan",
  27: "Minimax",
  28: "Mistral",
  29: "Groq",
  30: "Ollama",
  31: "LingYiWanWu",
  32: "StepFun",
  33: "AwsClaude",
  34: "Coze",
  35: "Cohere",
  36: "DeepSeek",
  37: "Cloudflare",
  38: "DeepL",
  39: "TogetherAI",
  40: "Doubao",
  41: "Novita",
  42: "VertexAI",
  43: "Proxy",
  44: "SiliconFlow",
  45: "xAI",
  46: "Replicate",
  47: "BaiduV2",
  48: "XunfeiV2",
  49: "AliBailian",
  50: "OpenAICompatible",
  51: "GeminiOpenAICompatible",
};

const MAPPED: Record<number, TypeMapping> = {
  2: { type: 1, name: "OpenAI", baseUrl: "https://oa.api2d.net" },
  4: { type: 1, name: "OpenAI", baseUrl: "https://api.closeai-proxy.xyz" },
  5: { type: 1, name: "OpenAI", baseUrl: "https://api.openai-sb.com" },
  26: { type: 8, name: "自定义渠道", baseUrl: "https://api.baichuan-ai.com" },
  27: { type: 35, name: "MiniMax" },
  28: { type: 42, name: "Mistral AI" },
  29: { type: 8, name: "自定义渠道", baseUrl: "https://api.groq.com/openai" },
  30: { type: 4, name: "Ollama" },
  31: { type: 31, name: "零一万物" },
  32: { type: 8, name: "自定义渠道", baseUrl: "https://api.stepfun.com" },
  33: { type: 33, name: "AWS Claude" },
  35: { type: 34, name: "Cohere" },
  36: { type: 43, name: "DeepSeek" },
  37: { type: 39, name: "Cloudflare" },
  39: { type: 8, name: "自定义渠道", baseUrl: "https://api.together.xyz" },
  40: { type: 45, name: "字节火山方舟" },
  41: { type: 8, name: "自定义渠道", baseUrl: "https://api.novita.ai/v3/openai" },
  42: { type: 41, name: "Vertex AI" },
  44: { type: 40, name: "SiliconCloud" },
  45: { type: 48, name: "xAI" },
  47: { type: 46, name: "百度千帆 V2" },
  50: { type: 8, name: "自定义渠道" },
};

export function mapOneApiType(type: number): TypeMapping | undefined {
  if (SAME.includes(type)) return { type, name: String(type) };
  return MAPPED[type];
}

/** new-api's own numbering is Switchyard's up to 48; later new-api types have no counterpart yet. */
export const HIGHEST_NEW_API_TYPE = 48;
