import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChatFrame, chatFrameMeta } from "~/components/chat/ChatFrame";
import { NO_TOKEN_REDIRECT } from "~/domain/chats/chat-links";
import { readId } from "~/utils/edge-input";
import { chatPageData, loadChatFrame } from "~/web/chat-frame.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  chatFrameMeta(matches, data, NO_TOKEN_REDIRECT.seconds);

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/** `/chat/{id}`: the id-th Chats preset (0-based, as the reference's menu numbers them). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = params.id === "0" ? 0 : readId(params.id);
  if (id === undefined) throw new Response("Not Found", { status: 404 });
  return chatPageData(await loadChatFrame(request, id));
}

export default function ChatPresetPage() {
  return <ChatFrame {...useLoaderData<typeof loader>()} />;
}
