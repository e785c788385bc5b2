import { mkdirSync, writeFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dbKind: "postgres" | "pglite";
    databaseUrl: string;
  }
}

// One server per vitest project (postgres or pglite), shared by every integration file: PGlite's
// initdb alone takes 5-12 s, so starting one per file would dominate the run.
export default async function setup(project: TestProject) {
  const kind = project.name.endsWith("postgres") ? "postgres" : "pglite";
  // Short stream-idle and whole-reply timeouts so the tests of both run in seconds.
  const server = await startServer({ kind, env: { STREAMING_TIMEOUT: "2", RELAY_TIMEOUT: "3" } });
  project.provide("baseUrl", server.baseUrl);
  project.provide("dbKind", kind);
  project.provide("databaseUrl", server.databaseUrl ?? "");
  return async () => {
    await server.stop();
    // What the server printed (unhandled errors included), for a failed run to be read afterwards.
    mkdirSync("test-results", { recursive: true });
    writeFileSync(`test-results/server-${kind}-${process.env.VITEST_SHARD ?? "1"}.log`, server.output());
  };
}
