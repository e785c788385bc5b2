// `npm test` after the build: the vitest suite as shards (`vitest run --shard=i/n`, dealt out by
// tests/support/weighted-shards.ts) and Playwright, all side by side, each its own process with
// its own servers. Run one after the other they took longer than CI allows on a two-core
// machine, while the integration files mostly wait (on upstreams that answer late, outages,
// schedules) and left the cores idle.
// Every line is printed as it comes, marked with the suite it belongs to.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const shards = Number(process.env.VITEST_SHARDS ?? 3);

function run(name, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const mark = `[${name}] `;
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${mark}${line}\n`));
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(`${mark}== ${code === 0 ? "passed" : `failed (${signal ?? code})`} in ${seconds} s`);
      resolve({ name, ok: code === 0 });
    });
  });
}

const suites = [
  ...Array.from({ length: shards }, (_, i) =>
    run(`vitest ${i + 1}/${shards}`, ["node_modules/vitest/vitest.mjs", "run", `--shard=${i + 1}/${shards}`], {
      VITEST_SHARD: String(i + 1),
    }),
  ),
  run("playwright", ["node_modules/@playwright/test/cli.js", "test"]),
];
const failed = (await Promise.all(suites)).filter((suite) => !suite.ok).map((suite) => suite.name);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(", ")}`);
  process.exit(1);
}
console.log("every suite passed");
