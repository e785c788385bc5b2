import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import WeightedShards from "./tests/support/weighted-shards";

// Kept apart from vite.config.ts so the Remix plugin is not loaded under vitest.
const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };
const shared = { environment: "node" as const, testTimeout: 30_000, hookTimeout: 120_000 };

// The integration suite runs on embedded PGlite, and on real PostgreSQL (+ Redis) when
// DATABASE_URL is set, as in CI. With both, the whole suite runs on PostgreSQL and PGlite runs
// the files that exercise what embedded mode does differently (in-process jobs and schedules,
// its one connection under concurrent billing, crash recovery of its journal) and one relayed
// call billed and logged (decision 035): the same SQL twice bought nothing for half the run's time.
const databases = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
const EMBEDDED_SET = [
  // One connection for everything: leases, cache billing, relayed calls (OpenAI and the native
  // surfaces) billed and logged.
  "relay-openai",
  "relay-leases",
  "cache-billing",
  "usage-log",
  "native-ingress",
  // The journal on the local disk and its recovery after kill -9.
  "relay-crash",
  // Jobs and schedules in-process.
  "workers-in-web",
  "schedules",
  // The import writes an embedded target with inserts where PostgreSQL gets COPY.
  "import-history",
];
const integrationFiles = (db: string) =>
  db === "pglite" && process.env.DATABASE_URL
    ? EMBEDDED_SET.map((name) => `tests/integration/${name}.test.ts`)
    : ["tests/integration/**/*.test.ts"];

export default defineConfig({
  resolve: { alias },
  test: {
    // `npm test` runs the suite as shards side by side (tests/support/run-suites.mjs).
    sequence: { sequencer: WeightedShards },
    projects: [
      // Unit files share nothing, so they use both cores; the integration files of one project share
      // its one server (and its options), so they run one at a time, after the unit files.
      { resolve: { alias }, test: { ...shared, name: "unit", include: ["tests/unit/**/*.test.ts"], maxWorkers: 2 } },
      ...databases.map((db) => ({
        resolve: { alias },
        test: {
          ...shared,
          name: `integration-${db}`,
          include: integrationFiles(db),
          globalSetup: ["tests/support/global-setup.ts"],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      })),
    ],
  },
});
