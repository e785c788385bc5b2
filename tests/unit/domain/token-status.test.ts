import { describe, expect, it } from "vitest";
import { effectiveTokenStatus, tokenStatusLabel } from "~/domain/tokens/token-status";

const NOW = 1_800_000_000;
const token = (over: Partial<Parameters<typeof effectiveTokenStatus>[0]>) => ({
  status: 1,
  expired_time: -1,
  unlimited_quota: false,
  remain_quota: 100,
  ...over,
});

describe("effectiveTokenStatus", () => {
  it("reads an enabled token whose expiry has passed as expired (已过期), as the relay refuses it", () => {
    const status = effectiveTokenStatus(token({ expired_time: NOW - 1 }), NOW);
    expect(status).toBe(3);
    expect(tokenStatusLabel(status, false).label).toBe("已过期");
  });

  it("keeps an enabled token enabled up to its expiry second, and a never-expiring one always", () => {
    expect(effectiveTokenStatus(token({ expired_time: NOW }), NOW)).toBe(1);
    expect(effectiveTokenStatus(token({ expired_time: NOW + 60 }), NOW)).toBe(1);
    expect(effectiveTokenStatus(token({ expired_time: -1 }), NOW)).toBe(1);
  });

  it("reads a limited token with no quota left as exhausted (已耗尽); an unlimited one is never exhausted", () => {
    expect(effectiveTokenStatus(token({ remain_quota: 0 }), NOW)).toBe(4);
    expect(effectiveTokenStatus(token({ remain_quota: -5 }), NOW)).toBe(4);
    expect(tokenStatusLabel(4, false).label).toBe("已耗尽");
    expect(effectiveTokenStatus(token({ remain_quota: 0, unlimited_quota: true }), NOW)).toBe(1);
  });

  it("says expired before exhausted, as the relay's refusal does", () => {
    expect(effectiveTokenStatus(token({ expired_time: NOW - 1, remain_quota: 0 }), NOW)).toBe(3);
  });

  it("leaves a disabled token disabled and a stored 3/4 as stored", () => {
    expect(effectiveTokenStatus(token({ status: 2, expired_time: NOW - 1, remain_quota: 0 }), NOW)).toBe(2);
    expect(effectiveTokenStatus(token({ status: 3 }), NOW)).toBe(3);
    expect(effectiveTokenStatus(token({ status: 4, remain_quota: 100 }), NOW)).toBe(4);
  });
});
