import { redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChatFrame, chatFrameMeta } from "~/components/chat/ChatFrame";
import { NO_TOKEN_REDIRECT } from "~/domain/chats/chat-links";
import { CHAT_PAGE_HEADERS, chatPageData, loadChatLink2 } from "~/web/chat-frame.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  chatFrameMeta(matches, data, NO_TOKEN_REDIRECT.seconds);

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/**
 * `/chat2link`: straight on to ChatLink2 with the user's first usable key (the reference's
 * second chat entry). The key is only in the redirect's Location, never in this page's URL, and
 * the redirect sends no Referer onward.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const view = await loadChatLink2(request);
  if (view !== "not-found" && view.state === "open") throw redirect(view.url, { headers: CHAT_PAGE_HEADERS });
  return chatPageData(view);
}

export default function ChatLink2Page() {
  return <ChatFrame {...useLoaderData<typeof loader>()} />;
}
