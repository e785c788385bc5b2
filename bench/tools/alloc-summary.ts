import { readFileSync } from "node:fs";

/**
 * What a sampling heap profile (bench/tools/alloc-sampler.mjs) says was allocated, by the app
 * function nearest each allocation (library frames are charged to their app caller) and by
 * library. REQUESTS=n divides by the requests served in the window.
 *
 *   npx tsx bench/tools/alloc-summary.ts [/tmp/alloc.heapprofile]
 */
type Node = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
};
const profile = JSON.parse(readFileSync(process.argv[2] ?? "/tmp/alloc.heapprofile", "utf8")) as { head: Node };
const requests = Number(process.env.REQUESTS ?? 0);

const isApp = (url: string) => url.includes("build/server/") || url.includes("build/entry/");
function library(url: string): string {
  if (!url) return "(native or V8)";
  if (url.startsWith("node:")) return "node internals";
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  return isApp(url) ? "app" : url;
}
const byCaller = new Map<string, number>();
// BREAKDOWN=<app function name>: what allocates under it, by the allocating frame.
const breakdownOf = process.env.BREAKDOWN;
const breakdown = new Map<string, number>();
const byLibrary = new Map<string, number>();
let total = 0;
function visit(node: Node, appCaller: string) {
  const { functionName, url, lineNumber } = node.callFrame;
  const caller = isApp(url) ? `${functionName || "(anonymous)"}:${lineNumber + 1}` : appCaller;
  if (node.selfSize > 0) {
    total += node.selfSize;
    byCaller.set(caller, (byCaller.get(caller) ?? 0) + node.selfSize);
    const lib = library(url);
    byLibrary.set(lib, (byLibrary.get(lib) ?? 0) + node.selfSize);
    if (breakdownOf && caller.startsWith(`${breakdownOf}:`)) {
      const frame = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
      breakdown.set(frame, (breakdown.get(frame) ?? 0) + node.selfSize);
    }
  }
  for (const child of node.children) visit(child, caller);
}
visit(profile.head, "(no app caller)");
const kb = (bytes: number) =>
  requests ? `${(bytes / 1024 / requests).toFixed(2)} KB/req` : `${(bytes / 1048576).toFixed(1)} MB`;
console.log(
  `${(total / 1048576).toFixed(1)} MB sampled${requests ? ` over ${requests} requests (${kb(total)})` : ""}\n`,
);
console.log("| allocated in | amount | share |\n|---|---|---|");
for (const [lib, bytes] of [...byLibrary].sort((a, b) => b[1] - a[1]).slice(0, 10))
  console.log(`| ${lib} | ${kb(bytes)} | ${((100 * bytes) / total).toFixed(1)} % |`);
console.log("\n| for app function | amount | share |\n|---|---|---|");
for (const [caller, bytes] of [...byCaller].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25)))
  console.log(`| ${caller} | ${kb(bytes)} | ${((100 * bytes) / total).toFixed(1)} % |`);
if (breakdownOf) {
  console.log(`\n| allocated under ${breakdownOf} by | amount |\n|---|---|`);
  for (const [frame, bytes] of [...breakdown].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`| ${frame} | ${kb(bytes)} |`);
}
