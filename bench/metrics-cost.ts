import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import type { ObservedResponse } from "../app/utils/observed-response.server";
import { noteAdmittedModel, noteCharge, noteServingChannel, observeRelayCall } from "../app/relay/observe-call.server";
import { metricsRegistry } from "../app/utils/metrics.server";

/**
 * What the Prometheus metrics add to one relayed call, in CPU: the relay's own hooks
 * (observeRelayCall with its close handler, the admission and settlement notes) run for N
 * simulated calls against a response object that does nothing, beside the same loop without
 * them. What a real response pays for being observed is not seen here (compare.ts measures it).
 * A scrape's cost is apart (printed once, for 30 series per model).
 *
 *   npm run bench:metrics
 */
const N = Number(process.env.BENCH_CALLS ?? 200_000);

function fakeResponse(): ObservedResponse {
  const res = new EventEmitter() as unknown as ObservedResponse;
  res.statusCode = 200;
  res.headAt = 0;
  res.eventStream = false;
  res.writeHead = function (this: ObservedResponse) {
    this.headAt = performance.now();
    return this;
  } as unknown as ObservedResponse["writeHead"];
  return res;
}

function loop(withMetrics: boolean): number {
  const req = {} as IncomingMessage;
  const started = process.cpuUsage();
  for (let i = 0; i < N; i += 1) {
    const res = fakeResponse();
    const id = `req${i}`;
    if (withMetrics) {
      observeRelayCall(req, res, id, "/v1/chat/completions");
      noteAdmittedModel(id, `gpt-4o-mini`);
      noteServingChannel(id, 1 + (i % 4));
      noteCharge(150, 12, 30);
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.emit("close");
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / N;
}

// Warm both paths, then measure each twice, alternated.
loop(false);
loop(true);
const runs = [loop(false), loop(true), loop(false), loop(true)];
const bare = (runs[0]! + runs[2]!) / 2;
const metered = (runs[1]! + runs[3]!) / 2;
const scrapeStarted = process.hrtime.bigint();
const text = await metricsRegistry.metrics();
const scrapeMs = Number(process.hrtime.bigint() - scrapeStarted) / 1e6;
console.log(`metrics on the relay's hot path, ${N} simulated calls per run:`);
console.log(
  `  without: ${(bare * 1000).toFixed(2)} µs/call, with: ${(metered * 1000).toFixed(2)} µs/call -> added ${((metered - bare) * 1000).toFixed(2)} µs (${(metered - bare).toFixed(4)} ms) of CPU per call`,
);
console.log(
  `  one scrape: ${scrapeMs.toFixed(1)} ms for ${text.split("\n").filter((l) => l && !l.startsWith("#")).length} samples`,
);
