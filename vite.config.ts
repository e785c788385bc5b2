import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, transformWithEsbuild, type Plugin } from "vite";
import { fileURLToPath } from "node:url";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The plain scripts of app/enhance/ (the enhancement script, the playground's chat) reach the
 * build as `?url` assets, which Vite copies as written (with their comments). Minified here:
 * half the bytes a page downloads.
 */
function minifyEnhanceScript(): Plugin {
  return {
    name: "switchyard:minify-enhance-script",
    apply: "build",
    async generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== "asset" || !/(^|\/)(enhance|playground-chat)-[\w-]+\.js$/.test(file.fileName)) continue;
        file.source = (await transformWithEsbuild(String(file.source), file.fileName, { minify: true, target: "es2020", charset: "utf8" })).code;
      }
    },
  };
}

export default defineConfig({
  plugins: [
    minifyEnhanceScript(),
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
