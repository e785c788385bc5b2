import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ROLE_USER } from "~/domain/users/roles";
import { playgroundRelay, relayErrorBody } from "~/relay/playground.server";
import { webStreamSink, type ReplySink } from "~/relay/reply-sink";
import { ApiError, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

const body = z.object({ messages: z.array(z.record(z.string(), z.unknown())).min(1) }).passthrough();

/**
 * The playground's streaming endpoint: session + New-Api-User only (an access token is
 * refused, as in the reference), then the relay core streams straight into the response.
 */
export async function action({ request }: ActionFunctionArgs) {
  await whenBooted();
  try {
    if (!request.headers.get("Cookie") && request.headers.get("Authorization"))
      throw new ApiError("暂不支持使用 access token", 401);
    const user = await requireApiUser(request, ROLE_USER);
    const input = (await readJson(request, body)) as Record<string, unknown>;
    const { sink, response } = webStreamSink();
    const failure = playgroundRelay(user, input, goneWithRequest(sink, request.signal));
    const first = await Promise.race([response, failure]);
    if (first instanceof Response) return first;
    const failed = first ?? { status: 500, message: "empty reply", type: "new_api_error", code: null };
    return Response.json(relayErrorBody(failed), { status: failed.status });
  } catch (error) {
    if (error instanceof ApiError)
      return Response.json(
        { error: { message: error.message, type: "new_api_error", param: null, code: null } },
        { status: error.status === 200 ? 403 : error.status },
      );
    if (error instanceof Response) return error;
    throw error;
  }
}

/**
 * The page's 停止 (or a closed tab) ends the call as a client leaving ends one on /v1: the
 * upstream call is aborted and what was streamed is what is billed. Remix goes on reading the
 * reply stream after the socket closed, so the stream alone never learns that the client left;
 * the request's abort signal does.
 */
function goneWithRequest(sink: ReplySink, signal: AbortSignal): ReplySink {
  const listeners: (() => void)[] = [];
  let gone = false;
  const leave = () => {
    if (gone || !sink.open) return;
    gone = true;
    for (const listener of listeners) listener();
    // Nobody reads the rest: the stream is closed, so Remix's copy of it ends too.
    sink.end();
  };
  signal.addEventListener("abort", leave, { once: true });
  sink.onClientGone(leave);
  return {
    start: (status, headers) => sink.start(status, headers),
    write: (chunk) => sink.write(chunk),
    end: (chunk) => sink.end(chunk),
    get started() {
      return sink.started;
    },
    get open() {
      return sink.open && !gone;
    },
    onClientGone: (listener) => void listeners.push(listener),
  };
}
