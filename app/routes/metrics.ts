import { createHash, timingSafeEqual } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "~/utils/env.server";
import { METRICS_CONTENT_TYPE, scrapeMetrics } from "~/utils/metrics.server";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Prometheus exposition. Off (404) unless METRICS_TOKEN is set; then only a scrape presenting it
 * as `Authorization: Bearer …` is answered (the comparison takes the same time whatever it gets).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!env.METRICS_TOKEN)
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const presented = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!timingSafeEqual(digest(presented), digest(env.METRICS_TOKEN))) {
    return new Response("Unauthorized", {
      status: 401,
      headers: { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  return new Response(await scrapeMetrics(), {
    headers: { "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store" },
  });
}
