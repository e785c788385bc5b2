import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { ForbiddenUpstreamAddressError, guardedLookup, isForbiddenUpstreamIp } from "./upstream-address";

/**
 * One small HTTP call to a server the operator (or a provider) named: sign-in providers, the
 * WeChat login server. The same SSRF rules as channel upstreams (upstream-address.ts): a link-local
 * or cloud-metadata address is refused, whether written in the URL or resolved from a name; no
 * redirect is followed (a 3xx is returned as it is), so no hop escapes the check; the whole call has
 * a deadline and the reply a size cap. Loopback stays allowed, so local mocks and a wechat-server
 * on the same host work.
 */
export type GuardedResponse = { status: number; headers: IncomingHttpHeaders; body: string };

export type GuardedInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Whole call: connect, send, the complete reply. */
  timeoutMs: number;
  /** Longest reply body read; a longer one fails the call. */
  maxBytes?: number;
};

export class GuardedHttpError extends Error {}

export function guardedHttp(url: string, init: GuardedInit): Promise<GuardedResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new GuardedHttpError(`无效的地址：${url}`));
  }
  if (target.protocol !== "http:" && target.protocol !== "https:")
    return Promise.reject(new GuardedHttpError(`不支持的协议：${target.protocol}`));
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  // An IP written in the URL gets no lookup, so the lookup's check would never see it.
  if (isForbiddenUpstreamIp(hostname)) return Promise.reject(new ForbiddenUpstreamAddressError(hostname));
  const maxBytes = init.maxBytes ?? 1024 * 1024;
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // Settled once: a destroyed request may still emit `end` or `error` afterwards.
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(init.body));
    const req = send(
      {
        hostname,
        port: Number(target.port) || (target.protocol === "https:" ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method: init.method ?? "GET",
        headers,
        lookup: guardedLookup,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBytes) return fail(new GuardedHttpError(`回复过大（超过 ${maxBytes} 字节）`));
          chunks.push(chunk);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", fail);
      },
    );
    const timer = setTimeout(() => fail(new GuardedHttpError(`请求超时（${init.timeoutMs} ms）`)), init.timeoutMs);
    req.on("error", fail);
    req.end(init.body);
  });
}
