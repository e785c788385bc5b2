import { parseOpenAiUsage, type ParsedUsage } from "../../billing/usage-parse";
import { insertMember, setMember } from "../../json-edit";
import type { AdapterContext } from "../types";
import { clientWantsUsage } from "./client-usage";

/** The body sent upstream: the client's JSON with the mapped model and, for streams, usage asked for. */
function openAiBody(ctx: AdapterContext, askUsage: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...ctx.body };
  if ("model" in body || ctx.mode !== "images") body.model = ctx.upstreamModel;
  if (ctx.stream && askUsage && (ctx.mode === "chat" || ctx.mode === "completions")) {
    const options =
      typeof body.stream_options === "object" && body.stream_options
        ? (body.stream_options as Record<string, unknown>)
        : {};
    body.stream_options = { ...options, include_usage: true };
  }
  return body;
}

/**
 * What goes upstream: the client's own bytes, with only the fields the gateway changes edited in
 * place (the mapped model; the usage a stream is asked for), so every number and unknown field
 * arrives as the client wrote it and a long chat history is not re-serialised on every call.
 * Built from the parsed body only when there are no client bytes to edit.
 */
export function openAiPayload(ctx: AdapterContext, askUsage: boolean): string | Buffer {
  // An empty body parsed as {}: that is what goes up.
  let raw = ctx.rawJson?.length ? ctx.rawJson : undefined;
  if (raw && ctx.body.model !== ctx.upstreamModel && ("model" in ctx.body || ctx.mode !== "images"))
    raw = setMember(raw, ["model"], JSON.stringify(ctx.upstreamModel));
  if (raw && ctx.stream && askUsage && (ctx.mode === "chat" || ctx.mode === "completions") && !clientWantsUsage(ctx)) {
    // Absent from the parse, the member is added without scanning a long body for it.
    raw =
      "stream_options" in ctx.body
        ? setMember(raw, ["stream_options", "include_usage"], "true")
        : insertMember(raw, "stream_options", '{"include_usage":true}');
  }
  return raw ?? JSON.stringify(openAiBody(ctx, askUsage));
}

/** The usage of an OpenAI-shaped reply object, checked (usage-parse): a bad count is "no usage" with a warning. */
export function usageOf(json: unknown): ParsedUsage {
  return parseOpenAiUsage(json && typeof json === "object" ? (json as { usage?: unknown }).usage : undefined);
}

const USAGE_KEY = Buffer.from('"usage"');

/**
 * The top-level `usage` of an OpenAI-shaped reply, read from the reply's tail where OpenAI puts
 * it, so a long answer (or an embeddings reply of thousands of numbers) is not parsed whole just
 * to bill it. The last `"usage"` key is a top-level key exactly when `{` + the rest of the reply
 * parses (a nested one leaves unbalanced closing brackets, and one inside a string would be
 * escaped); anything else falls back to parsing the whole reply.
 */
export function usageOfReply(raw: Buffer): ParsedUsage {
  const at = raw.lastIndexOf(USAGE_KEY);
  if (at < 0) return {};
  try {
    return usageOf(JSON.parse(`{${raw.toString("utf8", at)}`));
  } catch {
    try {
      return usageOf(JSON.parse(raw.toString("utf8")));
    } catch {
      return {};
    }
  }
}
