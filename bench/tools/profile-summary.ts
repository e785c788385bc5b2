import { newestProfile } from "./cpu-profile";

/**
 * Where a V8 CPU profile's time went: self time per library (node's own JavaScript, pg, the app,
 * the collector, idle) and the functions that cost most. Reads the newest .cpuprofile in DIR
 * (default /tmp/prof), as bench/tools/prof.ts leaves it with PROF=1.
 *
 *   PROF=1 C=50 npx tsx bench/tools/prof.ts && LAST=6 [INCLUSIVE=1] npx tsx bench/tools/profile-summary.ts
 *   UNDER=dispatchRelay …   the time under one app function, by the app function it called
 *   LINES=1 …               the app's source lines that the samples landed on most (whole profile)
 */
const { file: newest, profile, byId, parent } = newestProfile();
const selfMs = new Map<number, number>();
// LAST=<seconds>: only the profile's last seconds (the load, without the start and the setup).
const profiledUs = profile.timeDeltas.reduce((sum, d) => sum + d, 0);
const fromUs = process.env.LAST ? profiledUs - Number(process.env.LAST) * 1e6 : -Infinity;
let atUs = 0;
profile.samples.forEach((id, i) => {
  atUs += profile.timeDeltas[i] ?? 0;
  if (atUs >= fromUs) selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});

function library(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.includes("build/server/")) return "app (server build)";
  if (url.includes("build/entry/")) return "app (server entry)";
  return url;
}

const libraries = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
for (const [id, ms] of selfMs) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  total += ms;
  const lib = library(url, functionName);
  libraries.set(lib, (libraries.get(lib) ?? 0) + ms);
  const key = `${functionName || "(anonymous)"} ${url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : ""}`;
  functions.set(key, (functions.get(key) ?? 0) + ms);
}
const busy = total - (libraries.get("(idle)") ?? 0);
const pct = (ms: number) => `${((100 * ms) / busy).toFixed(1)} %`;
console.log(
  `${newest}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (shares below are of busy time)\n`,
);
console.log("| where | self ms | share |\n|---|---|---|");
for (const [lib, ms] of [...libraries].sort((a, b) => b[1] - a[1]).slice(0, 16))
  if (lib !== "(idle)") console.log(`| ${lib} | ${ms.toFixed(0)} | ${pct(ms)} |`);
console.log("\n| function | self ms | share |\n|---|---|---|");
for (const [fn, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30)))
  console.log(`| ${fn} | ${ms.toFixed(0)} | ${pct(ms)} |`);

// BLAME=<library>: which app functions that library's time is spent for (its nearest app caller).
const blamed = process.env.BLAME;
if (blamed) {
  const callers = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    if (library(node.callFrame.url, node.callFrame.functionName) !== blamed) continue;
    let up = parent.get(id);
    while (up !== undefined && !library(byId.get(up)!.callFrame.url, "").startsWith("app")) up = parent.get(up);
    const caller =
      up === undefined
        ? "(no app caller)"
        : `${byId.get(up)!.callFrame.functionName || "(anonymous)"}:${byId.get(up)!.callFrame.lineNumber + 1}`;
    callers.set(caller, (callers.get(caller) ?? 0) + ms);
  }
  console.log(`\n| ${blamed}'s time, by app caller | ms | share |\n|---|---|---|`);
  for (const [caller, ms] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`| ${caller} | ${ms.toFixed(0)} | ${pct(ms)} |`);
}

// INCLUSIVE=1: the app's functions by the time spent in them and everything they called (each
// sample counted once per function however deep it recurses): which step of a call costs what.
if (process.env.INCLUSIVE) {
  const inclusive = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!library(url, functionName).startsWith("app")) continue;
      const key = `${functionName || "(anonymous)"}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  console.log("\n| app function, with what it called | ms | share |\n|---|---|---|");
  for (const [fn, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30)))
    console.log(`| ${fn} | ${ms.toFixed(0)} | ${pct(ms)} |`);
}

// UNDER=<app function name>: the time spent under that function, by the app function it called
// on the way (the nearest app frame below it; "(itself)" when no other app frame is between):
// what one step of a call is made of.
const under = process.env.UNDER;
if (under) {
  const parts = new Map<string, number>();
  let within = 0;
  for (const [id, ms] of selfMs) {
    let below = "(itself)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!library(url, functionName).startsWith("app")) continue;
      if (functionName === under) {
        within += ms;
        parts.set(below, (parts.get(below) ?? 0) + ms);
        break;
      }
      below = `${functionName || "(anonymous)"}:${lineNumber + 1}`;
    }
  }
  console.log(
    `\n| under ${under} (${within.toFixed(0)} ms), by the app function it called | ms | share |\n|---|---|---|`,
  );
  for (const [part, ms] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30)))
    console.log(`| ${part} | ${ms.toFixed(0)} | ${pct(ms)} |`);
}

// LINES=1: the app's own source lines by the samples that landed on them (V8's position ticks,
// counted over the whole profile: they carry no time of their own). A line far above what it
// does (a spread that took the slow generic copy) shows here before it shows in any function's
// total, where it is spread over the function's other lines.
if (process.env.LINES) {
  const lines = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url } = node.callFrame;
    if (!library(url, functionName).startsWith("app")) continue;
    for (const { line, ticks } of node.positionTicks ?? []) {
      const key = `${functionName || "(anonymous)"} ${url.replace(/.*\//, "")}:${line}`;
      lines.set(key, (lines.get(key) ?? 0) + ticks);
    }
  }
  console.log("\n| app source line | samples |\n|---|---|");
  for (const [line, ticks] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30)))
    console.log(`| ${line} | ${ticks} |`);
}
