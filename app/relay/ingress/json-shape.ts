/** Reading a client's native JSON without trusting its shape: every field may hold anything. */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The first present of a field's spellings (Gemini's REST parser takes camelCase and snake_case). */
export function field(object: Json, ...names: string[]): unknown {
  for (const name of names) if (object[name] !== undefined) return object[name];
  return undefined;
}

/** Sets `key` only when the value is defined. */
export function put(target: Json, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value;
}

/** An SSE frame with an event name (Anthropic, Responses) or without one (Gemini). */
export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return event ? `event: ${event}\ndata: ${text}\n\n` : `data: ${text}\n\n`;
}

/** A tool call's JSON arguments as an object (Anthropic `input`, Gemini `args`); unparsable → {}. */
export function parseArguments(text: unknown): Json {
  if (typeof text !== "string" || !text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}
