import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
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
