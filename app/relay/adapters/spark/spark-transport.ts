import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import WebSocket from "ws";
import { ForbiddenUpstreamAddressError, guardedLookup, isForbiddenUpstreamIp } from "~/utils/upstream-address";
import { readAll, UpstreamAbortError } from "../../upstream-client.server";
import { replyOf } from "../shared/transport";
import type { TransportInit, UpstreamReply, UpstreamRequest } from "../types";
import { asRecord, parseJson } from "../shared/openai-shapes";
import { SPARK_LAST_FRAME, sparkErrorOf, sparkStatusOf } from "./spark-errors";

const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** How the frames of a reply are written: SSE `data:` lines for a stream, one JSON array for a whole reply. */
export type SparkFraming = "sse" | "json";

/**
 * One Spark call over a WebSocket, read like an HTTP reply: the request frame is sent on open;
 * the first reply frame decides the status (200, or the status its error code means); each frame
 * then goes on (an SSE `data:` line, or an element of a JSON array), and the reply ends with the
 * frame whose status is 2 (a socket closed before it breaks the reply off, as a dropped HTTP body
 * would). A refused handshake (401/403 for a bad signature) is the reply, body and all. The connect is
 * bounded by the connect timeout; the call's signal closes the socket at any point. Host names
 * resolve through the SSRF guard like every other upstream call.
 */
export function sendOverSparkSocket(
  request: UpstreamRequest,
  init: TransportInit,
  framing: SparkFraming = "sse",
): Promise<UpstreamReply> {
  return new Promise((resolve, reject) => {
    const hostname = new URL(request.url).hostname.replace(/^\[|\]$/g, "");
    if (isForbiddenUpstreamIp(hostname)) {
      reject(new ForbiddenUpstreamAddressError(hostname));
      return;
    }
    if (init.signal.aborted) {
      reject(new UpstreamAbortError("upstream call aborted"));
      return;
    }
    let settled = false;
    let body: PassThrough | undefined;
    let frames = 0;
    let complete = false;
    const finishBody = () => {
      if (!body || body.writableEnded || body.destroyed) return;
      body.end(framing === "json" ? "]" : undefined);
    };
    const socket = new WebSocket(request.url, {
      handshakeTimeout: init.connectTimeoutMs,
      lookup: guardedLookup,
      perMessageDeflate: false,
      maxPayload: MAX_FRAME_BYTES,
      followRedirects: false,
    });
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const onAbort = () => {
      socket.terminate();
      const error = new UpstreamAbortError("upstream call aborted");
      if (body) body.destroy(error);
      else settle(() => reject(error));
    };
    init.signal.addEventListener("abort", onAbort, { once: true });
    const done = () => init.signal.removeEventListener("abort", onAbort);

    socket.on("unexpected-response", (_req, res: IncomingMessage) => {
      void readAll(res).then(
        (text) => {
          settle(() => resolve(replyOf(res.statusCode ?? 502, text, res.headers)));
          done();
          socket.terminate();
        },
        (error: Error) => settle(() => reject(error)),
      );
    });
    socket.on("open", () =>
      socket.send(typeof request.body === "string" ? request.body : request.body.toString("utf8")),
    );
    socket.on("message", (data: WebSocket.RawData) => {
      if (complete || (settled && !body)) return;
      const text = Buffer.isBuffer(data)
        ? data.toString("utf8")
        : Array.isArray(data)
          ? Buffer.concat(data).toString("utf8")
          : Buffer.from(data).toString("utf8");
      const frame = asRecord(parseJson(text));
      const failure = sparkErrorOf(frame);
      if (!body) {
        if (failure) {
          complete = true;
          settle(() => resolve(replyOf(sparkStatusOf(Number(failure.code)), JSON.stringify(frame))));
          done();
          socket.close();
          return;
        }
        body = new PassThrough();
        const reply = body as unknown as UpstreamReply;
        reply.statusCode = 200;
        reply.headers = { "content-type": framing === "json" ? "application/json" : "text/event-stream" };
        if (framing === "json") body.write("[");
        settle(() => resolve(reply));
      }
      // Re-encoded so the frame is one line whatever whitespace it came with.
      if (framing === "json") body.write(`${frames > 0 ? "," : ""}${JSON.stringify(frame)}`);
      else body.write(`data: ${JSON.stringify(frame)}\n\n`);
      frames += 1;
      if (failure || asRecord(frame.header).status === SPARK_LAST_FRAME) {
        complete = true;
        finishBody();
        done();
        socket.close();
      }
    });
    socket.on("error", (error) => {
      done();
      if (body) body.destroy(error);
      else settle(() => reject(error));
    });
    socket.on("close", () => {
      done();
      if (body && complete) finishBody();
      else if (body && !body.destroyed) body.destroy(new Error("讯飞星火在回复结束前关闭了连接"));
      else settle(() => reject(new Error("讯飞星火在回复前关闭了连接")));
    });
  });
}
