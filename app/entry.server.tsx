import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { dropRenderPadding } from "./web/html-stream.server";
import { answerDatabaseOutages, RETRY_AFTER_SECONDS } from "./web/database-outage.server";
import { closeDatabase, openDatabase } from "./utils/db.server";
export { isFreshEmbeddedDatabase, prepareDatabase } from "./utils/db.server";
import { env } from "./utils/env.server";
import { closeRedis, connectRedis, isRedisEnabled } from "./utils/redis.server";
import { startTracing, stopTracing } from "./utils/tracing.server";
import { holdNodeLock, releaseNodeLock } from "./relay/billing/node-liveness.server";
import { recoverStoppedNodes } from "./relay/billing/crash-recovery.server";
import { loadOptions } from "./domain/options/store.server";
import { ensureRootUser } from "./domain/users/users.server";
import { billingWritten, closeBilling } from "./relay/billing/quota.server";
import { startInProcessJobs, stopInProcessJobs } from "../jobs/in-process";

// The server entry (server/index.ts) reaches the relay and the lifecycle hooks through this
// module, so console and relay share one module graph: one pool, one cache, one options store.
export { handleRelay, isRelayPath } from "./relay/handler.server";
export { handleRealtimeUpgrade } from "./relay/ingress/realtime/realtime.server";
export { refuseCrossSiteMutation } from "./utils/cross-site.server";
/** `npm run worker` starts (or finds running) the BullMQ worker; BullMQ is loaded only with Redis. */
export async function startBullWorker() {
  return (await import("../jobs/bullmq")).startBullWorker();
}
export { billingWritten, answerDatabaseOutages };
export { answerInReadersLanguage } from "./web/reader-language.server";
export { startBoot } from "./utils/boot-gate.server";

/** The steps of the boot sequence, which the composition root (server/boot.ts) runs in its order. */
export const bootSteps = {
  env,
  connectRedis,
  startTracing,
  openDatabase,
  loadOptions,
  holdNodeLock,
  recoverStoppedNodes,
  ensureRootUser,
  isRedisEnabled,
  startInProcessJobs,
  startBullWorker,
};
// Client mistakes (405, 404) are not logged; faults of ours are, with their stack.
export { logRequestError as handleError } from "./web/request-error-log.server";

/** The /api body limit, for the server entry to refuse a declared oversize body before Remix reads it. */
export const apiBodyLimit = (): number => env.MAX_JSON_BODY_BYTES;

export async function shutdownApp(): Promise<void> {
  stopInProcessJobs();
  // Only a node with Redis ever loaded BullMQ (an embedded node saves its ~7 MB of heap).
  const bull = isRedisEnabled() ? await import("../jobs/bullmq") : undefined;
  await bull?.stopBullWorker();
  // Before the database closes: journaled charges written, leases returned.
  await closeBilling().catch((error: unknown) =>
    console.error("[billing] closing failed (the journal is replayed at the next start):", error),
  );
  await bull?.closeBullProducer();
  await closeRedis();
  await releaseNodeLock();
  await closeDatabase();
  await stopTracing();
}

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = dropRenderPadding();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // A page answered 503 (the database away) tells the browser and any proxy when to try again.
          if (responseStatusCode === 503) responseHeaders.set("Retry-After", RETRY_AFTER_SECONDS);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
