import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ROLE_USER } from "~/domain/users/roles";
import { playgroundRelay, relayErrorBody } from "~/relay/playground.server";
import { webStreamSink } from "~/relay/reply-sink";
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
    if (!request.headers.get("Cookie") && request.headers.get("Authorization")) throw new ApiError("暂不支持使用 access token", 401);
    const user = await requireApiUser(request, ROLE_USER);
    const input = (await readJson(request, body)) as Record<string, unknown>;
    const { sink, response } = webStreamSink();
    const failure = playgroundRelay(user, input, sink);
    const first = await Promise.race([response, failure]);
    if (first instanceof Response) return first;
    const failed = first ?? { status: 500, message: "empty reply", type: "new_api_error", code: null };
    return Response.json(relayErrorBody(failed), { status: failed.status });
  } catch (error) {
    if (error instanceof ApiError) return Response.json({ error: { message: error.message, type: "new_api_error", param: null, code: null } }, { status: error.status === 200 ? 403 : error.status });
    if (error instanceof Response) return error;
    throw error;
  }
}
