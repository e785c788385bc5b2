import { describe, expect, it } from "vitest";
import { webConcurrency } from "../../../server/web-concurrency";

const scaled = { DATABASE_URL: "postgres://db/x", REDIS_URL: "redis://r" };

describe("how many web processes npm start runs", () => {
  it("one per core by default when PostgreSQL and Redis are shared", () => {
    expect(webConcurrency(scaled, 4)).toEqual({ count: 4 });
  });
  it("WEB_CONCURRENCY wins over the core count, up or down", () => {
    expect(webConcurrency({ ...scaled, WEB_CONCURRENCY: "3" }, 2)).toEqual({ count: 3 });
    expect(webConcurrency({ ...scaled, WEB_CONCURRENCY: "1" }, 8)).toEqual({ count: 1 });
  });
  it("embedded (no DATABASE_URL) or without Redis it is one process, and an explicit request says why", () => {
    expect(webConcurrency({}, 4)).toEqual({ count: 1 });
    expect(webConcurrency({ DATABASE_URL: "postgres://db/x" }, 4)).toEqual({ count: 1 });
    const refused = webConcurrency({ DATABASE_URL: "postgres://db/x", WEB_CONCURRENCY: "2" }, 4);
    expect(refused.count).toBe(1);
    expect(refused.note).toContain("REDIS_URL");
    expect(webConcurrency({ WEB_CONCURRENCY: "2" }, 4).note).toContain("DATABASE_URL and REDIS_URL");
  });
  it("a value that is not a whole positive number runs one process with a note", () => {
    for (const bad of ["0", "-2", "1.5", "lots"]) {
      const result = webConcurrency({ ...scaled, WEB_CONCURRENCY: bad }, 4);
      expect(result.count).toBe(1);
      expect(result.note).toContain(`WEB_CONCURRENCY=${bad}`);
    }
  });
  it("a blank value is the default", () => {
    expect(webConcurrency({ ...scaled, WEB_CONCURRENCY: " " }, 2)).toEqual({ count: 2 });
  });
});
