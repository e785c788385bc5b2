// `npm test`'s vitest part. Without DATABASE_URL: every project, one after another (vitest.config.ts).
// With it (CI): the embedded (PGlite) set runs in a second vitest process beside the unit and
// PostgreSQL projects. The two share nothing (each has its own server, data and scratch
// databases; the embedded set uses no Redis), and most of the integration suite's time is spent
// waiting on timers and sockets, so running them side by side takes minutes off the run.
// The second process's output is kept and printed whole after the first, so neither is interleaved.
import { spawn } from "node:child_process";

const vitest = new URL("../../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
const extra = process.argv.slice(2);

/** Runs vitest with `args`; resolves with its exit code, and its output when `capture`. */
function run(args, capture) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, "run", ...args, ...extra], { stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    let output = "";
    if (capture) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

if (!process.env.DATABASE_URL) {
  process.exit((await run([], false)).code);
}
const embedded = run(["--project", "integration-pglite"], true);
const main = await run(["--project", "unit", "--project", "integration-postgres"], false);
const side = await embedded;
console.log("\n== the embedded (PGlite) set, run beside the above\n");
process.stdout.write(side.output);
process.exit(main.code || side.code);
