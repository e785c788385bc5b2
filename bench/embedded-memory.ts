import { rmSync, writeFileSync } from "node:fs";
import { startServer } from "../tests/support/server";
import { rssMb } from "./process-stats";

/**
 * An embedded node's memory (PGlite, no DATABASE_URL, `npm start`'s node flags): after its first
 * start on a fresh data directory, after some minutes of light use (console pages, /api reads,
 * relay calls refused for want of a channel, a sign-in), quiet again, and after a restart.
 * Prints RSS and what the process itself counts (heap, external: PGlite's WebAssembly memory).
 *
 *   npm run bench:embedded-memory            (BENCH_USE_SECONDS, default 120; BENCH_QUIET_SECONDS, default 30)
 *   BENCH_CWD=../other-checkout npm run bench:embedded-memory     measures that checkout's build instead
 */
const useSeconds = Number(process.env.BENCH_USE_SECONDS ?? 120);
const quietSeconds = Number(process.env.BENCH_QUIET_SECONDS ?? 30);
const report = "/tmp/embedded-memory-report.json";
// Loaded with --import: writes the process's own memory counts when asked (SIGUSR2).
const reporter = "/tmp/embedded-memory-reporter.mjs";
writeFileSync(
  reporter,
  `import { writeFileSync } from "node:fs";\nprocess.on("SIGUSR2", () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1048576)])))));\n`,
);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function reading(pid: number): Promise<string> {
  rmSync(report, { force: true });
  process.kill(pid, "SIGUSR2");
  await sleep(500);
  const counts = (await import("node:fs")).readFileSync(report, "utf8");
  return `${rssMb(pid).toFixed(0)} MB RSS; process counts (MB) ${counts}`;
}

async function lightUse(baseUrl: string, seconds: number): Promise<number> {
  const login = await fetch(`${baseUrl}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "root", password: "123456" }),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  const headers = { Cookie: cookie, "New-Api-User": "1" };
  const paths = [
    "/",
    "/login",
    "/pricing",
    "/console",
    "/console/token",
    "/console/log",
    "/console/channel",
    "/console/setting",
    "/api/status",
    "/api/user/self",
    "/api/log/self?p=0",
  ];
  let requests = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    for (const path of paths) {
      await (await fetch(baseUrl + path, { headers })).arrayBuffer();
      requests += 1;
    }
    await (
      await fetch(`${baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: "Bearer sk-nope", "Content-Type": "application/json" },
        body: '{"model":"gpt-4o-mini","messages":[]}',
      })
    ).arrayBuffer();
    requests += 1;
    await sleep(1000);
  }
  return requests;
}

const nodeArgs = ["--import", reporter];
const cwd = process.env.BENCH_CWD;
const first = await startServer({ kind: "pglite", env: { DATABASE_URL: "", REDIS_URL: "" }, nodeArgs, cwd });
const storage = { dataDir: first.dataDir };
try {
  await sleep(quietSeconds * 1000);
  console.log(`first start, quiet ${quietSeconds} s: ${await reading(first.pid)}`);
  const served = await lightUse(first.baseUrl, useSeconds);
  await sleep(quietSeconds * 1000);
  console.log(
    `after ${useSeconds} s of light use (${served} requests), quiet ${quietSeconds} s: ${await reading(first.pid)}`,
  );
} finally {
  await first.stop();
}
const second = await startServer({ kind: "pglite", env: { DATABASE_URL: "", REDIS_URL: "" }, nodeArgs, storage, cwd });
try {
  await lightUse(second.baseUrl, 5);
  await sleep(quietSeconds * 1000);
  console.log(`restart, a few pages, quiet ${quietSeconds} s: ${await reading(second.pid)}`);
} finally {
  await second.stop();
  rmSync(storage.dataDir, { recursive: true, force: true });
}
