import { beforeEach, describe, expect, it, vi } from "vitest";

// The gate keeps its state on globalThis (development reloads modules); each test starts clean.
beforeEach(() => {
  delete (globalThis as { __switchyardBootGate?: unknown }).__switchyardBootGate;
});

async function freshGate() {
  vi.resetModules();
  return import("~/utils/boot-gate.server");
}

describe("boot gate", () => {
  it("refuses to wait for a boot nobody started, instead of hanging the request", async () => {
    const gate = await freshGate();
    await expect(gate.whenBooted()).rejects.toThrow(/server\/boot\.ts/);
    expect(gate.isBooted()).toBe(false);
  });

  it("runs the composition root's sequence once, however many requests wait", async () => {
    const gate = await freshGate();
    let runs = 0;
    const sequence = async () => {
      runs++;
    };
    await Promise.all([gate.startBoot(sequence), gate.whenBooted(), gate.startBoot(sequence)]);
    await gate.whenBooted();
    expect(runs).toBe(1);
    expect(gate.isBooted()).toBe(true);
  });

  it("tries a failed boot again at the next request (the database was away)", async () => {
    const gate = await freshGate();
    let runs = 0;
    const boot = gate.startBoot(async () => {
      runs++;
      if (runs === 1) throw new Error("database unreachable");
    });
    await expect(boot).rejects.toThrow("database unreachable");
    expect(gate.isBooted()).toBe(false);
    await gate.whenBooted();
    expect(runs).toBe(2);
    expect(gate.isBooted()).toBe(true);
  });
});
