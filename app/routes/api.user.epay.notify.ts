import type { LoaderFunctionArgs } from "@remix-run/node";
import { acceptEpayNotify } from "~/domain/payments/epay-notify.server";
import { whenBooted } from "~/utils/boot-gate.server";

function plain(body: "success" | "fail"): Response {
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * The gateway's payment notify: no session, the signature is the credential. The body is the
 * plain `success` / `fail` Epay reads; a failure of ours (database away) answers `fail`, so the
 * gateway retries later instead of the payment being lost.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    await whenBooted();
    const result = await acceptEpayNotify(new URL(request.url).searchParams);
    if (result.reply === "fail") console.warn(`[epay] notify refused: ${result.outcome}`);
    return plain(result.reply);
  } catch (error) {
    console.error("[epay] notify could not be handled:", (error as Error).message);
    return plain("fail");
  }
}
