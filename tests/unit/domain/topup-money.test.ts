import { describe, expect, it } from "vitest";
import { formatYuan, minimumAmount, parseYuan, payableCents, quotaForAmount } from "~/domain/payments/money";

const base = { price: 7.3, groupRatio: 1, displayInCurrency: true, quotaPerUnit: 500000 };

describe("top-up money", () => {
  it("charges amount × Price × group ratio, exact to the fen", () => {
    expect(payableCents({ ...base, amount: 10 })).toBe(7300);
    expect(payableCents({ ...base, amount: 1, groupRatio: 1.1 })).toBe(803);
    expect(payableCents({ ...base, amount: 3, price: 0.1, groupRatio: 0.7 })).toBe(21);
    // A float product would be 8.030000000000001 or 0.21000000000000002: exact decimals do not drift.
    expect(payableCents({ ...base, amount: 100, price: 7.3, groupRatio: 0.85 })).toBe(62050);
  });

  it("rounds half up once, at the end", () => {
    expect(payableCents({ ...base, amount: 1, price: 0.005 })).toBe(1);
    expect(payableCents({ ...base, amount: 1, price: 0.0049 })).toBe(0);
    expect(payableCents({ ...base, amount: 3, price: 1.235 })).toBe(371);
  });

  it("treats a group ratio of 0 as 1, as the reference", () => {
    expect(payableCents({ ...base, amount: 10, groupRatio: 0 })).toBe(7300);
  });

  it("divides quota units by QuotaPerUnit when currency display is off", () => {
    expect(payableCents({ ...base, displayInCurrency: false, amount: 750000 })).toBe(1095);
    expect(quotaForAmount(750000, false, 500000)).toBe(750000);
    expect(quotaForAmount(10, true, 500000)).toBe(5_000_000);
    expect(minimumAmount(2, false, 500000)).toBe(1_000_000);
    expect(minimumAmount(2, true, 500000)).toBe(2);
  });

  it("refuses sums that are not payable", () => {
    expect(payableCents({ ...base, amount: -1 })).toBeUndefined();
    expect(payableCents({ ...base, amount: 1.5 })).toBeUndefined();
    expect(payableCents({ ...base, amount: Number.MAX_SAFE_INTEGER, price: 1e6 })).toBeUndefined();
    expect(quotaForAmount(Number.MAX_SAFE_INTEGER, true, 500000)).toBeUndefined();
  });

  it("writes and reads yuan strings as Epay does", () => {
    expect(formatYuan(7300)).toBe("73.00");
    expect(formatYuan(5)).toBe("0.05");
    expect(parseYuan("73.00")).toBe(7300);
    expect(parseYuan("73.0")).toBe(7300);
    expect(parseYuan("73")).toBe(7300);
    expect(parseYuan("0.05")).toBe(5);
    for (const bad of ["", "73.001", "-1", "7e1", "73,00", "abc", " "]) expect(parseYuan(bad), bad).toBeUndefined();
  });
});
