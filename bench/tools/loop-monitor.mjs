// Loaded into a gateway with `node --import`: every 2 s appends the event loop's delay (p99 and
// max, 1 ms resolution) and the garbage collector's pauses to LOOP_MONITOR_FILE, so a benchmark
// can tell a stall (a long pause) from load (a busy loop).
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import process from "node:process";
import { setInterval } from "node:timers";

const file = process.env.LOOP_MONITOR_FILE || "/tmp/loop-monitor.log";
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let pauses = 0;
let pausedMs = 0;
let longestPauseMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses += 1;
    pausedMs += entry.duration;
    longestPauseMs = Math.max(longestPauseMs, entry.duration);
  }
}).observe({ entryTypes: ["gc"] });
setInterval(() => {
  const ms = (ns) => (ns / 1e6).toFixed(1);
  appendFileSync(
    file,
    `loop delay p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms | gc ${pauses} pauses, ${pausedMs.toFixed(1)} ms in all, longest ${longestPauseMs.toFixed(1)} ms\n`,
  );
  delay.reset();
  pauses = 0;
  pausedMs = 0;
  longestPauseMs = 0;
}, 2_000).unref();
