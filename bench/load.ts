import { Agent, request } from "node:http";

/** A small closed-loop load generator: `connections` workers, each sending back-to-back requests for `seconds`. */
export type LoadResult = {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ttfbP50: number;
  errorSamples: string[];
};

export async function runLoad(
  url: string,
  init: { headers: Record<string, string>; body: string },
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  // The first few failures, so a benchmark that counts errors can also say what they were.
  const errorSamples: string[] = [];
  const noteError = (what: string) => {
    errors += 1;
    if (errorSamples.length < 5) errorSamples.push(what);
  };
  const deadline = Date.now() + seconds * 1000;
  const target = new URL(url);
  const one = () =>
    new Promise<void>((resolve) => {
      const started = process.hrtime.bigint();
      const req = request(
        target,
        { method: "POST", agent, headers: { ...init.headers, "Content-Length": Buffer.byteLength(init.body) } },
        (res) => {
          res.once("data", () => firstBytes.push(Number(process.hrtime.bigint() - started) / 1e6));
          const chunks: Buffer[] = [];
          if (res.statusCode !== 200) res.on("data", (c: Buffer) => chunks.push(c));
          else res.resume();
          res.on("end", () => {
            if (res.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            else noteError(`${res.statusCode} ${Buffer.concat(chunks).toString("utf8").slice(0, 300)}`);
            resolve();
          });
        },
      );
      req.on("error", (error) => {
        noteError(`request error: ${error.message}`);
        resolve();
      });
      req.end(init.body);
    });
  const worker = async () => {
    while (Date.now() < deadline) await one();
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  firstBytes.sort((a, b) => a - b);
  const pick = (list: number[], q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: pick(latencies, 0.5),
    p99: pick(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    ttfbP50: pick(firstBytes, 0.5),
    errorSamples,
  };
}

/**
 * Several equal-length runs of one target as one result: throughput averaged, latencies the
 * median of the runs' medians. Short runs interleaved across targets let the machine's drift (and
 * where the scheduler happens to place the processes, worth ±0.3 ms at one connection on these
 * 2-core machines) fall on every target alike, instead of on whichever ran in a bad stretch.
 */
export function combineRuns(runs: LoadResult[]): LoadResult {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    rps: runs.reduce((sum, r) => sum + r.rps, 0) / Math.max(1, runs.length),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    max: Math.max(0, ...runs.map((r) => r.max)),
    ttfbP50: median(runs.map((r) => r.ttfbP50)),
    errorSamples: runs.flatMap((r) => r.errorSamples).slice(0, 5),
  };
}
