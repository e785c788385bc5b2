import { asArray, asNumber, asString, isObject, put, type Json } from "../json-shape";
import { reasoningEffortFor } from "../reasoning-effort";

/**
 * An Anthropic Messages request → the OpenAI chat request a non-Claude channel is sent
 * (the mapping of adapters/anthropic/convert-request.ts, read backwards): `system` becomes a system message, text, image and
 * PDF blocks become parts, `tool_use` blocks assistant tool calls, `tool_result` blocks tool
 * messages; `thinking` becomes `reasoning_effort`, `service_tier` its OpenAI tier, `top_k` goes
 * as it is (the converting adapter drops it for channels that refuse it). What has no
 * counterpart (`cache_control`, earlier turns' thinking blocks) is listed in the README.
 */
function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((block) => (isObject(block) && block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("");
}

function imageUrl(source: unknown): string | undefined {
  if (!isObject(source)) return undefined;
  if (source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string")
    return `data:${source.media_type};base64,${source.data}`;
  if (source.type === "url" && typeof source.url === "string") return source.url;
  return undefined;
}

/** A PDF (base64 or by URL) as OpenAI's file part; plain-text documents as text. */
function documentPart(source: unknown): Json | undefined {
  if (!isObject(source)) return undefined;
  if (source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string") {
    return {
      type: "file",
      file: { filename: "document.pdf", file_data: `data:${source.media_type};base64,${source.data}` },
    };
  }
  if (source.type === "text" && typeof source.data === "string") return { type: "text", text: source.data };
  if (source.type === "url" && typeof source.url === "string") return { type: "file", file: { file_url: source.url } };
  return undefined;
}

/**
 * A tool result the client marked as an error: OpenAI's tool message has no such flag, so the
 * content says it, or the model would read a failure as the tool's answer.
 */
export const TOOL_ERROR_PREFIX = "Error: ";

function toolResultContent(block: Json): string {
  const text = blockText(block.content);
  return block.is_error === true && !text.startsWith(TOOL_ERROR_PREFIX) ? `${TOOL_ERROR_PREFIX}${text}` : text;
}

function convertMessage(message: Json, out: Json[]): void {
  const role = message.role === "assistant" ? "assistant" : "user";
  if (typeof message.content === "string") {
    out.push({ role, content: message.content });
    return;
  }
  const parts: Json[] = [];
  const toolCalls: Json[] = [];
  const toolResults: Json[] = [];
  for (const block of asArray(message.content)) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push({ type: "text", text: block.text });
    else if (block.type === "image") {
      const url = imageUrl(block.source);
      if (url) parts.push({ type: "image_url", image_url: { url } });
    } else if (block.type === "tool_use") {
      toolCalls.push({
        id: asString(block.id) ?? "",
        type: "function",
        function: { name: asString(block.name) ?? "", arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (block.type === "document") {
      const part = documentPart(block.source);
      if (part) parts.push(part);
    } else if (block.type === "tool_result") {
      toolResults.push({
        role: "tool",
        tool_call_id: asString(block.tool_use_id) ?? "",
        content: toolResultContent(block),
      });
    }
  }
  // Tool results answer the assistant turn before them: they come first in OpenAI's order.
  out.push(...toolResults);
  if (role === "assistant") {
    if (parts.length === 0 && toolCalls.length === 0) return;
    const text = parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("");
    out.push({
      role,
      content: toolCalls.length && !text ? null : text,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    });
  } else if (parts.length) {
    out.push({
      role,
      content: parts.every((p) => p.type === "text") ? parts.map((p) => p.text as string).join("") : parts,
    });
  }
}

function toolChoice(choice: unknown): unknown {
  if (!isObject(choice)) return undefined;
  if (choice.type === "auto") return "auto";
  if (choice.type === "any") return "required";
  if (choice.type === "none") return "none";
  if (choice.type === "tool" && typeof choice.name === "string")
    return { type: "function", function: { name: choice.name } };
  return undefined;
}

function thinkingEffort(thinking: unknown): string | undefined {
  if (!isObject(thinking) || thinking.type !== "enabled") return undefined;
  const budget = asNumber(thinking.budget_tokens);
  return budget === undefined ? "medium" : reasoningEffortFor(budget);
}

/** Anthropic's `auto` is OpenAI's; `standard_only` (never the priority tier) is OpenAI's `default`. */
function serviceTier(tier: unknown): string | undefined {
  if (tier === "auto") return "auto";
  if (tier === "standard_only") return "default";
  return undefined;
}

export function anthropicToOpenAi(body: Json): Json {
  const messages: Json[] = [];
  const system = blockText(body.system);
  if (system) messages.push({ role: "system", content: system });
  for (const message of asArray(body.messages)) if (isObject(message)) convertMessage(message, messages);
  const out: Json = { model: body.model, messages };
  put(out, "max_tokens", body.max_tokens);
  put(out, "temperature", asNumber(body.temperature));
  put(out, "top_p", asNumber(body.top_p));
  put(out, "top_k", asNumber(body.top_k));
  put(out, "reasoning_effort", thinkingEffort(body.thinking));
  put(out, "service_tier", serviceTier(body.service_tier));
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length)
    out.stop = body.stop_sequences.filter((s) => typeof s === "string");
  if (isObject(body.metadata) && typeof body.metadata.user_id === "string") out.user = body.metadata.user_id;
  const tools = asArray(body.tools)
    .filter(isObject)
    .filter((tool) => typeof tool.name === "string" && tool.input_schema !== undefined)
    .map((tool) => ({
      type: "function",
      function: {
        name: tool.name,
        ...(typeof tool.description === "string" ? { description: tool.description } : {}),
        parameters: tool.input_schema,
      },
    }));
  if (tools.length) {
    out.tools = tools;
    put(out, "tool_choice", toolChoice(body.tool_choice));
    if (isObject(body.tool_choice) && body.tool_choice.disable_parallel_tool_use === true)
      out.parallel_tool_calls = false;
  }
  if (body.stream === true) out.stream = true;
  return out;
}
