import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * docs/decisions/README.md is the way into the decision records: a record it does not list, or
 * one that does not say whether it still holds, is a record nobody finds or can trust.
 */
const DIR = fileURLToPath(new URL("../../../docs/decisions/", import.meta.url));
const records = readdirSync(DIR).filter((name) => /^\d{3}-.+\.md$/.test(name));
const index = readFileSync(`${DIR}README.md`, "utf8");

describe("the decision records", () => {
  it("are all listed in the index, each under its own number", () => {
    const unlisted = records.filter(
      (name) => !index.includes(`| ${name.slice(0, 3)} | [`) || !index.includes(`](${name})`),
    );
    expect(unlisted).toEqual([]);
  });

  it("each say their status near the top", () => {
    const silent = records.filter(
      (name) => !/^Status: \S/m.test(readFileSync(`${DIR}${name}`, "utf8").split("\n").slice(0, 6).join("\n")),
    );
    expect(silent).toEqual([]);
  });

  it("link only to records that exist", () => {
    const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]!);
    expect(linked.filter((name) => !records.includes(name))).toEqual([]);
  });
});
