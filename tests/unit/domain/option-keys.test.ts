import { describe, expect, it } from "vitest";
import { isOptionKey, OPTION_DEFS, type OptionKey } from "~/domain/options/registry";
import { createOptionReader } from "~/domain/options/typed";

// The compile-time half of this file is checked by `npm run typecheck` (tests are in the
// project): each @ts-expect-error below fails the typecheck the day its line compiles.
describe("option keys", () => {
  const stored = new Map<string, string>([["RetryTimes", "2"]]);
  const options = createOptionReader((key) => stored.get(key));

  it("read a registered option by its name", () => {
    expect(options.int("RetryTimes")).toBe(2);
    expect(options.bool("PasswordLoginEnabled")).toBe(true);
  });

  it("refuse a misspelt name at compile time, for every kind of read", () => {
    const misspelt = () => [
      // @ts-expect-error "RetryTime" is not an option
      options.int("RetryTime"),
      // @ts-expect-error option names are case-sensitive
      options.bool("passwordLoginEnabled"),
      // @ts-expect-error an arbitrary string is not an option name
      options.string(String("SystemName")),
      // @ts-expect-error not an option
      options.json<unknown>("ModelRatios"),
    ];
    expect(typeof misspelt).toBe("function");
    const typed: OptionKey = "QuotaPerUnit";
    expect(isOptionKey(typed)).toBe(true);
  });

  it("tell names from outside apart: only registered ones are option keys", () => {
    expect(OPTION_DEFS.every((def) => isOptionKey(def.key))).toBe(true);
    expect(isOptionKey("RetryTime")).toBe(false);
    expect(isOptionKey("__proto__")).toBe(false);
  });
});
