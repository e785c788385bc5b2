import { chatBody, startBenchGateway } from "../gateway-setup";
import { runLoad } from "../load";
import { argsOf, envOf } from "./settings-text";

/**
 * The collector's pauses per relayed call: the gateway under C connections (default 50) for
 * SECONDS (default 8) with --trace-gc; each kind's count, total and longest pause, and the pause
 * time per call. GATEWAY_ENV="NAME=value …" and GATEWAY_ARGS="--flag …" try a setting.
 */
const gateway = await startBenchGateway({
  nodeArgs: ["--trace-gc", ...argsOf(process.env.GATEWAY_ARGS)],
  env: envOf(process.env.GATEWAY_ENV),
});
try {
  const init = {
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.key}` },
    body: chatBody(Boolean(process.env.STREAM)),
  };
  await runLoad(`${gateway.server.baseUrl}/v1/chat/completions`, init, Number(process.env.C ?? 50), 2);
  const from = gateway.server.output().length;
  const result = await runLoad(
    `${gateway.server.baseUrl}/v1/chat/completions`,
    init,
    Number(process.env.C ?? 50),
    Number(process.env.SECONDS ?? 8),
  );
  const lines = gateway.server.output().slice(from).split("\n");
  const kinds = new Map<string, { count: number; ms: number; max: number }>();
  for (const line of lines) {
    const match =
      /: (Scavenge|Mark-Compact|Mark-Compact \(reduce\)|Mark-sweep)[^\d]*[\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/.exec(
        line,
      );
    if (!match) continue;
    const kind = kinds.get(match[1]!) ?? { count: 0, ms: 0, max: 0 };
    const pause = Number(match[2]);
    kind.count += 1;
    kind.ms += pause;
    kind.max = Math.max(kind.max, pause);
    kinds.set(match[1]!, kind);
  }
  console.log(
    `${Math.round(result.rps)} req/s, ${result.requests} calls, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`,
  );
  for (const [name, k] of kinds)
    console.log(
      `${name.padEnd(14)} ${k.count} pauses, ${k.ms.toFixed(0)} ms in all (${((1000 * k.ms) / result.requests).toFixed(1)} µs a call), longest ${k.max.toFixed(1)} ms`,
    );
} finally {
  await gateway.close();
}
