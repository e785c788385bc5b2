import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const SERVER_BUILD = resolve("build/server/index.js");
const ICU_TRACE = resolve("tests/support/icu-trace.mjs");

describe("a node's footprint at start", () => {
  // ICU maps its locale and zone data into the process at the first formatter or collator: 5.5 MB
  // of resident memory that a node which only relays never needs (decision 039). Console pages
  // still format times, and pay for it when one is first rendered.
  it("loading the server build asks ICU for nothing", () => {
    expect(existsSync(SERVER_BUILD), "run `npm run build` first").toBe(true);
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        ICU_TRACE,
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(pathToFileURL(SERVER_BUILD).href)});`,
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("[icu]");
  });
});
