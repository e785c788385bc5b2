import { describe, expect, it } from "vitest";
import { retryOnDeadlock } from "~/relay/billing/retry-on-deadlock";

const pgError = (code: string) => Object.assign(new Error(code), { code });

describe("retryOnDeadlock", () => {
  it("runs a statement PostgreSQL aborted to break a deadlock again until it goes through", async () => {
    let runs = 0;
    const result = await retryOnDeadlock(async () => {
      runs += 1;
      if (runs < 3) throw pgError("40P01");
      return "settled";
    });
    expect({ result, runs }).toEqual({ result: "settled", runs: 3 });
  });

  it("passes any other failure (a short balance) straight through, once", async () => {
    let runs = 0;
    await expect(
      retryOnDeadlock(async () => {
        runs += 1;
        throw pgError("23514");
      }),
    ).rejects.toThrow("23514");
    expect(runs).toBe(1);
  });

  it("gives up after its attempts", async () => {
    let runs = 0;
    await expect(
      retryOnDeadlock(async () => {
        runs += 1;
        throw pgError("40001");
      }, 3),
    ).rejects.toThrow("40001");
    expect(runs).toBe(3);
  });
});
