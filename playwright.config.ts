import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

// Each worker starts its own console server on a free port (tests/e2e/console-server.ts), so no
// run meets another on this machine, and more workers (E2E_WORKERS) drive servers side by side.
export default defineConfig({
  testDir: "tests/e2e",
  // A file's tests run in order in one worker (they build on each other). Two workers, each with
  // its own server: with the headless shell one worker left a third of two cores idle, and a
  // second took 18 % off the wall time (decision 047).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism())),
  retries: 0,
  // Bounds with room for a slow machine: a flow takes 3-8 s.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? "list" : "line",
  use: {
    // The flows read the console as a Chinese reader does: with the browser's default en-US,
    // the answers from the server (form errors, flashes) come in English (decision 045).
    locale: "zh-CN",
    // Browsers cannot be downloaded here: Debian's chromium drives the tests, as its headless
    // shell (package chromium-headless-shell) where installed: the same engine without the
    // browser's windowing, at about half the CPU per test (decision 047). The flags keep it off
    // the (closed) network at start.
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Every flow in Chinese with JavaScript, and every flow once more in English: the core flows
  // (tagged @nojs) with JavaScript off, the others with it. Language and script are apart: the
  // pages' words are rendered on the server whether or not script runs, and every message has
  // its English entry (tests/unit/i18n/catalog-complete.test.ts). The English projects read the
  // flows through the English catalog (tests/e2e/fixtures.ts). Decision 047 says what the two
  // projects that ran each core flow a third and fourth time had cost.
  projects: [
    { name: "zh-js", use: { javaScriptEnabled: true } },
    {
      name: "en-js",
      use: { javaScriptEnabled: true, locale: "en-US" },
      grepInvert: /@nojs/,
      // english-pages checks both languages itself; the page weights are the same scripts in
      // either language.
      testIgnore: ["english-pages.spec.ts", "page-weight.spec.ts"],
    },
    { name: "en-no-js", use: { javaScriptEnabled: false, locale: "en-US" }, grep: /@nojs/ },
  ],
});
