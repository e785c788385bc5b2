/**
 * Chat-client links: `{key}` becomes the token's key (sk-…, URL-safe as is) and `{address}` the
 * server address, URL-encoded since templates put it in a query string.
 */
export function fillChatLink(template: string, key: string, address: string): string {
  return template.replaceAll("{key}", key).replaceAll("{address}", encodeURIComponent(address));
}

export type ChatPreset = { name: string; template: string };

/** The Chats option is an array of single-entry objects `{name: template}`. */
export function readChatPresets(value: unknown): ChatPreset[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) =>
    entry && typeof entry === "object" ? Object.entries(entry as Record<string, unknown>).filter(([, t]) => typeof t === "string").map(([name, t]) => ({ name, template: t as string })) : [],
  );
}
