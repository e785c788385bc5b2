/**
 * OpenAI chat request → Gemini `GenerateContentRequest` (docs/wire-formats/gemini.md). Shared with
 * Vertex AI, whose Gemini models take the same body.
 */
type Part = {
  type?: string;
  text?: string;
  image_url?: { url?: string } | string;
  input_audio?: { data?: string; format?: string };
};
type ToolCall = { id?: string; function?: { name?: string; arguments?: string } };
type OpenAiMessage = {
  role?: string;
  content?: string | Part[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
};
export type GeminiPart = Record<string, unknown>;
export type GeminiContent = { role: "user" | "model"; parts: GeminiPart[] };

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  heic: "image/heic",
  heif: "image/heif",
  pdf: "application/pdf",
};

/** A URL's media type from its extension (Gemini's fileData needs one); JPEG when it says nothing. */
export function mimeTypeOfUrl(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {}
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
  return IMAGE_TYPES[ext] ?? "image/jpeg";
}

/** A data URL goes inline; any other URL as fileData (Gemini reads it; the gateway fetches nothing). */
function imagePart(url: string): GeminiPart {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data) return { inlineData: { mimeType: data[1], data: data[2] } };
  return { fileData: { mimeType: mimeTypeOfUrl(url), fileUri: url } };
}

function textOf(content: OpenAiMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");
}

function contentParts(content: OpenAiMessage["content"]): GeminiPart[] {
  if (typeof content === "string") return content ? [{ text: content }] : [];
  const parts: GeminiPart[] = [];
  for (const part of content ?? []) {
    if (part.type === "text" && part.text) parts.push({ text: part.text });
    else if (part.type === "image_url") {
      const url = typeof part.image_url === "string" ? part.image_url : part.image_url?.url;
      if (url) parts.push(imagePart(url));
    } else if (part.type === "input_audio" && part.input_audio?.data) {
      parts.push({
        inlineData: { mimeType: `audio/${part.input_audio.format ?? "wav"}`, data: part.input_audio.data },
      });
    }
  }
  return parts;
}

function parseArguments(text: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return {};
  }
}

/** A tool result: a JSON object as it is, anything else wrapped as `{content}` (Gemini wants an object). */
function toolResponse(content: OpenAiMessage["content"]): Record<string, unknown> {
  const text = textOf(content);
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {}
  return { content: text };
}

// JSON Schema keywords Gemini's OpenAPI-subset `parameters` rejects.
const UNSUPPORTED_SCHEMA_KEYS = new Set([
  "$schema",
  "additionalProperties",
  "strict",
  "$id",
  "$ref",
  "$defs",
  "definitions",
]);

export function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(key)) continue;
    // `properties` maps names to schemas: its keys are property names, not keywords.
    out[key] =
      key === "properties" && value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanSchema(v)]))
        : cleanSchema(value);
  }
  return out;
}

function toolConfig(choice: unknown): Record<string, unknown> | undefined {
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  const name =
    choice && typeof choice === "object" ? (choice as { function?: { name?: string } }).function?.name : undefined;
  if (name) return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [name] } };
  return undefined;
}

const THINKING_BUDGET: Record<string, number> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };

function generationConfig(body: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const num = (key: string) => (typeof body[key] === "number" ? (body[key] as number) : undefined);
  if (num("temperature") !== undefined) config.temperature = num("temperature");
  if (num("top_p") !== undefined) config.topP = num("top_p");
  if (num("top_k") !== undefined) config.topK = num("top_k");
  const max = num("max_completion_tokens") ?? num("max_tokens");
  if (max !== undefined) config.maxOutputTokens = max;
  if (body.stop) config.stopSequences = (Array.isArray(body.stop) ? body.stop : [body.stop]).slice(0, 5);
  if (num("n") !== undefined && num("n")! > 1) config.candidateCount = num("n");
  if (num("seed") !== undefined) config.seed = num("seed");
  if (num("presence_penalty") !== undefined) config.presencePenalty = num("presence_penalty");
  if (num("frequency_penalty") !== undefined) config.frequencyPenalty = num("frequency_penalty");
  const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (format?.type === "json_object") config.responseMimeType = "application/json";
  if (format?.type === "json_schema") {
    config.responseMimeType = "application/json";
    if (format.json_schema?.schema) config.responseSchema = cleanSchema(format.json_schema.schema);
  }
  if (typeof body.reasoning_effort === "string" && body.reasoning_effort in THINKING_BUDGET)
    config.thinkingConfig = { thinkingBudget: THINKING_BUDGET[body.reasoning_effort] };
  return config;
}

/** The `contents` and `systemInstruction` of a chat: system turns out, tool results named after their call, same-role turns merged. */
export function toGeminiRequest(body: Record<string, unknown>): Record<string, unknown> {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  const push = (role: GeminiContent["role"], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts: [...parts] });
  };
  for (const message of (body.messages as OpenAiMessage[] | undefined) ?? []) {
    if (message.role === "system" || message.role === "developer") {
      const text = textOf(message.content);
      if (text) system.push(text);
    } else if (message.role === "assistant") {
      const parts = contentParts(message.content);
      for (const call of message.tool_calls ?? []) {
        const name = call.function?.name ?? "";
        if (call.id) toolNames.set(call.id, name);
        parts.push({ functionCall: { name, args: parseArguments(call.function?.arguments) } });
      }
      push("model", parts);
    } else if (message.role === "tool" || message.role === "function") {
      // OpenAI names the call, Gemini the function: resolved from the assistant turn that made the call.
      const name = toolNames.get(message.tool_call_id ?? "") ?? message.name ?? "";
      push("user", [{ functionResponse: { name, response: toolResponse(message.content) } }]);
    } else push("user", contentParts(message.content));
  }
  const request: Record<string, unknown> = { contents };
  if (system.length) request.systemInstruction = { parts: system.map((text) => ({ text })) };
  const tools = body.tools as
    { type?: string; function?: { name?: string; description?: string; parameters?: unknown } }[] | undefined;
  const declarations = (tools ?? [])
    .filter((t) => t.function?.name)
    .map((t) => ({
      name: t.function!.name,
      ...(t.function!.description ? { description: t.function!.description } : {}),
      ...(t.function!.parameters ? { parameters: cleanSchema(t.function!.parameters) } : {}),
    }));
  if (declarations.length) {
    request.tools = [{ functionDeclarations: declarations }];
    const config = toolConfig(body.tool_choice);
    if (config) request.toolConfig = config;
  }
  const config = generationConfig(body);
  if (Object.keys(config).length) request.generationConfig = config;
  return request;
}

/** OpenAI embeddings request → `batchEmbedContents` (each request names the model; order kept). */
export function toGeminiEmbedRequest(
  body: Record<string, unknown>,
  upstreamModel: string,
): { request: Record<string, unknown>; texts: string[] } {
  const input = body.input;
  const texts = (Array.isArray(input) ? input : [input]).map((item) =>
    typeof item === "string" ? item : JSON.stringify(item ?? ""),
  );
  const model = upstreamModel.startsWith("models/") ? upstreamModel : `models/${upstreamModel}`;
  const dimensions = typeof body.dimensions === "number" ? { outputDimensionality: body.dimensions } : {};
  return {
    request: { requests: texts.map((text) => ({ model, content: { parts: [{ text }] }, ...dimensions })) },
    texts,
  };
}
