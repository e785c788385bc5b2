import { inCallersLanguage } from "../errors.server";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { findMjTask } from "~/domain/tasks/midjourney.server";
import { options } from "~/domain/options/store.server";
import { guardedLookup, isForbiddenUpstreamIp } from "~/utils/upstream-address";
import { sendJson } from "../http.server";

/**
 * `GET /mj/image/:id` (MjForwardUrlEnabled): streams a task's image from wherever the proxy said
 * it is. That address comes from an upstream, so it is fetched like any user-supplied URL: through
 * the SSRF guard (no link-local or metadata address, whether written or resolved; no redirect
 * followed), with a deadline and a size cap. The reference fetched it unchecked.
 */
const IMAGE_TIMEOUT_MS = 30_000;
const IMAGE_MAX_BYTES = 32 * 1024 * 1024;

function notFound(res: ServerResponse, message: string): void {
  sendJson(res, 404, { error: { message: inCallersLanguage(res, message), type: "new_api_error", code: "not_found" } });
}

export async function serveMjImage(res: ServerResponse, mjId: string): Promise<void> {
  if (!options.bool("MjForwardUrlEnabled")) return notFound(res, "图片转发未开启");
  const row = mjId ? await findMjTask(mjId.slice(0, 100)) : undefined;
  if (!row?.image_url) return notFound(res, "图片不存在");
  let target: URL;
  try {
    target = new URL(row.image_url);
  } catch {
    return notFound(res, "图片地址无效");
  }
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  if ((target.protocol !== "http:" && target.protocol !== "https:") || isForbiddenUpstreamIp(hostname))
    return sendJson(res, 502, {
      error: { message: "图片地址不被允许", type: "new_api_error", code: "forbidden_upstream" },
    });
  await new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve();
    };
    const failWith = (message: string) => {
      upstream.destroy();
      if (!res.headersSent)
        sendJson(res, 502, { error: { message, type: "new_api_error", code: "image_fetch_failed" } });
      else res.destroy();
      finish();
    };
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const upstream = send(
      {
        hostname,
        port: Number(target.port) || (target.protocol === "https:" ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method: "GET",
        lookup: guardedLookup,
        agent: false,
      },
      (reply: IncomingMessage) => {
        if (reply.statusCode !== 200) {
          reply.resume();
          return failWith(`图片上游返回 HTTP ${reply.statusCode ?? 0}`);
        }
        const declared = Number(reply.headers["content-length"] ?? 0);
        if (declared > IMAGE_MAX_BYTES) return failWith("图片过大");
        res.writeHead(200, {
          "Content-Type": String(reply.headers["content-type"] ?? "application/octet-stream"),
          ...(declared ? { "Content-Length": String(declared) } : undefined),
          "Cache-Control": "public, max-age=86400",
        });
        let size = 0;
        reply.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > IMAGE_MAX_BYTES) return failWith("图片过大");
          res.write(chunk);
        });
        reply.on("end", () => {
          res.end();
          finish();
        });
        reply.on("error", () => failWith("图片读取失败"));
      },
    );
    const timer = setTimeout(() => failWith("图片请求超时"), IMAGE_TIMEOUT_MS);
    upstream.on("error", (error) => failWith(`图片请求失败：${error.message}`));
    res.on("close", () => {
      if (!done) {
        upstream.destroy();
        finish();
      }
    });
    upstream.end();
  });
}
