import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { discardBody } from "../app/utils/discard-body.server";
import { ObservedResponse } from "../app/utils/observed-response.server";
import { checkRequestTarget } from "../app/utils/edge-input";
import { entryOf, type EntryExports } from "./entry";

export { entryOf, type EntryExports } from "./entry";

/**
 * The one HTTP server: relay prefixes go straight to plain Node handlers (the Fetch-API
 * conversion in the Remix pipeline costs ~6x throughput on the relay, docs/architecture.md); everything
 * else goes through express to Remix, as remix-serve does.
 */
export function createAppServer(options: {
  getBuild: () => Promise<ServerBuild>;
  /** The entry; production passes it as loaded, development a promise per request (fresh modules). */
  getEntry: () => EntryExports | Promise<EntryExports>;
  mountStatic?: (app: express.Express) => void;
  mode: string;
}): Server {
  const app = express();
  app.disable("x-powered-by");
  // Streams must reach the client as they are written: never compress text/event-stream.
  app.use(
    compression({
      filter: (req, res) =>
        !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res),
    }),
  );
  options.mountStatic?.(app);
  // Loaders and actions answer a database outage with a 503, not Remix's 500 (app/web/database-outage.server.ts),
  // and send their messages in the reader's language (app/web/reader-language.server.ts).
  const getBuild = async () => {
    const build = await options.getBuild();
    const entry = entryOf(build);
    return entry.answerInReadersLanguage(entry.answerDatabaseOutages(build));
  };
  app.all("*", createRequestHandler({ build: getBuild, mode: options.mode }));

  const dispatch = (entry: EntryExports, req: IncomingMessage, res: ObservedResponse) => {
    if (entry.isRelayPath(req.url ?? "/")) {
      entry.handleRelay(req, res).catch((error: unknown) => {
        console.error("[relay] unhandled error", error);
        // Still the OpenAI error shape, so clients show a message instead of "no body".
        if (!res.headersSent) {
          res.writeHead(500, { "Content-Type": "application/json" });
          res.end(
            JSON.stringify({
              error: {
                message: "网关内部错误，请稍后重试",
                type: "new_api_error",
                param: null,
                code: "internal_error",
              },
            }),
          );
        } else res.end();
      });
      return;
    }
    // One check at the edge for every console and /api request: a path with broken %-escapes or
    // NUL anywhere in path or query means nothing to any route, and NUL would fail in the database.
    const refusal = checkRequestTarget(req.url ?? "/");
    if (refusal) return refuse(req, res, 400, refusal);
    // A declared oversize /api body is answered before anyone reads it (readJson still caps
    // chunked bodies, which declare no length).
    if ((req.url ?? "").startsWith("/api/") && Number(req.headers["content-length"] ?? 0) > entry.apiBodyLimit())
      return refuse(req, res, 413, "请求体过大");
    // A route that answers without reading its body (the /api 404, a button-only action) would
    // leave the client stuck sending it: once the answer is out, the rest is read and dropped.
    res.once("finish", () => {
      if (!req.complete) discardBody(req);
    });
    // Console and cookie-carried /api mutations from another site: 403 before Remix (app/utils/cross-site.server.ts).
    if (entry.refuseCrossSiteMutation(req, res)) return;
    // The app learns the peer address from this header; a client-sent copy is never trusted.
    req.headers["x-switchyard-remote-addr"] = req.socket.remoteAddress ?? "unknown";
    // Charges are written behind relay replies; a page or /api read waits for those already
    // delivered by this process, so a balance or log read right after a call includes it.
    void entry.billingWritten().then(() => app(req, res));
  };
  // Responses note their head's time and type themselves, for the relay's metrics.
  const server = createServer({ ServerResponse: ObservedResponse }, (req, res) => {
    // Relay calls are dispatched in the turn they arrive in (no promise hop when the entry is loaded).
    const entry = options.getEntry();
    if (entry instanceof Promise) void entry.then((loaded) => dispatch(loaded, req, res));
    else dispatch(entry, req, res);
  });
  // WebSocket upgrades: the relay's Realtime surface (GET /v1/realtime); nothing else upgrades.
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => undefined);
    if (!(req.url ?? "").startsWith("/v1/")) {
      socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    void Promise.resolve(options.getEntry())
      .then((entry) => entry.handleRealtimeUpgrade(req, socket, head))
      .catch((error: unknown) => {
        console.error("[relay] realtime upgrade failed", error);
        socket.destroy();
      });
  });
  return server;
}

/**
 * A refusal in the surface's shape (the /api envelope, or a plain page for the console). The
 * request body is read and discarded rather than left unread: closing a socket the client is
 * still writing to makes the kernel answer with a reset, and the client never sees the answer.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const api = (req.url ?? "").startsWith("/api/");
  const body = api ? JSON.stringify({ success: false, message }) : message;
  discardBody(req);
  res.writeHead(status, {
    "Content-Type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish (bounded), then close DB and Redis. */
export function installGracefulShutdown(server: Server, shutdownApp: () => Promise<void>, graceMs = 10_000): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`[server] ${signal}: finishing in-flight requests`);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      void shutdownApp()
        .catch((error: unknown) => console.error("[server] shutdown error", error))
        .finally(() => process.exit(0));
    });
    // Kept-alive sockets that finish their last response during the grace period are closed
    // as soon as they go idle, instead of waiting out the keep-alive timeout.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 200).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
