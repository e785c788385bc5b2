import { env } from "./env.server";

/** The caller's IP: the socket address the server entry passes along, or X-Forwarded-For behind a trusted proxy. */
export function clientIp(request: Request): string {
  if (env.TRUST_PROXY) {
    const forwarded = request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get("X-Switchyard-Remote-Addr") ?? "unknown";
}

/**
 * Did the browser reach us over HTTPS? The scheme of the request as received, or the proxy's
 * X-Forwarded-Proto when TRUST_PROXY says a proxy of ours is in front (a client could send it too).
 */
export function requestIsHttps(request: Request): boolean {
  if (env.TRUST_PROXY) {
    const forwarded = request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === "https";
  }
  return new URL(request.url).protocol === "https:";
}
