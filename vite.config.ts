import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, transformWithEsbuild, type Plugin } from "vite";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const ENHANCE_DIR = fileURLToPath(new URL("./app/enhance/", import.meta.url));
const ENHANCE_ID = /\/app\/enhance\/enhance\.js\?url$/;
const DEV_ENHANCE_URL = "/@switchyard/enhance.js";

/**
 * Every `enhance*.js` of app/enhance/ joined, enhance.js last (it marks the page ready). Each
 * file is a self-contained IIFE, so joining is all the bundling they need.
 */
async function joinedEnhanceScript(watch?: (file: string) => void): Promise<string> {
  const files = (await readdir(ENHANCE_DIR))
    .filter((f) => /^enhance[\w-]*\.js$/.test(f))
    .sort((a, b) => Number(a === "enhance.js") - Number(b === "enhance.js") || a.localeCompare(b));
  for (const f of files) watch?.(ENHANCE_DIR + f);
  return (await Promise.all(files.map((f) => readFile(ENHANCE_DIR + f, "utf8")))).join("\n");
}

/**
 * The enhancement script (docs/decisions/032, 043) is written as several small files and loaded
 * as one: imported `?url` as `~/enhance/enhance.js`, it is built here from all of them and
 * minified (half the bytes a light page downloads). Its name's hash is of the joined file, so a
 * change in any part gives a new address (it is cached for a year), and it is always a file of
 * its own, never inlined as a data: URL. In development the joined file is served unminified.
 */
function enhanceScript(): Plugin {
  let command: "build" | "serve" = "build";
  return {
    name: "switchyard:enhance-script",
    enforce: "pre",
    configResolved(config) {
      command = config.command;
    },
    configureServer(server) {
      server.middlewares.use(DEV_ENHANCE_URL, (_req, res) => {
        void joinedEnhanceScript().then((code) => {
          res.setHeader("Content-Type", "text/javascript");
          res.end(code);
        });
      });
    },
    async load(id) {
      if (!ENHANCE_ID.test(id)) return null;
      if (command === "serve") return `export default ${JSON.stringify(DEV_ENHANCE_URL)}`;
      const joined = await joinedEnhanceScript((file) => this.addWatchFile(file));
      const { code } = await transformWithEsbuild(joined, "enhance.js", {
        minify: true,
        target: "es2020",
        charset: "utf8",
      });
      // Vite's asset plugin writes the emitted file's final address where this placeholder stands.
      const ref = this.emitFile({ type: "asset", name: "enhance.js", source: code });
      return `export default "__VITE_ASSET__${ref}__"`;
    },
  };
}

/**
 * The playground's chat script (docs/decisions/032) reaches the build as a `?url` asset, which
 * Vite copies as written, comments and all; minified here like the enhancement script.
 */
function minifyPlaygroundScript(): Plugin {
  return {
    name: "switchyard:minify-playground-script",
    apply: "build",
    async generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== "asset" || !/(^|\/)playground-chat-[\w-]+\.js$/.test(file.fileName)) continue;
        file.source = (
          await transformWithEsbuild(String(file.source), file.fileName, {
            minify: true,
            target: "es2020",
            charset: "utf8",
          })
        ).code;
      }
    },
  };
}

export default defineConfig({
  plugins: [
    enhanceScript(),
    minifyPlaygroundScript(),
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
  ],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  server: { port: 5173, host: "127.0.0.1" },
  build: {
    // The plain scripts are imported `?url`; left to the default, Vite would inline a small one
    // in the HTML as a data: URL instead of one file cached for a year.
    assetsInlineLimit: (file) => (/\/enhance\/[\w-]+\.js$/.test(file) ? false : undefined),
    rollupOptions: {
      // Two warnings that read like failures and are not: resource routes (no component) make
      // empty client chunks by design, and zod ships annotations Rollup drops harmlessly.
      onwarn(warning, warn) {
        if (warning.code === "EMPTY_BUNDLE") return;
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("node_modules")) return;
        warn(warning);
      },
    },
  },
  // The server bundle keeps node_modules external; pglite's wasm must be loaded from its package.
  ssr: { external: ["@electric-sql/pglite", "bullmq", "ioredis", "pg", "bcryptjs"] },
});
