import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (served by /metrics with METRICS_TOKEN). Label values are
 * bounded: a model is named only once it was admitted (routed to a channel of the caller's group,
 * so a client inventing names cannot grow the series), a channel by its id, a surface by a
 * fixed list (relaySurfaceOf).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
// Under WEB_CONCURRENCY each web process answers the primary's collection with this registry
// (prom-client starts answering once an AggregatorRegistry exists in the process).
if (cluster.isWorker) {
  AggregatorRegistry.setRegistries([metricsRegistry]);
  new AggregatorRegistry();
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export const relayRequests = new Counter({
  name: "switchyard_relay_requests_total",
  help: "Relay requests answered, by surface, model (once admitted), channel (once one served or failed it) and status code",
  labelNames: ["surface", "model", "channel", "code"] as const,
  registers: [metricsRegistry],
});
/** A latency histogram of relay calls by surface and whether they streamed. */
const relayLatency = (name: string, help: string) =>
  new Histogram({
    name,
    help,
    labelNames: ["surface", "stream"] as const,
    buckets: SECONDS_BUCKETS,
    registers: [metricsRegistry],
  });
export const relayDuration = relayLatency(
  "switchyard_relay_duration_seconds",
  "Relay requests from arrival to the reply's last byte",
);
export const relayTtfb = relayLatency(
  "switchyard_relay_ttfb_seconds",
  "Relay requests from arrival to the reply's status line (a stream's first event follows at once)",
);
export const quotaConsumed = new Counter({
  name: "switchyard_quota_consumed_total",
  help: "Quota charged for relayed calls (500000 = 1 USD)",
  registers: [metricsRegistry],
});
export const tokensBilled = new Counter({
  name: "switchyard_tokens_total",
  help: "Tokens billed, by direction (prompt, completion)",
  labelNames: ["direction"] as const,
  registers: [metricsRegistry],
});
export const upstreamErrors = new Counter({
  name: "switchyard_upstream_errors_total",
  help: "Failed upstream attempts, by channel",
  labelNames: ["channel"] as const,
  registers: [metricsRegistry],
});
export const limitRefusals = new Counter({
  name: "switchyard_limit_refusals_total",
  help: "Calls refused by a limit (token_rpm, token_tpm, user_requests, user_success), and channels passed over because every key was at its cap (channel_keys)",
  labelNames: ["limit"] as const,
  registers: [metricsRegistry],
});
// Every limit's series exists from the start (at 0), so a dashboard and rate() see it before the first refusal.
for (const limit of ["token_rpm", "token_tpm", "user_requests", "user_success", "channel_keys"])
  limitRefusals.inc({ limit }, 0);

/** A gauge read when scraped (journal backlog, leases held): the module that knows the value registers how to read it. */
export function gaugeReadAtScrape(name: string, help: string, read: () => number): void {
  if (metricsRegistry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      this.set(read());
    },
  });
}

/** The message a web process sends its primary for the metrics of every process, and the answer. */
export const CLUSTER_METRICS_MESSAGE = "switchyard:metrics";
const PRIMARY_ANSWER_MS = 5_000;
type MetricsAnswer = { type: typeof CLUSTER_METRICS_MESSAGE; id: string; text?: string; error?: string };

/**
 * The exposition text: this process's metrics, or under WEB_CONCURRENCY every web process's
 * summed by the primary (a scrape reaches one process, the deployment is all of them). A primary
 * that does not answer within 5 s is reported and this process's own metrics are served.
 */
export async function scrapeMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return metricsRegistry.metrics();
  const id = randomUUID();
  const answer = await new Promise<MetricsAnswer | undefined>((resolve) => {
    const onMessage = (message: MetricsAnswer) => {
      if (message?.type !== CLUSTER_METRICS_MESSAGE || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      resolve(message);
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      resolve(undefined);
    }, PRIMARY_ANSWER_MS);
    process.on("message", onMessage);
    process.send!({ type: CLUSTER_METRICS_MESSAGE, id });
  });
  if (answer?.text !== undefined) return answer.text;
  console.error(
    `[metrics] the primary did not sum the web processes' metrics (${answer?.error ?? "no answer in 5 s"}): serving this process's own`,
  );
  return metricsRegistry.metrics();
}

export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;
