import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E_GITHUB_APP, startGitHubMock } from "../mocks/github-oauth";
import { createScratchDatabase } from "./server";

/**
 * The server Playwright drives: a fresh database (a scratch PostgreSQL database when
 * DATABASE_URL is set, else a fresh PGlite directory) so root still has the default password.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-e2e-"));
const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;

const port = process.env.E2E_PORT ?? "3310";
// GitHub sign-in goes to a loopback GitHub living in this process (decision 018): the browser
// visits its authorize page, the server trades codes with it.
const github = await startGitHubMock();
github.registerApp(E2E_GITHUB_APP.clientId, E2E_GITHUB_APP.secret, `http://127.0.0.1:${port}/oauth/github`);

Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: port,
  GITHUB_OAUTH_BASE_URL: github.url,
  GITHUB_API_BASE_URL: github.url,
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  DATABASE_URL: scratch?.url ?? "",
  INSECURE_COOKIES: "1",
  // Every browser test signs in from 127.0.0.1; the limiter itself is covered by the API tests.
  CRITICAL_RATE_LIMIT: "100000",
  // The flows register and sign in hundreds of users: at the default cost the hashing was a
  // fifth of the browser tests' CPU (decision 047). What is hashed and checked is the same at any cost.
  PASSWORD_HASH_COST: "4",
  // A known server zone, so the tests of times shown in the browser's zone prove something.
  TZ: "UTC",
  // Midjourney and Suno tasks reach their final state within a test's time (reference: 15 s).
  TASK_POLL_INTERVAL_MS: "500",
  // One web process: this module is the server's entry, and a forked web process would run it
  // again (another scratch database, another GitHub mock).
  WEB_CONCURRENCY: "1",
});

async function cleanup() {
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop().catch(() => undefined);
}
process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.prependOnceListener(signal, () => void cleanup());
}

await import("../../server/index");
