/**
 * Console pages on a slow device: Chromium with its CPU slowed 6× (DevTools protocol
 * Emulation.setCPUThrottlingRate) loads /token showing 100 tokens and /log showing 100 rows, cold
 * (new browser context, cache disabled), several times; the medians are printed.
 *
 *   npm run bench:throttled                  this tree's build (run `npm run build` first)
 *   npm run bench:throttled -- --cwd <dir>   the build in another checkout (e.g. main: "before")
 *   --runs <n>      loads per page (default 5)     --rate <r>   CPU slowdown (default 6)
 *   --paths <a,b>   other pages (default /token?size=100,/log?size=100)
 *
 * It starts the built server itself on a fresh PGlite directory, seeds root with 100 tokens and
 * 100 usage-log rows (real relay calls to a loopback OpenAI stand-in), and stops it afterwards.
 *
 * What each column means, for one load (times in ms from the navigation start, on the slowed CPU):
 * - FCP: the `first-contentful-paint` paint entry — when the reader first sees the page.
 * - load: `loadEventEnd` of the navigation entry — every script in the HTML (module, defer) has run.
 * - script done: when the page stopped running script = max(load, end of the last script event in
 *   a Chromium trace of the load: EvaluateScript, v8.evaluateModule, FunctionCall, TimerFire,
 *   RunMicrotasks… on the page's main thread). React hydrates in small scheduler tasks after load,
 *   mostly under 50 ms each, so long tasks alone would miss most of it; the trace sees every one.
 *   The load counts as settled once the page's script time (DevTools ScriptDuration) has not grown
 *   for 1.5 s; a page with a periodic timer would push this to the end of that wait.
 * - script ms: the page's total JavaScript execution time (DevTools Performance.getMetrics ScriptDuration).
 * - long tasks: main-thread tasks over 50 ms after navigation start (the page is unresponsive in each).
 * - JS KB / total KB: bytes on the wire (gzipped), as in tests/e2e/page-weight.spec.ts.
 * A light page is done at first paint: script done ≈ load ≈ FCP, and script ms is a few ms.
 */
import { chromium, type Browser } from "playwright-core";
import { startOpenAiMock } from "../tests/mocks/openai-upstream";
import { formatTable, kb, meterTransfer } from "../tests/support/page-transfer";
import { startServer } from "../tests/support/server";

const args = process.argv.slice(2);
const value = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const RUNS = Number(value("runs") ?? 5);
const RATE = Number(value("rate") ?? 6);
const PATHS = (value("paths") ?? "/token?size=100,/log?size=100").split(",");
const SEED_TOKENS = 100;
const SEED_LOGS = 100;
/** Quiet time after which a load counts as settled (real ms: the page's clock is not slowed). */
const SETTLE_MS = 1500;

const log = (line: string) => console.log(`[bench:throttled ${new Date().toISOString().slice(11, 19)}] ${line}`);

type Sample = {
  fcp: number;
  load: number;
  scriptDone: number;
  longTasks: number;
  scriptMs: number;
  jsBytes: number;
  totalBytes: number;
};

/** Root's cookie, and what a running gateway has: tokens and the usage rows of real calls. */
async function seed(baseUrl: string, upstreamUrl: string): Promise<{ name: string; value: string }[]> {
  const login = await fetch(`${baseUrl}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "root", password: "123456" }),
  });
  if (!login.ok) throw new Error(`root sign-in failed: ${login.status}`);
  const cookies = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) }));
  const headers = {
    "Content-Type": "application/json",
    "New-Api-User": "1",
    Cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { success: boolean; message?: string; data?: unknown };
    if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
    return json.data;
  };
  const model = "bench-chat";
  await api("POST", "/api/channel/", {
    type: 1,
    name: "bench",
    key: "sk-x",
    base_url: upstreamUrl,
    models: model,
    group: "default",
  });
  const options = (await api("GET", "/api/option/")) as { key: string; value: string }[];
  const prices = JSON.parse(options.find((o) => o.key === "ModelPrice")?.value || "{}") as Record<string, number>;
  await api("PUT", "/api/option/", { key: "ModelPrice", value: JSON.stringify({ ...prices, [model]: 0.002 }) });
  for (let i = 1; i <= SEED_TOKENS; i++) {
    await api("POST", "/api/token/", {
      name: `bench-${String(i).padStart(3, "0")}`,
      remain_quota: 500000 * i,
      unlimited_quota: i % 3 === 0,
      expired_time: -1,
    });
  }
  const tokens = (await api("GET", "/api/token/?p=0&size=1")) as { id: number }[];
  const { key } = (await api("GET", `/api/token/${tokens[0]!.id}/key`)) as { key: string };
  // A few at a time, as clients do; each call is one consumption row.
  for (let done = 0; done < SEED_LOGS; done += 5) {
    await Promise.all(
      Array.from({ length: Math.min(5, SEED_LOGS - done) }, async () => {
        const res = await fetch(`${baseUrl}/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
        });
        if (res.status !== 200) throw new Error(`relay call: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }),
    );
  }
  return cookies;
}

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { frame?: string; data?: { frame?: string; documentLoaderURL?: string } };
};

/** What runs JavaScript on the renderer's main thread, in Chromium's trace ("devtools.timeline", "v8.execute"). */
const SCRIPT_EVENTS = new Set([
  "EvaluateScript",
  "v8.evaluateModule",
  "FunctionCall",
  "TimerFire",
  "FireAnimationFrame",
  "RunMicrotasks",
  "FireIdleCallback",
]);

/**
 * From a trace of one load: the end of the last script execution in the page's frame (or, for
 * events that carry no frame, on its main thread), and the tasks over 50 ms — both relative to
 * the navigation start of `url`, the same origin as the page's performance entries.
 */
function readTrace(buffer: Buffer, url: string): { scriptEnd: number; longTasks: number } {
  const parsed = JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const start = events.find((e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL === url);
  if (!start) throw new Error(`no navigationStart for ${url} in the trace`);
  const frame = start.args?.frame;
  const onMainThread = (e: TraceEvent) => e.pid === start.pid && e.tid === start.tid && e.ts >= start.ts;
  let scriptEnd = 0;
  let longTasks = 0;
  for (const e of events) {
    if (!onMainThread(e) || e.ph !== "X") continue;
    const end = (e.ts + (e.dur ?? 0) - start.ts) / 1000;
    if (e.name === "RunTask" && (e.dur ?? 0) > 50_000) longTasks++;
    const eventFrame = e.args?.data?.frame ?? e.args?.frame;
    if (SCRIPT_EVENTS.has(e.name) && (eventFrame === undefined || eventFrame === frame))
      scriptEnd = Math.max(scriptEnd, end);
  }
  return { scriptEnd, longTasks };
}

async function loadOnce(
  browser: Browser,
  baseUrl: string,
  cookies: { name: string; value: string }[],
  path: string,
): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addCookies(cookies.map((c) => ({ ...c, url: baseUrl })));
    const page = await context.newPage();
    const meter = await meterTransfer(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
    await cdp.send("Performance.enable");
    const scriptSeconds = async () =>
      (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ScriptDuration")?.value ?? NaN;
    await browser.startTracing(page, {
      categories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8.execute",
        "blink.user_timing",
        "loading",
      ],
    });
    const url = baseUrl + path;
    const response = await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    if (response?.status() !== 200 || page.url() !== url)
      throw new Error(`${path}: ${response?.status()} at ${page.url()}`);
    // Settled once script time stops growing for a while. Asked of DevTools, not of the page, so
    // the waiting itself runs no script in it.
    let before = await scriptSeconds();
    const deadline = Date.now() + 30_000;
    for (let quietSince = Date.now(); Date.now() - quietSince < SETTLE_MS && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 250));
      const now = await scriptSeconds();
      if (now - before > 0.002) quietSince = Date.now();
      before = now;
    }
    const { scriptEnd, longTasks } = readTrace(await browser.stopTracing(), url);
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      load: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd,
    }));
    const { jsBytes, totalBytes } = meter.totals();
    return {
      fcp: timing.fcp,
      load: timing.load,
      scriptDone: Math.max(timing.load, scriptEnd),
      longTasks,
      scriptMs: before * 1000,
      jsBytes,
      totalBytes,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const upstream = await startOpenAiMock();
const server = await startServer({ kind: "pglite", cwd: value("cwd") });
const browser = await chromium.launch({
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
});
try {
  log(
    `server ${server.baseUrl}${value("cwd") ? ` (build in ${value("cwd")})` : ""}; seeding ${SEED_TOKENS} tokens and ${SEED_LOGS} log rows`,
  );
  const cookies = await seed(server.baseUrl, upstream.url);
  // One unthrottled load of each page first, so the server's own first-request costs stay out.
  for (const path of PATHS) {
    const html = await (
      await fetch(server.baseUrl + path, { headers: { Cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") } })
    ).text();
    log(
      `${path}: ${
        html
          .match(/<tbody[\s\S]*?<\/tbody>/g)
          ?.join("")
          .match(/<tr[\s>]/g)?.length ?? 0
      } table rows, ${kb(Buffer.byteLength(html))} KB of HTML before compression`,
    );
  }
  const rows: (string | number)[][] = [];
  for (const path of PATHS) {
    const samples: Sample[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const sample = await loadOnce(browser, server.baseUrl, cookies, path);
      log(
        `${path} run ${run}: FCP ${sample.fcp.toFixed(0)} ms, load ${sample.load.toFixed(0)} ms, script done ${sample.scriptDone.toFixed(0)} ms (${sample.longTasks} long tasks), script ${sample.scriptMs.toFixed(0)} ms`,
      );
      samples.push(sample);
    }
    const m = (pick: (s: Sample) => number) => median(samples.map(pick));
    rows.push([
      path,
      m((s) => s.fcp).toFixed(0),
      m((s) => s.load).toFixed(0),
      m((s) => s.scriptDone).toFixed(0),
      m((s) => s.scriptMs).toFixed(0),
      m((s) => s.longTasks),
      kb(m((s) => s.jsBytes)),
      kb(m((s) => s.totalBytes)),
    ]);
  }
  console.log(`\nCPU ${RATE}× slower, cold, median of ${RUNS} loads (ms from navigation start):`);
  console.log(
    formatTable(["page", "FCP", "load", "script done", "script ms", "long tasks", "JS KB", "total KB"], rows),
  );
} finally {
  await browser.close();
  await server.stop();
  await upstream.close();
}
