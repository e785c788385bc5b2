import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { fillChatLink, readChatPresets } from "~/domain/chats/chat-links";
import { options } from "~/domain/options/store.server";
import { revealTokenKey } from "~/domain/tokens/tokens.server";
import { requireUser } from "~/web/guards.server";
import { requirePathId } from "~/utils/edge-input";

/**
 * Opens a configured chat client with one of the user's tokens. The key is filled in on the
 * server at click time, so the token list never has to carry full keys.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const preset = readChatPresets(options.json("Chats"))[Number(url.searchParams.get("chat"))];
  const key = await revealTokenKey(user.id, requirePathId(url.searchParams.get("id") ?? undefined));
  if (!preset || !key) throw new Response("Not Found", { status: 404 });
  const address = options.string("ServerAddress") || url.origin;
  return redirect(fillChatLink(preset.template, `sk-${key}`, address));
}
