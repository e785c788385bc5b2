import { describe, expect, it } from "vitest";
import { parseExpiryInput } from "~/domain/tokens/token-constants";
import { formatTimestamp, isTimeZone, parseWallClock } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";

// 2030-01-01T00:00:00Z
const NEW_YEAR_UTC = Date.UTC(2030, 0, 1) / 1000;

describe("console times in the visitor's zone", () => {
  it("shows one instant as each zone's wall clock", () => {
    expect(formatTimestamp(NEW_YEAR_UTC, "UTC")).toBe("2030-01-01 00:00:00");
    expect(formatTimestamp(NEW_YEAR_UTC, "Asia/Shanghai")).toBe("2030-01-01 08:00:00");
    expect(formatTimestamp(NEW_YEAR_UTC, "America/New_York")).toBe("2029-12-31 19:00:00");
    expect(formatTimestamp(0, "UTC")).toBe("-");
  });

  it("reads a typed time in the zone it was shown in, so what is shown is what is saved", () => {
    expect(parseWallClock("2030-01-01 08:00:00", "Asia/Shanghai")).toBe(NEW_YEAR_UTC);
    expect(parseWallClock("2030-01-01T08:00", "Asia/Shanghai")).toBe(NEW_YEAR_UTC); // datetime-local
    expect(parseWallClock("2030/01/01 08:00", "Asia/Shanghai")).toBe(NEW_YEAR_UTC);
    expect(parseWallClock("2029-12-31 19:00:00", "America/New_York")).toBe(NEW_YEAR_UTC);
    expect(parseWallClock("2030-01-01", "UTC")).toBe(NEW_YEAR_UTC);
    // A time that names its offset keeps it, whatever the zone.
    expect(parseWallClock("2030-01-01T00:00:00Z", "Asia/Shanghai")).toBe(NEW_YEAR_UTC);
    for (const zone of ["UTC", "Asia/Shanghai", "America/New_York", "Europe/Berlin", "Asia/Kolkata"]) {
      for (const seconds of [NEW_YEAR_UTC, NEW_YEAR_UTC + 180 * 86400 + 3723]) {
        expect(parseWallClock(formatTimestamp(seconds, zone), zone)).toBe(seconds);
      }
    }
  });

  it("reads daylight-saving edges as browsers do", () => {
    // 02:30 does not exist on 2030-03-10 in New York: read with the offset before the change (03:30 EDT).
    expect(formatTimestamp(parseWallClock("2030-03-10 02:30:00", "America/New_York"), "America/New_York")).toBe(
      "2030-03-10 03:30:00",
    );
    // 01:30 happens twice on 2030-11-03: the first (EDT, 05:30Z).
    expect(parseWallClock("2030-11-03 01:30:00", "America/New_York")).toBe(Date.UTC(2030, 10, 3, 5, 30) / 1000);
    // Berlin's repeated 02:30 on 2030-10-27: the first (CEST, 00:30Z).
    expect(parseWallClock("2030-10-27 02:30:00", "Europe/Berlin")).toBe(Date.UTC(2030, 9, 27, 0, 30) / 1000);
  });

  it("refuses what is not a time", () => {
    for (const text of [
      "next tuesday-ish",
      "2030-02-31 00:00:00",
      "2030-01-01 25:00:00",
      "2030-13-01",
      "",
      "1700000000",
    ]) {
      expect(parseWallClock(text, "UTC"), text).toBeNaN();
    }
    expect(parseExpiryInput("2030-02-30 10:00:00", "UTC")).toBe("invalid");
    expect(parseExpiryInput("  ", "UTC")).toBe(-1);
  });

  it("reads a request's zone from its tz cookie, else shows the server's own", () => {
    // The server's zone is its TZ, read when a request first needs it (not at start).
    const saved = process.env.TZ;
    process.env.TZ = "Pacific/Auckland";
    try {
      const withCookie = (cookie?: string) =>
        requestTimeZone(new Request("http://localhost/log", { headers: cookie ? { Cookie: cookie } : {} }));
      expect(withCookie()).toBe("Pacific/Auckland");
      expect(withCookie("theme=dark; tz=Asia%2FShanghai")).toBe("Asia/Shanghai");
      expect(withCookie("tz=Mars%2FOlympus")).toBe("Pacific/Auckland");
      expect(withCookie("tz=%E0%A4%A")).toBe("Pacific/Auckland");
      expect(withCookie("theme=dark")).toBe("Pacific/Auckland");
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("knows real zone names only", () => {
    expect(isTimeZone("Asia/Shanghai")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
  });
});

describe("time rendering is total", () => {
  it("a stored expiry beyond what a Date holds renders as its number instead of throwing RangeError", () => {
    expect(() => formatTimestamp(99999999999999, "UTC")).not.toThrow();
    expect(formatTimestamp(99999999999999, "Asia/Shanghai")).toBe("99999999999999");
    expect(formatTimestamp(Number.NaN, "UTC")).toBe("-");
    expect(formatTimestamp(253402300799, "UTC")).toBe("9999-12-31 23:59:59");
  });
});
