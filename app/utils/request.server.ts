import { env } from "./env.server";

/** The caller's IP: the socket address the server entry passes along, or X-Forwarded-For behind a trusted proxy. */
export function clientIp(request: Request): string {
  if (env.TRUST_PROXY) {
    const forwarded = request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get("X-Switchyard-Remote-Addr") ?? "unknown";
}
