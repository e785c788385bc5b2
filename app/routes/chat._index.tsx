import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChatFrame, chatFrameMeta } from "~/components/chat/ChatFrame";
import { NO_TOKEN_REDIRECT } from "~/domain/chats/chat-links";
import { chatPageData, loadChatFrame } from "~/web/chat-frame.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  chatFrameMeta(matches, data, NO_TOKEN_REDIRECT.seconds);

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/** `/chat`: ChatLink, else the first Chats preset, in a frame with the user's first usable key. */
export async function loader({ request }: LoaderFunctionArgs) {
  return chatPageData(await loadChatFrame(request, undefined));
}

export default function ChatPage() {
  return <ChatFrame {...useLoaderData<typeof loader>()} />;
}
