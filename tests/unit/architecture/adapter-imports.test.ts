import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Helpers several adapters use live in `adapters/shared/` (docs/architecture.md, "A new
 * provider"). An adapter reaches into another adapter's folder only when it carries that
 * provider's wire format: these pairs, and no others.
 */
const BUILT_ON: Record<string, string[]> = {
  aws: ["anthropic"],
  vertex: ["anthropic", "gemini"],
  palm: ["gemini"],
  cloudflare: ["openai-compatible"],
  jina: ["openai-compatible"],
  siliconcloud: ["openai-compatible"],
};

const ADAPTERS = fileURLToPath(new URL("../../../app/relay/adapters/", import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

function foldersImported(source: string): string[] {
  return [...source.matchAll(/from "\.\.\/([a-z0-9-]+)\//g)].map((m) => m[1]!);
}

describe("the upstream adapters", () => {
  const folders = readdirSync(ADAPTERS).filter((name) => statSync(join(ADAPTERS, name)).isDirectory());

  it("reach into another adapter's folder only to speak its wire", () => {
    const stray = folders
      .filter((folder) => folder !== "shared")
      .flatMap((folder) =>
        filesUnder(join(ADAPTERS, folder)).flatMap((file) =>
          foldersImported(readFileSync(file, "utf8"))
            .filter((target) => folders.includes(target) && target !== "shared" && target !== folder)
            .filter((target) => !(BUILT_ON[folder] ?? []).includes(target))
            .map((target) => `${file.slice(ADAPTERS.length)} imports ../${target}/`),
        ),
      );
    expect(stray).toEqual([]);
  });

  it("name only folders that exist, so the list cannot hide a renamed adapter", () => {
    const named = [...Object.keys(BUILT_ON), ...Object.values(BUILT_ON).flat()];
    expect(named.filter((name) => !folders.includes(name))).toEqual([]);
  });
});
