import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The password module as a server started with PASSWORD_HASH_COST=`cost` loads it. */
async function passwordsAt(cost: string | undefined) {
  vi.resetModules();
  if (cost === undefined) vi.stubEnv("PASSWORD_HASH_COST", undefined as unknown as string);
  else vi.stubEnv("PASSWORD_HASH_COST", cost);
  return import("~/domain/users/passwords.server");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("PASSWORD_HASH_COST", () => {
  it("new hashes take the operator's cost; the reference's 10 when unset", async () => {
    expect(bcrypt.getRounds(await (await passwordsAt(undefined)).hashPassword("password123"))).toBe(10);
    const cheap = await passwordsAt("4");
    const hash = await cheap.hashPassword("password123");
    expect(bcrypt.getRounds(hash)).toBe(4);
    expect(await cheap.verifyPassword("password123", hash)).toBe(true);
    expect(await cheap.verifyPassword("password124", hash)).toBe(false);
  });

  it("a hash made at another cost (an imported one, or one from before a change) still verifies", async () => {
    const older = bcrypt.hashSync("password123", 10);
    const { verifyPassword } = await passwordsAt("5");
    expect(await verifyPassword("password123", older)).toBe(true);
    expect(await verifyPassword("wrong", older)).toBe(false);
  });

  it("a cost outside 4-15 stops the start with the variable named", async () => {
    for (const cost of ["3", "16", "ten"])
      await expect(passwordsAt(cost)).rejects.toThrow(/Invalid environment: PASSWORD_HASH_COST/);
  });
});
