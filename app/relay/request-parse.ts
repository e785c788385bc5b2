import { z } from "zod";
import { jsonNestsDeeperThan, MAX_ID } from "~/utils/edge-input";
import type { RelayMode } from "./adapters/types";
import { localFailure, type RelayFailure } from "./relay-error";

/** Relay endpoints: path → mode, and the model a request names when it does not say. */
export const JSON_ENDPOINTS: Record<string, RelayMode> = {
  "/v1/chat/completions": "chat",
  "/v1/completions": "completions",
  // Legacy edits: relayed to OpenAI-style channels as they are, priced like chat.
  "/v1/edits": "edits",
  "/v1/embeddings": "embeddings",
  "/v1/moderations": "moderations",
  "/v1/images/generations": "images",
  "/v1/rerank": "rerank",
  "/v1/audio/speech": "speech",
};

export const MULTIPART_ENDPOINTS: Record<string, RelayMode> = {
  "/v1/audio/transcriptions": "transcriptions",
  "/v1/audio/translations": "translations",
  "/v1/images/edits": "images",
  "/v1/images/variations": "images",
};

/** What the reference answers 501 for: endpoints it routes but never implemented. */
export const NOT_IMPLEMENTED_PREFIXES = [
  "/v1/files",
  "/v1/fine-tunes",
  "/v1/fine_tuning",
  "/v1/assistants",
  "/v1/threads",
  "/v1/batches",
  "/v1/vector_stores",
  "/v1/uploads",
];

const DEFAULT_MODELS: Partial<Record<RelayMode, string>> = {
  moderations: "text-moderation-stable",
  images: "dall-e-2",
  speech: "tts-1",
  transcriptions: "whisper-1",
  translations: "whisper-1",
};

/** How many priced calls a request is: `n` images (1–10) for image generation, else one. */
export function callCount(mode: RelayMode, body: Record<string, unknown>): number {
  if (mode !== "images") return 1;
  const n = typeof body.n === "number" && Number.isInteger(body.n) ? body.n : 1;
  return Math.min(10, Math.max(1, n));
}

export function requestModel(mode: RelayMode, body: Record<string, unknown>): string {
  const model = typeof body.model === "string" ? body.model.trim() : "";
  return model || DEFAULT_MODELS[mode] || "";
}

/**
 * Text-to-speech is priced per character of its input (as OpenAI prices it and the reference
 * counts it), not per token: a character is one billable unit.
 */
export function speechCharacters(body: Record<string, unknown>): number {
  return typeof body.input === "string" ? [...body.input].length : 0;
}

/**
 * A cheap upper-leaning estimate of prompt tokens for the reservation (about 3 bytes per
 * token); the bill itself uses the upstream's usage, so this only sizes the hold. Speech is
 * billed per character, so its hold is exact.
 */
export function estimatePromptTokens(body: Record<string, unknown>, mode?: RelayMode): number {
  if (mode === "speech") return speechCharacters(body);
  return Math.ceil(
    (textBytes(body.messages ?? body.prompt ?? body.input ?? body.query ?? body.documents ?? "") +
      textBytes(body.instruction)) /
      3,
  );
}

/** UTF-8 bytes of every string inside a JSON value (loops, not closures: it runs on every call). */
function textBytes(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value);
  if (!value || typeof value !== "object") return 0;
  let bytes = 0;
  if (Array.isArray(value)) {
    for (const item of value) bytes += textBytes(item);
  } else {
    for (const key in value) bytes += textBytes((value as Record<string, unknown>)[key]);
  }
  return bytes;
}

export function maxTokensOf(body: Record<string, unknown>): number | undefined {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

/**
 * The fields of a multipart image edit or variation that price it (model, n, size), read like
 * the JSON ones: `n` is a count only when it is a whole number.
 */
export function multipartImageFields(body: Buffer): Record<string, unknown> {
  const fields: Record<string, unknown> = { model: multipartField(body, "model") ?? "" };
  const n = multipartField(body, "n");
  if (n && /^\d{1,2}$/.test(n)) fields.n = Number(n);
  const size = multipartField(body, "size");
  if (size) fields.size = size;
  return fields;
}

/** The `model` field of a multipart form, read without buffering the parts into objects. */
export function multipartField(body: Buffer, name: string): string | undefined {
  const text = body.subarray(0, Math.min(body.length, 64 * 1024)).toString("latin1");
  const match = new RegExp(`name="${name}"\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([^\\r\\n]*)`).exec(text);
  return match?.[1]?.trim() || undefined;
}

/** Deeper than any real request (tool schemas nest a dozen levels); the walks below stay bounded by it. */
export const MAX_RELAY_JSON_DEPTH = 64;

const tokenCount = z.number().int().min(0).max(MAX_ID).nullish();

/**
 * The few fields the gateway itself reads (routing, billing, streaming) must have their types
 * before the relay acts on them; every other field is the upstream's to judge. `null` is what
 * many clients send for "not set", so it is accepted wherever a field is optional.
 */
const relayFields = z.object({
  // The model name is logged and looked up: NUL cannot be stored, and no real name is longer.
  model: z
    .string()
    .max(256)
    .refine((m) => !m.includes("\u0000"))
    .nullish(),
  stream: z.boolean().nullish(),
  max_tokens: tokenCount,
  max_completion_tokens: tokenCount,
  max_output_tokens: tokenCount,
  n: z.number().int().min(1).max(128).nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});

const imageFields = relayFields.extend({ n: z.number().int().min(1).max(10).nullish() });

function invalid(message: string, param?: string): RelayFailure {
  return { ...localFailure(400, param ? `${message}: ${param}` : message, "invalid_request", "invalid_request_error") };
}

/**
 * Raw relay JSON → an object, or the 400 a client should see: not JSON, not an object, nested
 * absurdly deep (a 100 000-level array would exhaust the stack of any recursive walk), or one of the gateway's own fields out of type or range (`max_tokens: 1e20`).
 */
export function parseRelayJson(
  raw: Buffer,
  mode: RelayMode,
): { body: Record<string, unknown> } | { failure: RelayFailure } {
  if (jsonNestsDeeperThan(raw, MAX_RELAY_JSON_DEPTH))
    return { failure: invalid(`无效的请求体：JSON 嵌套超过 ${MAX_RELAY_JSON_DEPTH} 层`) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8") || "{}");
  } catch {
    return { failure: invalid("无效的请求体：必须是 JSON 对象") };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    return { failure: invalid("无效的请求体：必须是 JSON 对象") };
  const body = parsed as Record<string, unknown>;
  const failure = checkRelayFields(body, mode);
  return failure ? { failure } : { body };
}

/** The field checks alone, for bodies that do not arrive as raw JSON (the playground's). */
export function checkRelayFields(body: Record<string, unknown>, mode: RelayMode): RelayFailure | undefined {
  const fields = (mode === "images" ? imageFields : relayFields).safeParse(body);
  if (!fields.success) {
    const issue = fields.error.issues[0];
    return invalid("无效的参数", issue?.path.join(".") || undefined);
  }
  return undefined;
}
