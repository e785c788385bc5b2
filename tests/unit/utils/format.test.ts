import { describe, expect, it } from "vitest";
import { renderQuota } from "~/utils/format";

describe("renderQuota in currency", () => {
  it("keeps two decimals for ordinary amounts", () => {
    expect(renderQuota(500000, true)).toBe("$1.00");
    expect(renderQuota(5000, true)).toBe("$0.01");
    expect(renderQuota(0, true)).toBe("$0.00");
  });

  it("never shows a non-zero amount as $0.00", () => {
    // 3 quota units at 500000 per dollar: the log row's $0.000006.
    expect(renderQuota(3, true)).toBe("$0.000006");
    expect(renderQuota(1000, true)).toBe("$0.002");
    expect(renderQuota(-3, true)).toBe("$-0.000006");
  });

  it("shows an amount below six decimals as six zeros, not as a rounded-up value", () => {
    expect(renderQuota(0.1, true)).toBe("$0.000000");
  });

  it("leaves the requested digits alone when they already show the amount", () => {
    expect(renderQuota(3, true, 500000, 6)).toBe("$0.000006");
  });

  it("abbreviates quota units when currency is off", () => {
    expect(renderQuota(3, false)).toBe("3");
    expect(renderQuota(25000, false)).toBe("25k");
  });
});
