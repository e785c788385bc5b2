import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { createAppServer, entryOf, installGracefulShutdown } from "./app-server";

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
  await entry.bootApp();

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
    console.log(`[server] Switchyard listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}${slot} (ready in ${Date.now() - startedAt} ms)`);
  });
  installGracefulShutdown(server, entry.shutdownApp);
}
