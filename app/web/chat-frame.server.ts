import { data } from "@remix-run/node";
import { firstUsableTokenKey } from "~/domain/chats/chat-key.server";
import {
  chatLinkKind,
  chatLinkTemplate,
  fillChatLink,
  lookupChatTemplate,
  NO_TOKEN_REDIRECT,
  readChatPresets,
  type ChatTemplateLookup,
} from "~/domain/chats/chat-links";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { whenBooted } from "~/utils/boot-gate.server";
import { optionalUser } from "./guards.server";

/** What a chat page shows: the client with the key filled in, or why not. */
export type ChatFrameView =
  | { state: "open"; name: string; url: string; kind: "frame" | "app"; presets: { name: string; href: string }[] }
  | { state: "no-token"; message: string }
  | { state: "error"; message: string };

/**
 * The page carries a live key in its HTML: no cache may keep it, and neither the console's
 * address nor anything else travels to the chat site as a Referer (decision 022).
 */
export const CHAT_PAGE_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" } as const;

/** The server address chat clients are told to use: the operator's ServerAddress, else this request's origin (as /token's chat links). */
function chatServerAddress(request: Request): string {
  return options.string("ServerAddress") || new URL(request.url).origin;
}

function refusal(lookup: Exclude<ChatTemplateLookup, { ok: true }>): ChatFrameView | "not-found" {
  if (lookup.reason === "not-found") return "not-found";
  return { state: "error", message: lookup.reason === "invalid" ? messages.chatLinkInvalid : messages.chatLinkMissing };
}

/**
 * Opens `lookup`'s template with the visitor's first usable key. A visitor who is not signed in
 * has no key either: the product's route is unguarded and its token fetch simply finds none, so
 * both see the no-token message and move on to /token (which asks a visitor to sign in).
 */
async function openChat(request: Request, lookup: ChatTemplateLookup): Promise<ChatFrameView | "not-found"> {
  if (!lookup.ok) return refusal(lookup);
  const user = await optionalUser(request);
  const key = user ? await firstUsableTokenKey(user.id) : undefined;
  if (!key) return { state: "no-token", message: messages.chatNoToken };
  const url = fillChatLink(lookup.preset.template, key, chatServerAddress(request));
  const kind = chatLinkKind(url);
  if (kind === "refused") return { state: "error", message: messages.chatLinkInvalid };
  const presets = readChatPresets(options.json("Chats")).map((p, i) => ({ name: p.name, href: `/chat/${i}` }));
  return { state: "open", name: lookup.preset.name, url, kind, presets };
}

/** `/chat` (id undefined) and `/chat/{id}`. */
export async function loadChatFrame(request: Request, id: number | undefined): Promise<ChatFrameView | "not-found"> {
  await whenBooted();
  return openChat(request, lookupChatTemplate(options.json("Chats"), options.string("ChatLink"), id));
}

/** `/chat2link`: the operator's second chat link (ChatLink2), opened directly rather than framed. */
export async function loadChatLink2(request: Request): Promise<ChatFrameView | "not-found"> {
  await whenBooted();
  const link = options.string("ChatLink2").trim();
  const lookup: ChatTemplateLookup = link
    ? { ok: true, preset: { name: "聊天", template: chatLinkTemplate(link) } }
    : { ok: false, reason: "missing" };
  return openChat(request, lookup);
}

/** A chat page's loader reply: the view with the no-store/no-referrer headers, or a 404. */
export function chatPageData(view: ChatFrameView | "not-found") {
  if (view === "not-found") throw new Response(messages.notFound, { status: 404, headers: CHAT_PAGE_HEADERS });
  const body = view.state === "no-token" ? { ...view, redirectTo: NO_TOKEN_REDIRECT.to } : view;
  return data(body, { headers: CHAT_PAGE_HEADERS });
}
