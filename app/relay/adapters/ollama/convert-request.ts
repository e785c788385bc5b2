import { messagesOf, textOf } from "../shared/openai-shapes";

type OllamaMessage = { role: string; content: string; images?: string[]; tool_calls?: unknown[] };

/** base64 of a `data:` image URL; Ollama takes images only as base64 (URL images are not fetched). */
function imagesOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const images: string[] = [];
  for (const part of content) {
    const url =
      part && typeof part === "object" ? (part as { image_url?: { url?: unknown } }).image_url?.url : undefined;
    const match = typeof url === "string" ? /^data:[^;,]+;base64,(.+)$/s.exec(url) : null;
    if (match) images.push(match[1]!);
  }
  return images;
}

/** Ollama wants a tool call's arguments as an object; OpenAI sends a JSON string. */
function toolCallsOf(calls: unknown): unknown[] | undefined {
  if (!Array.isArray(calls) || calls.length === 0) return undefined;
  return calls.map((call) => {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function ?? {};
    let args: unknown = fn.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args || "{}");
      } catch {}
    }
    return { function: { name: fn.name, arguments: args } };
  });
}

/**
 * OpenAI chat → Ollama /api/chat: sampling fields go into `options` (max_tokens → num_predict),
 * `response_format` json → `format`, tools pass as they are (same shape).
 */
export function toOllamaChat(body: Record<string, unknown>, model: string, stream: boolean): Record<string, unknown> {
  const messages: OllamaMessage[] = messagesOf(body).map((m) => {
    const out: OllamaMessage = {
      role: typeof m.role === "string" ? (m.role === "developer" ? "system" : m.role) : "user",
      content: textOf(m.content),
    };
    const images = imagesOf(m.content);
    if (images.length) out.images = images;
    const calls = toolCallsOf(m.tool_calls);
    if (calls) out.tool_calls = calls;
    return out;
  });
  const options: Record<string, unknown> = {};
  const copy = (from: string, to: string) => {
    if (body[from] !== undefined && body[from] !== null) options[to] = body[from];
  };
  copy("temperature", "temperature");
  copy("top_p", "top_p");
  copy("seed", "seed");
  copy("frequency_penalty", "frequency_penalty");
  copy("presence_penalty", "presence_penalty");
  copy("max_completion_tokens", "num_predict");
  copy("max_tokens", "num_predict");
  if (body.stop !== undefined && body.stop !== null) options.stop = Array.isArray(body.stop) ? body.stop : [body.stop];
  const out: Record<string, unknown> = { model, messages, stream };
  if (Object.keys(options).length) out.options = options;
  if (Array.isArray(body.tools) && body.tools.length) out.tools = body.tools;
  const format =
    (body.response_format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined) ?? undefined;
  if (format?.type === "json_object") out.format = "json";
  else if (format?.type === "json_schema" && format.json_schema?.schema) out.format = format.json_schema.schema;
  return out;
}

/** OpenAI embeddings → Ollama /api/embed ({model, input: string | string[]}). */
export function toOllamaEmbed(body: Record<string, unknown>, model: string): Record<string, unknown> {
  return { model, input: body.input };
}
