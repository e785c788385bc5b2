/**
 * Which family a model name belongs to, for grouping a long model list (the channel and token
 * forms' pickers). A family is named after its maker; names matching none go under 其他. The
 * order here is the order the groups are shown in.
 */
const FAMILIES: readonly (readonly [string, RegExp])[] = [
  [
    "OpenAI",
    /^(gpt|chatgpt|o\d|text-(embedding|moderation|davinci|curie|babbage|ada)|omni-moderation|davinci|babbage|dall-e|whisper|tts|codex|computer-use)/,
  ],
  ["Claude", /^claude/],
  ["Gemini", /^(gemini|gemma|palm|chat-bison|text-bison|embedding-gecko|imagen|learnlm)/],
  ["Llama", /llama/],
  ["Mistral", /^(mistral|mixtral|codestral|open-mistral|open-mixtral|pixtral|ministral)/],
  ["Qwen", /^(qwen|qwq|qvq)/],
  ["DeepSeek", /deepseek/],
  ["GLM", /^(glm|chatglm|cogview|cogvideo|charglm|emohaa|codegeex)/],
  ["ERNIE", /^(ernie|bce-|eb-|tao-)/],
  ["Spark", /spark|^generalv|^4\.0ultra/],
  ["Hunyuan", /hunyuan/],
  ["Moonshot", /^(moonshot|kimi)/],
  ["Yi", /^yi-/],
  ["Doubao", /doubao/],
  ["MiniMax", /^(abab|minimax)/],
  ["Cohere", /^(command|embed-|rerank-|c4ai)/],
  ["Jina", /^jina/],
  ["Grok", /^grok/],
  ["360", /^360/],
  ["Midjourney", /^(mj_|swap_face)/],
  ["Suno", /^suno/],
  ["Workers AI", /^@(cf|hf)\//],
];

export const OTHER_FAMILY = "其他";

export function modelFamily(name: string): string {
  const lower = name.toLowerCase();
  // A routed name ("openai/gpt-4o", "@cf/meta/llama-3-8b") is known by its prefix or by its last part.
  const last = lower.slice(lower.lastIndexOf("/") + 1);
  for (const [family, pattern] of FAMILIES) if (pattern.test(lower) || pattern.test(last)) return family;
  return OTHER_FAMILY;
}

export type ModelGroup = { family: string; models: string[] };

/** The models by family, families in the order above (其他 last), each keeping the list's order. */
export function groupModels(models: readonly string[]): ModelGroup[] {
  const byFamily = new Map<string, string[]>();
  for (const model of models) {
    const family = modelFamily(model);
    byFamily.set(family, [...(byFamily.get(family) ?? []), model]);
  }
  const order = [...FAMILIES.map(([family]) => family), OTHER_FAMILY];
  return order.flatMap((family) => (byFamily.has(family) ? [{ family, models: byFamily.get(family)! }] : []));
}
