import { defineConfig } from "@playwright/test";

// Browsers cannot be downloaded here: Debian's chromium drives the tests. The flags keep it off
// the (closed) network at start.
// A random port per run, so two runs on one machine do not meet; workers inherit it via env.
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 20000));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? "list" : "line",
  use: {
    baseURL,
    // The flows read the console as a Chinese reader does: with the browser's default en-US,
    // the answers from the server (form errors, flashes) come in English (decision 045).
    locale: "zh-CN",
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
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // The core flows again with JavaScript off, every form as plain HTML, read in English: each
    // core flow runs in both languages, and in both ways of posting a form, without running
    // twice more (tests/e2e/fixtures.ts reads the flows' Chinese through the English catalog).
    { name: "no-js", use: { javaScriptEnabled: false, locale: "en-US" }, grep: /@nojs/ },
    // The flows that need JavaScript (not core, so not in no-js) read in English as well: with
    // the two projects above, every flow runs in both languages.
    {
      name: "en-js",
      use: { javaScriptEnabled: true, locale: "en-US" },
      grepInvert: /@nojs/,
      // Those pages are about the languages themselves, and choose theirs.
      testIgnore: "english-pages.spec.ts",
    },
  ],
  webServer: {
    command: "node --import tsx tests/support/e2e-server.ts",
    url: `${baseURL}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port) },
    stdout: "pipe",
  },
});
