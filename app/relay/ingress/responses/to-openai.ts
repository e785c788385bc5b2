import { asArray, asNumber, asString, isObject, put, type Json } from "../json-shape";

/**
 * A Responses request → the OpenAI chat request a chat-only channel is sent: `instructions`
 * becomes a system message, input items become messages (function calls and their outputs
 * become assistant tool calls and tool messages), flat function tools become nested ones.
 */
function contentParts(content: unknown): Json[] | string {
  if (typeof content === "string") return content;
  const parts: Json[] = [];
  for (const part of asArray(content)) {
    if (!isObject(part)) continue;
    if (
      (part.type === "input_text" || part.type === "output_text" || part.type === "text") &&
      typeof part.text === "string"
    )
      parts.push({ type: "text", text: part.text });
    else if (part.type === "input_image" && typeof part.image_url === "string")
      parts.push({
        type: "image_url",
        image_url: { url: part.image_url, ...(typeof part.detail === "string" ? { detail: part.detail } : {}) },
      });
  }
  return parts.every((p) => p.type === "text") ? parts.map((p) => p.text as string).join("") : parts;
}

function convertInput(input: unknown, messages: Json[]): void {
  if (typeof input === "string") {
    messages.push({ role: "user", content: input });
    return;
  }
  for (const item of asArray(input)) {
    if (!isObject(item)) continue;
    if (item.type === "function_call") {
      const call = {
        id: asString(item.call_id) ?? "",
        type: "function",
        function: { name: asString(item.name) ?? "", arguments: asString(item.arguments) ?? "{}" },
      };
      const last = messages.at(-1);
      // Parallel calls are one assistant turn in chat.
      if (last?.role === "assistant" && Array.isArray(last.tool_calls)) (last.tool_calls as Json[]).push(call);
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (item.type === "function_call_output") {
      messages.push({
        role: "tool",
        tool_call_id: asString(item.call_id) ?? "",
        content: typeof item.output === "string" ? item.output : JSON.stringify(item.output ?? ""),
      });
    } else if (item.type === undefined || item.type === "message") {
      const role =
        item.role === "assistant" || item.role === "system" || item.role === "developer" ? item.role : "user";
      const content = contentParts(item.content);
      if (content.length) messages.push({ role, content });
    }
  }
}

function toolChoice(choice: unknown): unknown {
  if (typeof choice === "string") return choice;
  if (isObject(choice) && choice.type === "function" && typeof choice.name === "string")
    return { type: "function", function: { name: choice.name } };
  return undefined;
}

function responseFormat(text: unknown): unknown {
  if (!isObject(text) || !isObject(text.format)) return undefined;
  const format = text.format;
  if (format.type === "json_object") return { type: "json_object" };
  if (format.type === "json_schema")
    return {
      type: "json_schema",
      json_schema: {
        name: asString(format.name) ?? "response",
        schema: format.schema,
        ...(typeof format.strict === "boolean" ? { strict: format.strict } : {}),
      },
    };
  return undefined;
}

export function responsesToOpenAi(body: Json): Json {
  const messages: Json[] = [];
  if (typeof body.instructions === "string" && body.instructions)
    messages.push({ role: "system", content: body.instructions });
  convertInput(body.input, messages);
  const out: Json = { model: body.model, messages };
  put(out, "max_tokens", body.max_output_tokens);
  put(out, "temperature", asNumber(body.temperature));
  put(out, "top_p", asNumber(body.top_p));
  put(out, "user", asString(body.user));
  if (typeof body.parallel_tool_calls === "boolean") out.parallel_tool_calls = body.parallel_tool_calls;
  if (isObject(body.reasoning) && typeof body.reasoning.effort === "string")
    out.reasoning_effort = body.reasoning.effort;
  put(out, "response_format", responseFormat(body.text));
  const tools = asArray(body.tools)
    .filter(isObject)
    .filter((tool) => tool.type === "function" && typeof tool.name === "string")
    .map((tool) => ({
      type: "function",
      function: {
        name: tool.name,
        ...(typeof tool.description === "string" ? { description: tool.description } : {}),
        parameters: tool.parameters ?? { type: "object", properties: {} },
        ...(typeof tool.strict === "boolean" ? { strict: tool.strict } : {}),
      },
    }));
  if (tools.length) {
    out.tools = tools;
    put(out, "tool_choice", toolChoice(body.tool_choice));
  }
  if (body.stream === true) out.stream = true;
  return out;
}
