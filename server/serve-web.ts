import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { createAppServer, entryOf, installGracefulShutdown, type EntryExports } from "./app-server";
import { bootApp } from "./boot";

/** Set on the short-lived process that creates a fresh embedded database for its parent. */
const PREPARE_ONLY = "SWITCHYARD_PREPARE_DATABASE_ONLY";

/**
 * A fresh embedded database is created and migrated by a process of its own. initdb and the
 * migrations leave ~90 MB of native memory behind (the WebAssembly compiler's and the C
 * allocator's, freed but kept by the allocator), so a first start inside the serving process
 * stayed near 330 MB where a restart sits near 235 MB (decision 037).
 */
async function prepareFreshEmbeddedDatabase(entry: EntryExports): Promise<void> {
  if (!entry.isFreshEmbeddedDatabase()) return;
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
    env: { ...process.env, [PREPARE_ONLY]: "1" },
    stdio: "inherit",
  });
  const [code] = (await once(child, "exit")) as [number | null];
  // Done in this process instead when the preparing process could not (it said why above).
  if (code !== 0)
    console.error(
      `[db] preparing the embedded database in a process of its own failed (code ${code}); preparing it here`,
    );
}

/** One web process: the built app booted (database, options, recovery) and the HTTP server listening. */
export async function serveWeb(): Promise<void> {
  const startedAt = Date.now();
  const buildPath = resolve("build/server/index.js");
  if (!existsSync(buildPath)) {
    console.error("No server build found: run `npm run build` first.");
    process.exit(1);
  }
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const entry = entryOf(build);
  if (process.env[PREPARE_ONLY]) {
    await entry.prepareDatabase();
    process.exit(0);
  }
  await prepareFreshEmbeddedDatabase(entry);
  await bootApp(entry);

  const server = createAppServer({
    mode: "production",
    getBuild: async () => build,
    getEntry: () => entry,
    mountStatic: (app) => {
      // Vite's hashed assets never change under a name: cache them for a year.
      app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
      app.use(express.static("build/client", { maxAge: "1h" }));
    },
  });

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || "0.0.0.0";
  server.keepAliveTimeout = 65_000;
  const slot = process.env.WEB_PROCESS_SLOT ? ` (web process ${process.env.WEB_PROCESS_SLOT}, pid ${process.pid})` : "";
  server.listen(port, host, () => {
    console.log(
      `[server] Switchyard listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}${slot} (ready in ${Date.now() - startedAt} ms)`,
    );
  });
  installGracefulShutdown(server, entry.shutdownApp);
}
