import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts so the Remix plugin is not loaded under vitest.
const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };
const shared = { environment: "node" as const, testTimeout: 30_000, hookTimeout: 120_000 };

// The integration suite runs once per database: always on embedded PGlite, and on real
// PostgreSQL (+ Redis) when DATABASE_URL is set, as in CI.
const databases = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export default defineConfig({
  resolve: { alias },
  test: {
    fileParallelism: false,
    projects: [
      { resolve: { alias }, test: { ...shared, name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      ...databases.map((db) => ({
        resolve: { alias },
        test: {
          ...shared,
          name: `integration-${db}`,
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
        },
      })),
    ],
  },
});
