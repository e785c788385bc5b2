import { defineConfig } from "@playwright/test";

// Each worker starts its own console server on a free port (tests/e2e/console-server.ts), so no
// run meets another on this machine, and more workers (E2E_WORKERS) drive servers side by side.
export default defineConfig({
  testDir: "tests/e2e",
  // A file's tests run in order in one worker (they build on each other). One worker: the browser
  // alone keeps both cores of a small machine busy; a second made no run faster.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  // Bounds with room for a slow machine: a flow takes 3-8 s.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? "list" : "line",
  use: {
    // The flows read the console as a Chinese reader does: with the browser's default en-US,
    // the answers from the server (form errors, flashes) come in English (decision 045).
    locale: "zh-CN",
    // Browsers cannot be downloaded here: Debian's chromium drives the tests. The flags keep it
    // off the (closed) network at start.
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  // Every flow in both languages, and the core flows (tagged @nojs) in both with JavaScript off
  // too. Chinese is the language the flows are written in; the English projects read them
  // through the English catalog (tests/e2e/fixtures.ts).
  projects: [
    { name: "zh-js", use: { javaScriptEnabled: true } },
    { name: "zh-no-js", use: { javaScriptEnabled: false }, grep: /@nojs/ },
    {
      name: "en-js",
      use: { javaScriptEnabled: true, locale: "en-US" },
      // english-pages checks both languages itself; the page weights are the same scripts in
      // either language (the pages' words are rendered on the server).
      testIgnore: ["english-pages.spec.ts", "page-weight.spec.ts"],
    },
    { name: "en-no-js", use: { javaScriptEnabled: false, locale: "en-US" }, grep: /@nojs/ },
  ],
});
