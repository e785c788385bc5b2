import { describe, expect, it } from "vitest";

// Every file of the English catalog, read apart: the merged catalog would hide a key given two
// different translations (the later file silently wins).
const files = import.meta.glob<Record<string, Record<string, string>>>("../../../app/i18n/en/*.ts", { eager: true });

describe("the English catalog's files", () => {
  it("give a key shared by two areas the same English", () => {
    const seen = new Map<string, { file: string; text: string }>();
    const conflicts: string[] = [];
    for (const [file, exports] of Object.entries(files)) {
      if (file.endsWith("/index.ts")) continue;
      for (const catalog of Object.values(exports)) {
        for (const [key, text] of Object.entries(catalog)) {
          const before = seen.get(key);
          if (before && before.text !== text)
            conflicts.push(
              `${key}: ${JSON.stringify(before.text)} (${before.file}) ≠ ${JSON.stringify(text)} (${file})`,
            );
          else seen.set(key, { file, text });
        }
      }
    }
    expect(Object.keys(files).length).toBeGreaterThan(5);
    expect(conflicts).toEqual([]);
  });
});
