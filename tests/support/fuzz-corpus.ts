import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The hostile-input corpus and route discovery of the input fuzzer (decision 011). Routes
 * are read from app/routes so a new route is fuzzed without anyone editing the test.
 */

/** mulberry32: a tiny seeded PRNG, so every run tries the same cases in the same order. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return picked;
}

/** Raw path segments and query values, already in URL form: some are deliberately bad escapes. */
export const HOSTILE_URL_VALUES = [
  "2147483648",
  "2147483647",
  "9999999999999999999999",
  "-1",
  "0",
  "-2147483649",
  "1e20",
  "1.5",
  "0x10",
  "abc",
  "NaN",
  "Infinity",
  "%00",
  "a%00b",
  "%0D%0A",
  "%0B",
  "%1B%5B31m",
  "%",
  "%ZZ",
  "%E0%A4%A",
  "%C0%AF",
  "%F0%9F%98%80".repeat(40),
  "x".repeat(4000),
  "%20",
  "true",
  "'%20OR%201%3D1--",
  "%2E%2E%2F%2E%2E",
  "%5B%5D",
  "%7B%7D",
  "%FF%FE",
] as const;

const LONG = "x".repeat(100_000);
const EMOJI_RUN = "😀".repeat(5_000);

/** JSON values for body fields: huge, negative, out-of-range, control characters, wrong types. */
export const HOSTILE_JSON_VALUES: unknown[] = [
  2147483648,
  -1,
  0,
  -2147483649,
  1e20,
  -1e20,
  1e308,
  2 ** 53 + 2,
  1.5,
  -0.5,
  "2147483648",
  "1e20",
  "NaN",
  "Infinity",
  "-Infinity",
  "",
  " ",
  "abc",
  "\u0000",
  "a\u0000b",
  "\r\nSet-Cookie: x=1",
  "\v",
  "\u001b[31m",
  "\u0007\u0008\u007f",
  "\ud800",
  EMOJI_RUN,
  LONG,
  "%E0%A4%A",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "true",
  "false",
  "null",
  [],
  {},
  [1, 2, 3],
  ["\u0000"],
  { a: 1 },
  { $ne: null },
  true,
  false,
  null,
];

/** Form values are strings: the same corpus, stringified where it is not one already. */
export const HOSTILE_FORM_VALUES: string[] = [
  "2147483648",
  "-1",
  "0",
  "-2147483649",
  "1e20",
  "1e308",
  "9007199254740993",
  "1.5",
  "NaN",
  "Infinity",
  "",
  " ",
  "abc",
  "\u0000",
  "a\u0000b",
  "\r\n",
  "\v",
  "\u001b[31m",
  "\u0007\u007f",
  EMOJI_RUN,
  LONG,
  "%E0%A4%A",
  "' OR 1=1 --",
  "<script>",
  "on",
  "true",
  "[]",
  "{}",
  "//evil.example",
  "/\\evil.example",
  "/%0D%0ALocation:%20x",
];

/** Whole bodies: not JSON, wrong top-level types, 100 000 levels of nesting, invalid UTF-8, a BOM; optionally one over 1 MiB. */
export function hostileRawBodies(withOversize: boolean): (string | Buffer)[] {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const bodies: (string | Buffer)[] = [
    "{",
    "not json",
    "[]",
    "null",
    "1e999",
    '"\u0000"',
    deep,
    `{"a":${deep}}`,
    `{"messages":${deep}}`,
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    `\ufeff{}`,
  ];
  if (withOversize) bodies.push(`{"a":"${"x".repeat(1_100_000)}"}`);
  return bodies;
}

export type DiscoveredRoute = {
  file: string;
  /** The URL with `$param` placeholders, e.g. /api/channel/test/$id; a splat is `$`. */
  pattern: string;
  params: string[];
  hasLoader: boolean;
  hasAction: boolean;
  /** Query parameter names the route reads (searchParams.get/getAll and readPage's). */
  queryNames: string[];
  /** Form field names the route reads itself (form.get/getAll). */
  formNames: string[];
  source: string;
};

const ROUTES_DIR = join(process.cwd(), "app/routes");

function urlOf(file: string): { pattern: string; params: string[] } {
  const stem = file.replace(/\.(tsx?|jsx?)$/, "");
  // A trailing `_` (flat routes: not nested in the parent's layout) is not part of the URL.
  const segments = stem
    .split(".")
    .filter((s) => s !== "_index" && !s.startsWith("_"))
    .map((s) => (s.endsWith("_") ? s.slice(0, -1) : s));
  const params = segments.filter((s) => s.startsWith("$")).map((s) => s.slice(1) || "*");
  const pattern = `/${segments.join("/")}${stem.endsWith("_index") && segments.length > 0 ? "/" : ""}`;
  return { pattern, params };
}

function namesIn(source: string, pattern: RegExp): string[] {
  return [...new Set([...source.matchAll(pattern)].map((m) => m[1]!))];
}

export function discoverRoutes(): DiscoveredRoute[] {
  return readdirSync(ROUTES_DIR)
    .filter((f) => /\.(tsx?|jsx?)$/.test(f))
    .sort()
    .map((file) => {
      const source = readFileSync(join(ROUTES_DIR, file), "utf8");
      const { pattern, params } = urlOf(file);
      // `url.searchParams.get("x")`, `params.get("x")`, `q.get("x")`: every `.get("…")` that is not a form's or a header's.
      const queryNames = [...source.matchAll(/(\w+)\.get(?:All)?\("([^"]+)"\)/g)]
        .filter((m) => !/^(form|formData|headers)$/i.test(m[1]!))
        .map((m) => m[2]!);
      if (/readPage\(|readLogPage\(|rememberedListPrefs\(/.test(source)) queryNames.push("p", "page_size", "size");
      if (/readTaskFilter\(|pageTaskFilter\(/.test(source))
        queryNames.push("p", "channel_id", "mj_id", "task_id", "start_timestamp", "end_timestamp", "start", "end");
      if (/readLogFilter\(/.test(source))
        queryNames.push(
          "type",
          "token_name",
          "model_name",
          "start_timestamp",
          "end_timestamp",
          "username",
          "channel",
          "start",
          "end",
        );
      return {
        file,
        pattern,
        params,
        hasLoader: /export (?:async )?function loader|export const loader/.test(source),
        hasAction: /export (?:async )?function action|export const action/.test(source),
        queryNames: [...new Set(queryNames)],
        formNames: namesIn(source, /form\.get(?:All)?\("([^"]+)"\)/g),
        source,
      };
    });
}

/** Fills every `$param` of a pattern: `hostile` for the one under test, a plain value for the rest. */
export function fillPattern(pattern: string, value: string): string {
  return pattern.replace(/\$[A-Za-z_]*/g, value);
}

/**
 * The task relay's surfaces (decision 030): path, a valid body, the fields to make hostile. `auth` is
 * how the client presents its key there (Midjourney clients use `mj-api-secret`).
 */
export const TASK_RELAY_BASES: {
  path: string;
  auth: "mj" | "bearer";
  body: Record<string, unknown>;
  fields: string[];
}[] = [
  {
    path: "/mj/submit/imagine",
    auth: "mj",
    body: { prompt: "a fuzzy cat", base64Array: [], state: "s" },
    fields: ["prompt", "base64Array", "notifyHook", "state", "botType", "accountFilter"],
  },
  { path: "/fast/mj/submit/imagine", auth: "bearer", body: { prompt: "a fuzzy cat --fast" }, fields: ["prompt"] },
  {
    path: "/mj/submit/change",
    auth: "mj",
    body: { taskId: "1", action: "UPSCALE", index: 1 },
    fields: ["taskId", "action", "index"],
  },
  { path: "/mj/submit/simple-change", auth: "mj", body: { content: "1 U1" }, fields: ["content"] },
  {
    path: "/mj/submit/action",
    auth: "mj",
    body: { taskId: "1", customId: "MJ::JOB::upsample::1::abc" },
    fields: ["taskId", "customId"],
  },
  {
    path: "/mj/submit/modal",
    auth: "mj",
    body: { taskId: "1", prompt: "p" },
    fields: ["taskId", "prompt", "maskBase64"],
  },
  { path: "/mj/submit/describe", auth: "mj", body: { base64: "data:image/png;base64,AAAA" }, fields: ["base64"] },
  {
    path: "/mj/submit/blend",
    auth: "mj",
    body: { base64Array: ["data:image/png;base64,AAAA", "data:image/png;base64,AAAA"], dimensions: "SQUARE" },
    fields: ["base64Array", "dimensions"],
  },
  {
    path: "/mj/insight-face/swap",
    auth: "mj",
    body: { sourceBase64: "a", targetBase64: "b" },
    fields: ["sourceBase64", "targetBase64"],
  },
  { path: "/mj/task/list-by-condition", auth: "mj", body: { ids: ["1"] }, fields: ["ids"] },
  {
    path: "/mj/notify?channel=1&sig=00",
    auth: "mj",
    body: { id: "1", status: "FAILURE" },
    fields: ["id", "status", "progress", "failReason"],
  },
  {
    path: "/suno/submit/music",
    auth: "bearer",
    body: { gpt_description_prompt: "rain", mv: "chirp-v3-5" },
    fields: ["prompt", "gpt_description_prompt", "mv", "continue_clip_id", "task_id", "make_instrumental"],
  },
  { path: "/suno/submit/lyrics", auth: "bearer", body: { prompt: "rain" }, fields: ["prompt"] },
  { path: "/suno/fetch", auth: "bearer", body: { ids: ["1"] }, fields: ["ids"] },
];

/** Task relay addresses with broken or hostile path parts (GET). */
export const TASK_RELAY_URLS = [
  "/mj/task/%ZZ/fetch",
  "/mj/task/%00/fetch",
  "/mj/task/%E0%A4%A/image-seed",
  "/mj/image/%ZZ",
  "/mj/image/%00",
  "/mj/image/" + "x".repeat(4000),
  "/relax/mj/task/1/fetch",
  "/turbo/mj/%ZZ",
  "/suno/fetch/%ZZ",
  "/suno/fetch/%00",
  "/suno/fetch/" + "9".repeat(40),
  "/suno/submit/%ZZ",
  "/mj/notify?channel=%ZZ",
];
