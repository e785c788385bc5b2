/**
 * The channel types of docs/product.md (0 unknown … 41 Vertex AI): display name, default base URL and
 * models, key format and what `other` means. One table, read by forms, /api/models and the relay.
 */
export interface ChannelTypeInfo {
  type: number;
  name: string;
  defaultBaseUrl: string;
  defaultModels: readonly string[];
  /** Shown under the key field; also the parts the validator checks for `|`-separated keys. */
  keyHint: string;
  keyParts?: { separator: string; count: number };
  defaultOther?: string;
  otherLabel?: string;
  /** Midjourney and Suno channels serve a fixed list of actions, not chat models. */
  fixedModels?: boolean;
  /** What the base URL field shows when empty (the host a self-hosted provider usually listens on). */
  baseUrlPlaceholder?: string;
}

// "mj_upload", not the reference console's "mj_uploads": the relay prices and routes an upload
// by the action's model name (ModelPrice has mj_upload), so the reference's list never matched.
const MJ_ACTIONS = ["mj_imagine", "mj_variation", "mj_reroll", "mj_blend", "mj_upscale", "mj_describe", "mj_upload"];
const MJ_PLUS_ACTIONS = [
  ...MJ_ACTIONS,
  "swap_face",
  "mj_zoom",
  "mj_shorten",
  "mj_modal",
  "mj_inpaint",
  "mj_custom_zoom",
  "mj_high_variation",
  "mj_low_variation",
  "mj_pan",
];
const OPENAI_MODELS = [
  "gpt-4o",
  "gpt-4o-mini",
  "gpt-4.1",
  "gpt-4.1-mini",
  "gpt-4.1-nano",
  "o3-mini",
  "o1",
  "gpt-4-turbo",
  "gpt-4",
  "gpt-3.5-turbo",
  "text-embedding-3-small",
  "text-embedding-3-large",
  "text-embedding-ada-002",
  "dall-e-3",
  "whisper-1",
  "tts-1",
  "tts-1-hd",
  "omni-moderation-latest",
];
const OPENAI_CHAT_MODELS = ["gpt-4o", "gpt-4o-mini", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo", "text-embedding-3-small"];
const CLAUDE_MODELS = [
  "claude-3-5-sonnet-20241022",
  "claude-3-5-haiku-20241022",
  "claude-3-7-sonnet-20250219",
  "claude-3-opus-20240229",
  "claude-3-haiku-20240307",
  "claude-sonnet-4-20250514",
  "claude-opus-4-20250514",
];
const GEMINI_MODELS = [
  "gemini-2.5-pro",
  "gemini-2.5-flash",
  "gemini-2.0-flash",
  "gemini-1.5-pro",
  "gemini-1.5-flash",
  "text-embedding-004",
];

const plainKey = "API Key";

export const CHANNEL_TYPE_TABLE: readonly ChannelTypeInfo[] = [
  { type: 0, name: "未知类型", defaultBaseUrl: "", defaultModels: [], keyHint: plainKey },
  { type: 1, name: "OpenAI", defaultBaseUrl: "https://api.openai.com", defaultModels: OPENAI_MODELS, keyHint: "sk-…" },
  {
    type: 2,
    name: "Midjourney Proxy",
    defaultBaseUrl: "",
    defaultModels: MJ_ACTIONS,
    keyHint: "mj-api-secret（没有可随便填）",
    fixedModels: true,
  },
  {
    type: 3,
    name: "Azure OpenAI",
    defaultBaseUrl: "",
    defaultModels: ["gpt-4o", "gpt-4o-mini", "gpt-4", "gpt-35-turbo", "text-embedding-ada-002"],
    keyHint: plainKey,
    defaultOther: "2023-06-01-preview",
    otherLabel: "默认 API 版本",
  },
  {
    type: 4,
    name: "Ollama",
    defaultBaseUrl: "http://localhost:11434",
    defaultModels: ["llama3.1", "qwen2.5", "mistral", "nomic-embed-text"],
    keyHint: "任意值（Ollama 不校验密钥）",
    baseUrlPlaceholder: "http://localhost:11434",
  },
  {
    type: 5,
    name: "Midjourney Proxy Plus",
    defaultBaseUrl: "",
    defaultModels: MJ_PLUS_ACTIONS,
    keyHint: "mj-api-secret（没有可随便填）",
    fixedModels: true,
  },
  {
    type: 6,
    name: "OpenAI Max",
    defaultBaseUrl: "https://api.openaimax.com",
    defaultModels: OPENAI_CHAT_MODELS,
    keyHint: "sk-…",
  },
  {
    type: 7,
    name: "OhMyGPT",
    defaultBaseUrl: "https://api.ohmygpt.com",
    defaultModels: OPENAI_CHAT_MODELS,
    keyHint: "sk-…",
  },
  {
    type: 8,
    name: "自定义渠道",
    defaultBaseUrl: "",
    defaultModels: ["gpt-4o-mini", "gpt-3.5-turbo"],
    keyHint: plainKey,
  },
  {
    type: 9,
    name: "AILS",
    defaultBaseUrl: "https://api.caipacity.com",
    defaultModels: OPENAI_CHAT_MODELS,
    keyHint: "sk-…",
  },
  {
    type: 10,
    name: "AI Proxy",
    defaultBaseUrl: "https://api.aiproxy.io",
    defaultModels: OPENAI_CHAT_MODELS,
    keyHint: "ap-…",
  },
  {
    type: 11,
    name: "Google PaLM2",
    defaultBaseUrl: "https://generativelanguage.googleapis.com",
    defaultModels: ["PaLM-2"],
    keyHint: plainKey,
  },
  {
    type: 12,
    name: "API2GPT",
    defaultBaseUrl: "https://api.api2gpt.com",
    defaultModels: OPENAI_CHAT_MODELS,
    keyHint: "sk-…",
  },
  {
    type: 13,
    name: "AIGC2D",
    defaultBaseUrl: "https://api.aigc2d.com",
    defaultModels: OPENAI_CHAT_MODELS,
    keyHint: "sk-…",
  },
  {
    type: 14,
    name: "Anthropic Claude",
    defaultBaseUrl: "https://api.anthropic.com",
    defaultModels: CLAUDE_MODELS,
    keyHint: "sk-ant-…",
  },
  {
    type: 15,
    name: "百度文心千帆",
    defaultBaseUrl: "https://aip.baidubce.com",
    defaultModels: ["ERNIE-4.0-8K", "ERNIE-3.5-8K", "ERNIE-Speed-8K", "ERNIE-Lite-8K", "Embedding-V1"],
    keyHint: "APIKey|SecretKey",
    keyParts: { separator: "|", count: 2 },
  },
  {
    type: 16,
    name: "智谱 ChatGLM",
    defaultBaseUrl: "https://open.bigmodel.cn",
    defaultModels: ["chatglm_turbo", "chatglm_pro", "chatglm_std", "chatglm_lite"],
    keyHint: "id.secret",
  },
  {
    type: 17,
    name: "阿里通义千问",
    defaultBaseUrl: "https://dashscope.aliyuncs.com",
    defaultModels: ["qwen-turbo", "qwen-plus", "qwen-max", "text-embedding-v1", "wanx-v1"],
    keyHint: plainKey,
    otherLabel: "插件参数",
  },
  {
    type: 18,
    name: "讯飞星火认知",
    defaultBaseUrl: "wss://spark-api.xf-yun.com",
    defaultModels: ["SparkDesk-v1.1", "SparkDesk-v2.1", "SparkDesk-v3.1", "SparkDesk-v3.5", "SparkDesk-v4.0"],
    keyHint: "APPID|APISecret|APIKey",
    keyParts: { separator: "|", count: 3 },
    defaultOther: "v2.1",
    otherLabel: "模型版本",
  },
  {
    type: 19,
    name: "360 智脑",
    defaultBaseUrl: "https://ai.360.cn",
    defaultModels: ["360GPT_S2_V9", "embedding-bert-512-v1", "embedding_s1_v1", "semantic_similarity_s1_v1"],
    keyHint: plainKey,
  },
  {
    type: 20,
    name: "OpenRouter",
    defaultBaseUrl: "https://openrouter.ai/api",
    defaultModels: [
      "openai/gpt-4o",
      "openai/gpt-4o-mini",
      "anthropic/claude-3.5-sonnet",
      "google/gemini-2.0-flash-001",
      "meta-llama/llama-3.1-70b-instruct",
    ],
    keyHint: "sk-or-v1-…",
    baseUrlPlaceholder: "https://openrouter.ai/api（保留 /api 前缀）",
  },
  {
    type: 21,
    name: "知识库：AI Proxy",
    defaultBaseUrl: "https://api.aiproxy.io",
    defaultModels: ["gpt-3.5-turbo", "gpt-4"],
    keyHint: plainKey,
    otherLabel: "知识库 ID",
  },
  {
    type: 22,
    name: "知识库：FastGPT",
    defaultBaseUrl: "https://fastgpt.run/api/openapi",
    defaultModels: ["gpt-3.5-turbo"],
    keyHint: "APIKey-AppId",
    keyParts: { separator: "-", count: 2 },
  },
  {
    type: 23,
    name: "腾讯混元",
    defaultBaseUrl: "https://hunyuan.tencentcloudapi.com",
    defaultModels: ["hunyuan-lite", "hunyuan-standard", "hunyuan-pro"],
    keyHint: "AppId|SecretId|SecretKey",
    keyParts: { separator: "|", count: 3 },
  },
  {
    type: 24,
    name: "Google Gemini",
    defaultBaseUrl: "https://generativelanguage.googleapis.com",
    defaultModels: GEMINI_MODELS,
    keyHint: plainKey,
    otherLabel: "API 版本",
  },
  {
    type: 25,
    name: "Moonshot",
    defaultBaseUrl: "https://api.moonshot.cn",
    defaultModels: ["moonshot-v1-8k", "moonshot-v1-32k", "moonshot-v1-128k"],
    keyHint: plainKey,
  },
  {
    type: 26,
    name: "智谱 GLM-4V",
    defaultBaseUrl: "https://open.bigmodel.cn",
    defaultModels: ["glm-4", "glm-4v", "glm-4-flash", "glm-3-turbo", "embedding-2"],
    keyHint: "id.secret",
  },
  {
    type: 27,
    name: "Perplexity",
    defaultBaseUrl: "https://api.perplexity.ai",
    defaultModels: ["sonar", "sonar-pro", "sonar-reasoning", "sonar-reasoning-pro"],
    keyHint: "pplx-…",
  },
  {
    type: 31,
    name: "零一万物",
    defaultBaseUrl: "https://api.lingyiwanwu.com",
    defaultModels: ["yi-large", "yi-medium", "yi-spark", "yi-vision"],
    keyHint: plainKey,
  },
  {
    type: 33,
    name: "AWS Claude",
    defaultBaseUrl: "",
    defaultModels: CLAUDE_MODELS,
    keyHint: "Ak|Sk|Region",
    keyParts: { separator: "|", count: 3 },
  },
  {
    type: 34,
    name: "Cohere",
    defaultBaseUrl: "https://api.cohere.ai",
    defaultModels: ["command-r", "command-r-plus", "command-light", "rerank-english-v3.0", "rerank-multilingual-v3.0"],
    keyHint: "Cohere API Key",
  },
  {
    type: 35,
    name: "MiniMax",
    defaultBaseUrl: "https://api.minimax.chat",
    defaultModels: ["abab6.5-chat", "abab6.5s-chat", "abab5.5-chat", "MiniMax-Text-01"],
    keyHint: "MiniMax API Key（JWT）",
  },
  {
    type: 36,
    name: "Suno API",
    defaultBaseUrl: "",
    defaultModels: ["suno_music", "suno_lyrics"],
    keyHint: plainKey,
    fixedModels: true,
  },
  {
    type: 37,
    name: "Dify",
    defaultBaseUrl: "https://api.dify.ai",
    defaultModels: ["dify"],
    keyHint: "app-…（Dify 应用的 API 密钥）",
    baseUrlPlaceholder: "https://api.dify.ai 或自建地址，如 http://dify.local",
  },
  {
    type: 38,
    name: "Jina",
    defaultBaseUrl: "https://api.jina.ai",
    defaultModels: ["jina-reranker-v2-base-multilingual", "jina-embeddings-v3"],
    keyHint: "jina_…",
  },
  {
    type: 39,
    name: "Cloudflare",
    defaultBaseUrl: "https://api.cloudflare.com",
    defaultModels: [
      "@cf/meta/llama-3.1-8b-instruct",
      "@cf/mistral/mistral-7b-instruct-v0.1",
      "@cf/baai/bge-base-en-v1.5",
    ],
    keyHint: "Workers AI API Token",
    otherLabel: "Account ID（必填）",
  },
  {
    type: 40,
    name: "SiliconCloud",
    defaultBaseUrl: "https://api.siliconflow.cn",
    defaultModels: ["deepseek-ai/DeepSeek-V3", "Qwen/Qwen2.5-72B-Instruct", "BAAI/bge-m3", "BAAI/bge-reranker-v2-m3"],
    keyHint: "sk-…",
  },
  {
    type: 41,
    name: "Vertex AI",
    defaultBaseUrl: "",
    defaultModels: ["gemini-1.5-pro", "gemini-1.5-flash", "claude-3-5-sonnet@20240620", "claude-3-haiku@20240307"],
    keyHint: "服务账号 JSON（service account key）",
    defaultOther: JSON.stringify({ default: "us-central1", "claude-3-5-sonnet@20240620": "europe-west1" }),
    otherLabel: "部署地区（JSON，default 必填）",
  },
  {
    type: 42,
    name: "Mistral AI",
    defaultBaseUrl: "https://api.mistral.ai",
    defaultModels: [
      "mistral-large-latest",
      "mistral-small-latest",
      "open-mistral-nemo",
      "codestral-latest",
      "mistral-embed",
    ],
    keyHint: plainKey,
  },
  {
    type: 43,
    name: "DeepSeek",
    defaultBaseUrl: "https://api.deepseek.com",
    defaultModels: ["deepseek-chat", "deepseek-reasoner"],
    keyHint: "sk-…",
  },
  {
    type: 44,
    name: "MokaAI",
    defaultBaseUrl: "https://api.moka.ai",
    defaultModels: ["m3e-large", "m3e-base", "m3e-small"],
    keyHint: plainKey,
  },
  {
    type: 45,
    name: "字节火山方舟",
    defaultBaseUrl: "https://ark.cn-beijing.volces.com",
    defaultModels: ["doubao-pro-32k", "doubao-lite-32k", "doubao-embedding"],
    keyHint: "方舟 API Key（模型名可填推理接入点 ID ep-…）",
  },
  {
    type: 46,
    name: "百度千帆 V2",
    defaultBaseUrl: "https://qianfan.baidubce.com",
    defaultModels: ["ernie-4.0-8k-latest", "ernie-3.5-8k", "ernie-speed-128k", "ernie-lite-8k"],
    keyHint: "bce-v3/…（千帆 V2 API Key）",
  },
  {
    type: 47,
    name: "Xinference",
    defaultBaseUrl: "",
    defaultModels: ["qwen2.5-instruct", "bge-m3", "bge-reranker-v2-m3"],
    keyHint: "API Key（未开启鉴权可随便填）",
    baseUrlPlaceholder: "必填，如 http://localhost:9997",
  },
  {
    type: 48,
    name: "xAI",
    defaultBaseUrl: "https://api.x.ai",
    defaultModels: ["grok-2-latest", "grok-2-vision-latest", "grok-beta"],
    keyHint: "xai-…",
  },
];
