import { afterEach, describe, expect, it, vi } from "vitest";

/** The deployment key every Redis channel, key and queue carries. */
async function keyWith(vars: Record<string, string | undefined>): Promise<string> {
  vi.resetModules();
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const { deploymentKey } = await import("~/utils/redis.server");
  return deploymentKey();
}

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("deployment key", () => {
  const pg = "postgres://app:secret@db:5432/switchyard";
  it("differs by Redis database number and by database, not by the database password", async () => {
    const base = await keyWith({ REDIS_PREFIX: undefined, DATABASE_URL: pg, REDIS_URL: "redis://cache:6379/0" });
    expect(base).toMatch(/^[0-9a-f]{12}$/);
    expect(await keyWith({ REDIS_URL: "redis://cache:6379/1" })).not.toBe(base);
    expect(
      await keyWith({ REDIS_URL: "redis://cache:6379/0", DATABASE_URL: "postgres://app:secret@db:5432/other" }),
    ).not.toBe(base);
    expect(await keyWith({ DATABASE_URL: "postgres://app:rotated@db:5432/switchyard" })).toBe(base);
    // No db number means database 0.
    expect(await keyWith({ DATABASE_URL: pg, REDIS_URL: "redis://cache:6379" })).toBe(base);
  });

  it("REDIS_PREFIX wins, and embedded deployments are told apart by their data directory", async () => {
    expect(await keyWith({ REDIS_PREFIX: "prod-eu", DATABASE_URL: pg, REDIS_URL: "redis://cache:6379/0" })).toBe(
      "prod-eu",
    );
    const a = await keyWith({ REDIS_PREFIX: undefined, DATABASE_URL: undefined, PGLITE_DIR: "/srv/a/pglite" });
    const b = await keyWith({ PGLITE_DIR: "/srv/b/pglite" });
    expect(a).not.toBe(b);
  });
});
