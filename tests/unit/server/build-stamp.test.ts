import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const STAMP_SCRIPT = resolve("server/build-stamp.mjs");

// A checkout in miniature: one source file and a "build" that writes the entries (server, import) and counts its runs.
function makeCheckout(buildCommand: string): string {
  const dir = mkdtempSync(join(tmpdir(), "sy-stamp-"));
  mkdirSync(join(dir, "app"));
  writeFileSync(join(dir, "app", "root.tsx"), "export const version = 1;\n");
  const scripts = { build: buildCommand, postbuild: `node ${JSON.stringify(STAMP_SCRIPT)} --write` };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "mini", private: true, scripts }));
  return dir;
}

const BUILD_OK = `node -e "const fs=require('fs');fs.mkdirSync('build/entry/server',{recursive:true});fs.writeFileSync('build/entry/server/index.mjs','');fs.writeFileSync('build/entry/server/import.mjs','');fs.appendFileSync('builds.txt','x')"`;

function start(dir: string) {
  const run = spawnSync(process.execPath, [STAMP_SCRIPT], { cwd: dir, encoding: "utf8" });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const builds = (dir: string) => readFileSync(join(dir, "builds.txt"), "utf8").length;

describe("npm start rebuilds when the sources changed (prestart stamp)", () => {
  let dir = "";
  beforeEach(() => void (dir = ""));
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("builds on the first start, not on the next, and again after a source changed", () => {
    dir = makeCheckout(BUILD_OK);
    const first = start(dir);
    expect(first.status).toBe(0);
    expect(first.out).toContain("first start: building");
    expect(builds(dir)).toBe(1);

    const second = start(dir);
    expect(second.status).toBe(0);
    expect(second.out).toBe("");
    expect(builds(dir)).toBe(1);

    // What a `git pull` does: a source file changes under an existing build.
    writeFileSync(join(dir, "app", "root.tsx"), "export const version = 2;\n");
    const third = start(dir);
    expect(third.out).toContain("the sources changed since the last build: rebuilding");
    expect(builds(dir)).toBe(2);
    expect(start(dir).out).toBe("");
  });

  it("shows the build's output and fails the start when the build fails", () => {
    dir = makeCheckout(`node -e "console.error('vite: syntax error in app/root.tsx'); process.exit(3)"`);
    const run = start(dir);
    expect(run.status).not.toBe(0);
    expect(run.out).toContain("vite: syntax error in app/root.tsx");
    expect(run.out).toContain("the build failed");
  });
});
