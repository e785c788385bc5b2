import type { HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";

/**
 * What the server log gets when Remix reports an error while answering a request (the entry's
 * `handleError`).
 *
 * Remix's own default prints every one with its stack, including the 4xx it raises itself for a
 * client's mistake (a POST to a route without an action, OPTIONS on a page): ~800 bytes a
 * request, so a scanner or fuzzer filled the disk. Those are answered with their status and
 * logged not at all: nothing on our side went wrong, and the status is in any access log.
 * Everything else (a 5xx, anything thrown that is not a route error response) is a fault of
 * ours and keeps its stack.
 */
export const logRequestError: HandleErrorFunction = (error, { request }) => {
  // The client went away mid-request: the abort is not an error of ours (as Remix's default).
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error)) {
    if (error.status < 500) return;
    // Remix keeps the original error (with its stack) inside its 5xx responses.
    const cause = (error as { error?: unknown }).error;
    console.error(cause ?? error);
    return;
  }
  console.error(error);
};
