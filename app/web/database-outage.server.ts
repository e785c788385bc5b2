import type { ServerBuild } from "@remix-run/node";
import { messages } from "~/messages";
import { isDatabaseUnavailable } from "~/utils/db-errors";
import { wrapRouteHandlers } from "./route-handlers.server";

/**
 * While the database is unreachable or refusing connections, every route answers 503 "try
 * again" in its surface's shape instead of Remix's 500: /api in its envelope, console pages
 * through the root error boundary (with the shell when the root loader still had its data),
 * other resource routes as plain text. The outage is logged once per burst, not once per request.
 */

/** Seconds a client is told to wait before trying again: a restart or failover takes a few. */
export const RETRY_AFTER_SECONDS = "5";
const RETRY_HEADERS = { "Retry-After": RETRY_AFTER_SECONDS, "Cache-Control": "no-store" };

let lastReport = 0;
let unreportedSince = 0;

export function reportDatabaseUnavailable(surface: string, error: unknown): void {
  unreportedSince += 1;
  if (Date.now() - lastReport < 5_000) return;
  lastReport = Date.now();
  const message = error instanceof Error ? error.message : String(error);
  console.error(`[${surface}] database unavailable, ${unreportedSince} request(s) answered 503: ${message}`);
  unreportedSince = 0;
}

/** The /api answer while the database is away, in the envelope. */
export function apiOutageResponse(): Response {
  return Response.json(
    { success: false, message: messages.databaseUnavailable },
    { status: 503, headers: RETRY_HEADERS },
  );
}

/** The 503 for a request that needed the database while it was away. */
export function databaseOutageResponse(request: Request): Response {
  if (new URL(request.url).pathname.startsWith("/api/")) return apiOutageResponse();
  // Thrown from a page's loader or action, its text is the error boundary's title (Remix keeps
  // only cookies of a thrown response's headers on a page: entry.server adds Retry-After).
  return new Response(messages.databaseUnavailablePage, {
    status: 503,
    headers: { ...RETRY_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
  });
}

function answeringOutages<A extends { request: Request }, R>(handler: (args: A) => R): (args: A) => Promise<R> {
  return async (args) => {
    try {
      // Awaited here, so that a rejection is caught too (the result is Remix's to unwrap).
      return (await handler(args)) as R;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      reportDatabaseUnavailable("page", error);
      throw databaseOutageResponse(args.request);
    }
  };
}

const answered = new WeakMap<ServerBuild, ServerBuild>();

/** The build with every loader and action answering a database outage as above. */
export function answerDatabaseOutages(build: ServerBuild): ServerBuild {
  return wrapRouteHandlers(build, answered, (handler) => answeringOutages(handler));
}
