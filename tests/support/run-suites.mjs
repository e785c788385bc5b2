// `npm test` after the build: vitest (unit + integration) and Playwright at the same time.
// Measured on the 2-core CI machine, the integration files spend most of their time waiting on
// timers and sockets while the browser tests keep both cores busy: one after the other the run
// used under half of the machine's CPU time and overran CI's budget. They share nothing (each
// starts its own servers on its own ports, with its own scratch databases). Playwright's output
// is kept and printed whole after vitest's, so neither is interleaved.
import { spawn } from "node:child_process";

const bin = (name) => new URL(`../../node_modules/.bin/${name}`, import.meta.url).pathname;

/** Runs a command; resolves with its exit code, and its output when `capture`. */
function run(command, args, capture) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    let output = "";
    if (capture) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const browser = run(bin("playwright"), ["test"], true);
const tests = await run(bin("vitest"), ["run"], false);
const e2e = await browser;
console.log("\n== Playwright (run beside vitest)\n");
process.stdout.write(e2e.output);
process.exit(tests.code || e2e.code);
