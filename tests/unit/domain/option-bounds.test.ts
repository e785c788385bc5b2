import { describe, expect, it } from "vitest";
import { OPTION_DEFS, validateOptionValue } from "~/domain/options/registry";

describe("every option has bounds in its definition", () => {
  it("every number has a range, every string a length cap, and every default passes its own bounds", () => {
    for (const def of OPTION_DEFS) {
      if (def.type === "int" || def.type === "float") {
        expect(def.max, def.key).toBeTypeOf("number");
        expect(def.min ?? def.above, def.key).toBeTypeOf("number");
      }
      if (def.type === "string" || def.type === "json") expect(def.maxLength, def.key).toBeTypeOf("number");
      expect(validateOptionValue(def.key, def.default), def.key).toMatchObject({ ok: true });
    }
  });

  it("values that break the gateway are refused", () => {
    expect(validateOptionValue("QuotaPerUnit", "0")).toMatchObject({ ok: false });
    expect(validateOptionValue("QuotaPerUnit", "0.5")).toMatchObject({ ok: true });
    expect(validateOptionValue("RetryTimes", "1000000000")).toMatchObject({ ok: false });
    expect(validateOptionValue("RetryTimes", "10")).toMatchObject({ ok: true });
    expect(validateOptionValue("RetryTimes", "3")).toMatchObject({ ok: true });
    expect(validateOptionValue("DataExportDefaultTime", "minute")).toMatchObject({ ok: false });
    expect(validateOptionValue("ServerAddress", "ftp://x")).toMatchObject({ ok: false });
    expect(validateOptionValue("ServerAddress", "")).toMatchObject({ ok: true });
    expect(validateOptionValue("ServerAddress", "https://gw.example.com")).toMatchObject({ ok: true });
    expect(validateOptionValue("SystemName", "x".repeat(5000))).toMatchObject({ ok: false });
    // docs/product.md, Settings: the minimum top-up input has min 1 and Price has min 0; the export interval min 1.
    expect(validateOptionValue("MinTopUp", "0")).toMatchObject({ ok: false });
    expect(validateOptionValue("MinTopUp", "1")).toMatchObject({ ok: true });
    expect(validateOptionValue("Price", "0")).toMatchObject({ ok: true });
    expect(validateOptionValue("Price", "-1")).toMatchObject({ ok: false });
    expect(validateOptionValue("DataExportInterval", "0")).toMatchObject({ ok: false });
  });
});
