// `npm test` after the build: the vitest suite as shards side by side (`vitest run --shard=i/n`,
// dealt out by tests/support/weighted-shards.ts), each its own process with its own servers, then
// Playwright. One vitest process runs the integration files one at a time, and they mostly wait
// (on upstreams that answer late, outages, schedules): alone it left the cores idle. Playwright
// keeps both cores busy by itself, so it runs after: beside the shards, both took longer.
// Every line is printed as it comes, marked with the suite it belongs to.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { stripVTControlCharacters } from "node:util";

const shards = Number(process.env.VITEST_SHARDS ?? 3);

function run(name, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const mark = `[${name}] `;
    const lines = [];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on("line", (line) => {
        lines.push(line);
        process.stdout.write(`${mark}${line}\n`);
      });
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(`${mark}== ${code === 0 ? "passed" : `failed (${signal ?? code})`} in ${seconds} s`);
      resolve({ name, ok: code === 0, lines });
    });
  });
}

const shardResults = await Promise.all(
  Array.from({ length: shards }, (_, i) =>
    run(`vitest ${i + 1}/${shards}`, ["node_modules/vitest/vitest.mjs", "run", `--shard=${i + 1}/${shards}`], {
      VITEST_SHARD: String(i + 1),
    }),
  ),
);
const results = [...shardResults, await run("playwright", ["node_modules/@playwright/test/cli.js", "test"])];
const failed = results.filter((suite) => !suite.ok);
if (failed.length > 0) {
  for (const suite of failed) printFailures(suite);
  console.error(`failed: ${failed.map((suite) => suite.name).join(", ")}`);
  process.exit(1);
}
console.log("every suite passed");

/**
 * A failure is printed again at the end, where a log cut to its last lines still shows it: the
 * suites interleave, so a shard's report can sit hundreds of lines above the last one.
 */
function printFailures({ name, lines: coloured }) {
  const lines = coloured.map((line) => stripVTControlCharacters(line));
  const marked = lines.filter((line) => /^\s*(FAIL|×|✘|❯|\d+\) )/.test(line));
  const report = lines.findIndex((line) => /Failed Tests \d+/.test(line));
  const detail = report >= 0 ? lines.slice(report, report + 80) : lines.slice(-40);
  console.error(`== ${name}: what failed`);
  for (const line of [...new Set(marked)].slice(0, 40)) console.error(`[${name}] ${line}`);
  for (const line of detail) console.error(`[${name}] ${line}`);
}
