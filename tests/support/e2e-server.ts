import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase } from "./server";

/**
 * The server Playwright drives: a fresh database (a scratch PostgreSQL database when
 * DATABASE_URL is set, else a fresh PGlite directory) so root still has the default password.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-e2e-"));
const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;

Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: process.env.E2E_PORT ?? "3310",
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  DATABASE_URL: scratch?.url ?? "",
  INSECURE_COOKIES: "1",
  // Every browser test signs in from 127.0.0.1; the limiter itself is covered by the API tests.
  CRITICAL_RATE_LIMIT: "100000",
  // A known server zone, so the tests of times shown in the browser's zone prove something.
  TZ: "UTC",
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
