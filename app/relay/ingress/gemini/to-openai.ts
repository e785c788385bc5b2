import { asArray, asNumber, asString, field, isObject, put, type Json } from "../json-shape";
import { reasoningEffortFor } from "../reasoning-effort";

/**
 * A Gemini generateContent request → the OpenAI chat request a non-Gemini channel is sent
 * (docs/wire-formats/gemini.md, read backwards). The REST parser takes camelCase and snake_case
 * alike, so both spellings are read. Function calls get ids (Gemini's usually have none) that
 * their responses are matched to by name.
 */
function partsOf(content: unknown): Json[] {
  return isObject(content) ? asArray(content.parts).filter(isObject) : [];
}

function textOf(content: unknown): string {
  return partsOf(content)
    .map((part) => asString(part.text) ?? "")
    .join("");
}

/** Gemini schemas spell types in upper case (OBJECT, STRING); JSON Schema wants lower case. */
function lowerTypes(schema: unknown, depth = 0): unknown {
  if (depth > 32) return schema;
  if (Array.isArray(schema)) return schema.map((item) => lowerTypes(item, depth + 1));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema))
    out[key] = key === "type" && typeof value === "string" ? value.toLowerCase() : lowerTypes(value, depth + 1);
  return out;
}

function convertContents(contents: unknown, messages: Json[]): void {
  let calls = 0;
  const pendingIds = new Map<string, string[]>();
  for (const content of asArray(contents)) {
    if (!isObject(content)) continue;
    const role = content.role === "model" ? "assistant" : "user";
    const parts: Json[] = [];
    const toolCalls: Json[] = [];
    for (const part of partsOf(content)) {
      if (part.thought === true) continue;
      const inline = field(part, "inlineData", "inline_data");
      const call = field(part, "functionCall", "function_call");
      const response = field(part, "functionResponse", "function_response");
      if (typeof part.text === "string") parts.push({ type: "text", text: part.text });
      else if (isObject(inline)) {
        const mime = asString(field(inline, "mimeType", "mime_type")) ?? "";
        if (mime.startsWith("image/") && typeof inline.data === "string")
          parts.push({ type: "image_url", image_url: { url: `data:${mime};base64,${inline.data}` } });
      } else if (isObject(call)) {
        const name = asString(call.name) ?? "";
        const id = asString(call.id) ?? `call_${++calls}`;
        pendingIds.set(name, [...(pendingIds.get(name) ?? []), id]);
        toolCalls.push({ id, type: "function", function: { name, arguments: JSON.stringify(call.args ?? {}) } });
      } else if (isObject(response)) {
        const name = asString(response.name) ?? "";
        const id = asString(response.id) ?? pendingIds.get(name)?.shift() ?? `call_${name}`;
        messages.push({ role: "tool", tool_call_id: id, content: JSON.stringify(response.response ?? {}) });
      }
    }
    if (role === "assistant") {
      if (parts.length === 0 && toolCalls.length === 0) continue;
      const text = parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("");
      messages.push({
        role,
        content: toolCalls.length && !text ? null : text,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      });
    } else if (parts.length) {
      messages.push({
        role,
        content: parts.every((p) => p.type === "text") ? parts.map((p) => p.text as string).join("") : parts,
      });
    }
  }
}

function toolChoice(toolConfig: unknown): unknown {
  if (!isObject(toolConfig)) return undefined;
  const config = field(toolConfig, "functionCallingConfig", "function_calling_config");
  if (!isObject(config)) return undefined;
  const allowed = asArray(field(config, "allowedFunctionNames", "allowed_function_names"));
  if (config.mode === "NONE") return "none";
  if (config.mode === "AUTO") return "auto";
  if (config.mode === "ANY")
    return allowed.length === 1 && typeof allowed[0] === "string"
      ? { type: "function", function: { name: allowed[0] } }
      : "required";
  return undefined;
}

/**
 * thinkingConfig → OpenAI's reasoning effort: a positive budget by its size, Gemini 3's
 * thinkingLevel as it is. A budget of 0 (thinking off) or -1 (the model decides) has no OpenAI
 * counterpart: the model's own default applies.
 */
function thinkingEffort(thinking: unknown): string | undefined {
  if (!isObject(thinking)) return undefined;
  const level = field(thinking, "thinkingLevel", "thinking_level");
  if (typeof level === "string" && ["low", "medium", "high"].includes(level.toLowerCase())) return level.toLowerCase();
  const budget = asNumber(field(thinking, "thinkingBudget", "thinking_budget"));
  return budget !== undefined && budget > 0 ? reasoningEffortFor(budget) : undefined;
}

/** Whether the client asked to see the model's thoughts (they come back as parts marked `thought`). */
export function wantsThoughts(body: Json): boolean {
  const config = field(body, "generationConfig", "generation_config");
  const thinking = isObject(config) ? field(config, "thinkingConfig", "thinking_config") : undefined;
  return isObject(thinking) && field(thinking, "includeThoughts", "include_thoughts") === true;
}

/**
 * responseLogprobs → OpenAI's logprobs; Gemini's `logprobs` (how many top candidates per token)
 * → top_logprobs, which OpenAI takes only with logprobs on.
 */
function logprobFields(config: Json, out: Json): void {
  if (field(config, "responseLogprobs", "response_logprobs") !== true) return;
  out.logprobs = true;
  const top = asNumber(config.logprobs);
  if (top !== undefined && Number.isInteger(top) && top >= 0) out.top_logprobs = top;
}

function generationFields(config: unknown, out: Json): void {
  if (!isObject(config)) return;
  put(out, "temperature", asNumber(config.temperature));
  put(out, "top_p", asNumber(field(config, "topP", "top_p")));
  put(out, "max_tokens", field(config, "maxOutputTokens", "max_output_tokens"));
  put(out, "seed", asNumber(config.seed));
  put(out, "presence_penalty", asNumber(field(config, "presencePenalty", "presence_penalty")));
  put(out, "frequency_penalty", asNumber(field(config, "frequencyPenalty", "frequency_penalty")));
  put(out, "top_k", asNumber(field(config, "topK", "top_k")));
  logprobFields(config, out);
  const candidates = asNumber(field(config, "candidateCount", "candidate_count"));
  if (candidates !== undefined && candidates > 1) out.n = candidates;
  put(out, "reasoning_effort", thinkingEffort(field(config, "thinkingConfig", "thinking_config")));
  const stop = asArray(field(config, "stopSequences", "stop_sequences")).filter((s) => typeof s === "string");
  if (stop.length) out.stop = stop;
  if (field(config, "responseMimeType", "response_mime_type") === "application/json") {
    const schema =
      field(config, "responseJsonSchema", "response_json_schema") ?? field(config, "responseSchema", "response_schema");
    out.response_format = isObject(schema)
      ? { type: "json_schema", json_schema: { name: "response", schema: lowerTypes(schema) } }
      : { type: "json_object" };
  }
}

export function geminiToOpenAi(body: Json, model: string, stream: boolean): Json {
  const messages: Json[] = [];
  const system = textOf(field(body, "systemInstruction", "system_instruction"));
  if (system) messages.push({ role: "system", content: system });
  convertContents(body.contents, messages);
  const out: Json = { model, messages };
  generationFields(field(body, "generationConfig", "generation_config"), out);
  const tools = asArray(body.tools)
    .filter(isObject)
    .flatMap((tool) => asArray(field(tool, "functionDeclarations", "function_declarations")))
    .filter(isObject)
    .filter((fn) => typeof fn.name === "string")
    .map((fn) => ({
      type: "function",
      function: {
        name: fn.name,
        ...(typeof fn.description === "string" ? { description: fn.description } : {}),
        parameters: lowerTypes(
          fn.parameters ??
            field(fn, "parametersJsonSchema", "parameters_json_schema") ?? { type: "object", properties: {} },
        ),
      },
    }));
  if (tools.length) {
    out.tools = tools;
    put(out, "tool_choice", toolChoice(field(body, "toolConfig", "tool_config")));
  }
  if (stream) out.stream = true;
  return out;
}
