import type { ServerBuild } from "@remix-run/node";
import { createServer as createViteServer } from "vite";
import { createAppServer, entryOf, installGracefulShutdown } from "./app-server";
import { bootApp } from "./boot";

// Development: Vite serves the client with HMR; the server build is loaded through Vite so code
// changes apply without a restart. Same routing as production (relay prefixes first).
process.env.NODE_ENV ??= "development";
const vite = await createViteServer({ server: { middlewareMode: true } });
const loadBuild = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
const getEntry = async () => entryOf(await loadBuild());
await bootApp(await getEntry());

const server = createAppServer({
  mode: "development",
  getBuild: loadBuild,
  getEntry,
  mountStatic: (app) => app.use(vite.middlewares),
});
const port = Number(process.env.PORT ?? 3000);
server.listen(port, process.env.HOST || "127.0.0.1", () => console.log(`[dev] http://localhost:${port}`));
installGracefulShutdown(server, async () => {
  await (await getEntry()).shutdownApp();
  await vite.close();
});
