/**
 * Chat-client links: `{key}` becomes the token's key (sk-…, URL-safe as is) and `{address}` the
 * server address, URL-encoded since templates put it in a query string.
 */
export function fillChatLink(template: string, key: string, address: string): string {
  return template.replaceAll("{key}", key).replaceAll("{address}", encodeURIComponent(address));
}

/** Where a chat page without a usable token goes, and after how long (docs/product.md, Playground and chat frame: 1.5 s). */
export const NO_TOKEN_REDIRECT = { to: "/token", seconds: 1.5 };

export type ChatPreset = { name: string; template: string };

/** The Chats option is an array of single-entry objects `{name: template}`. */
export function readChatPresets(value: unknown): ChatPreset[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) =>
    entry && typeof entry === "object"
      ? Object.entries(entry as Record<string, unknown>)
          .filter(([, t]) => typeof t === "string")
          .map(([name, t]) => ({ name, template: t as string }))
      : [],
  );
}

/**
 * The template a chat page opens. `/chat/{id}` is the id-th preset of Chats; `/chat` (no id) and
 * `/chat2link` are ChatLink and ChatLink2, which the reference treats as the base address of a
 * NextChat deployment — a link without a `{key}` marker gets NextChat's settings fragment; one
 * with markers is filled as it is. `/chat` falls back to the first preset when ChatLink is unset.
 */
export type ChatTemplateLookup =
  { ok: true; preset: ChatPreset } | { ok: false; reason: "invalid" | "missing" | "not-found" };

export function chatLinkTemplate(link: string): string {
  if (link.includes("{key}")) return link;
  return `${link.replace(/\/+$/, "")}/#/?settings={"key":"{key}","url":"{address}"}`;
}

/** Chats must be an array of `{name: template}` objects; anything else is the operator's mistake. */
export function chatPresetsValid(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (entry) =>
        entry &&
        typeof entry === "object" &&
        !Array.isArray(entry) &&
        Object.values(entry as object).every((t) => typeof t === "string"),
    )
  );
}

export function lookupChatTemplate(chats: unknown, chatLink: string, id: number | undefined): ChatTemplateLookup {
  if (id === undefined && chatLink.trim())
    return { ok: true, preset: { name: "聊天", template: chatLinkTemplate(chatLink.trim()) } };
  if (!chatPresetsValid(chats)) return { ok: false, reason: "invalid" };
  const presets = readChatPresets(chats);
  if (presets.length === 0) return { ok: false, reason: "missing" };
  const preset = presets[id ?? 0];
  return preset ? { ok: true, preset } : { ok: false, reason: "not-found" };
}

/**
 * How a filled link may be opened: http(s) pages in the frame, an app's own scheme (ama://,
 * opencat://) only as a link, and script-bearing schemes never — an operator's typo must not run
 * script on the console's origin.
 */
export type ChatLinkKind = "frame" | "app" | "refused";

const SCRIPT_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "blob:", "file:", "about:"]);

export function chatLinkKind(url: string): ChatLinkKind {
  let scheme: string;
  try {
    scheme = new URL(url).protocol.toLowerCase();
  } catch {
    return "refused";
  }
  if (scheme === "http:" || scheme === "https:") return "frame";
  return SCRIPT_SCHEMES.has(scheme) ? "refused" : "app";
}

/**
 * Whether a Chats template may be stored: filled as a real token's would be, it is a link
 * chatLinkKind lets open. Refusing at save what every page refuses anyway tells the operator
 * at once, rather than a user later.
 */
export function chatTemplateAllowed(template: string): boolean {
  return chatLinkKind(fillChatLink(template, "sk-placeholder", "http://localhost:3000")) !== "refused";
}
