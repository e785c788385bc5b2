import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * "The domain never sees a `Request`" (docs/architecture.md): page glue that reads a request, its
 * cookies or its headers lives in app/web/; domain functions take plain values. This reads every
 * source file under app/domain/ and fails on a `Request` in its code (a parameter, a type, an
 * import), on Remix (`createCookie` and friends) and on the request helpers of
 * `~/utils/request.server`. Comments and string contents are ignored, so prose about requests
 * and a name like `allowRequest` do not count.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const domainDir = join(root, "app", "domain");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The code of a source file with comments removed and every string literal emptied (its quotes
 * kept, so an import's module name can still be checked separately).
 */
function codeOnly(source: string): string {
  return source.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g,
    (match) => (match.startsWith("/") ? " " : match.charAt(0).repeat(2)),
  );
}

/** The module names a source file imports from (comments removed first). */
function importedModules(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, " ");
  return [...code.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1] ?? "");
}

/** What in a domain source file breaks the rule, one line per finding. */
function violations(source: string): string[] {
  const found: string[] = [];
  if (/(?<![\w$.])Request(?![\w$])/.test(codeOnly(source))) found.push("uses the type Request");
  for (const name of importedModules(source)) {
    if (name.startsWith("@remix-run/")) found.push(`imports ${name}`);
    if (/(?:^|\/)request\.server$/.test(name)) found.push(`imports the request helpers ${name}`);
  }
  return found;
}

describe("the domain never sees a Request", () => {
  it("flags a Request parameter, a Request import and Remix, but not comments, strings or longer names", () => {
    expect(violations("export function f(request: Request): string { return ''; }")).toEqual(["uses the type Request"]);
    expect(violations('import type { Request } from "undici";')).toEqual(["uses the type Request"]);
    expect(violations('import { createCookie } from "@remix-run/node";')).toEqual(["imports @remix-run/node"]);
    expect(violations('import { clientIp } from "~/utils/request.server";')).toEqual([
      "imports the request helpers ~/utils/request.server",
    ]);
    expect(
      violations("/** Reads the Request. */\n// a Request here\nconst s = 'Bad Request';\nawait allowRequest(key);"),
    ).toEqual([]);
    expect(violations('const url = "https://example.com"; function f(r: Request) {}')).toEqual([
      "uses the type Request",
    ]);
  });

  it("holds for every file under app/domain", () => {
    const files = sourceFiles(domainDir);
    expect(files.length).toBeGreaterThan(0);
    const broken = files.flatMap((file) =>
      violations(readFileSync(file, "utf8")).map((what) => `${relative(root, file)}: ${what}`),
    );
    expect(broken).toEqual([]);
  });
});
