import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * Replaying a stopped process's journal when the database refuses one settlement's data: the
 * others are written, the refused one is quarantined whole, and the start is not stopped.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-replay-"));
type Written = { seq: number; charge: number };
const written: Written[] = [];
const refusedCharge = 666;

vi.mock("~/relay/billing/node-liveness.server", () => ({
  NODE_ID: "live-node",
  lockKeyOf: () => undefined,
  LIVENESS_CONFIRM_MS: 0,
}));
vi.mock("~/utils/db.server", () => ({ getDb: async () => ({}) }));
vi.mock("~/relay/billing/lease-store.server", () => ({
  appliedSeqOf: async () => 0,
  forgetJournal: async () => undefined,
  writeSettlements: async (_node: string, items: Written[]) => {
    if (items.some((item) => item.charge === refusedCharge))
      throw Object.assign(new Error("value out of range"), { code: "22003" });
    written.push(...items.map((item) => ({ seq: item.seq, charge: item.charge })));
    return { applied: true, missingLeases: new Set(), exhaustedTokens: new Set() };
  },
}));

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("journal replay", () => {
  it("a settlement the database refuses is quarantined and the rest replay exactly", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const { SettleJournal, journalDir } = await import("~/relay/billing/settle-journal.server");
    const { replayJournals } = await import("~/relay/billing/crash-recovery.server");
    const { quarantineDir } = await import("~/relay/billing/journal-quarantine.server");
    const dead = new SettleJournal("dead-node");
    for (const charge of [10, refusedCharge, 30])
      dead.append({ leaseId: 7, userId: 1, tokenId: 2, limited: true, charge, channelId: 3, at: 1_700_000_000 });
    dead.writePending();

    expect(await replayJournals()).toBe(2);
    expect(written).toEqual([
      { seq: 1, charge: 10 },
      { seq: 3, charge: 30 },
    ]);
    const kept = readdirSync(quarantineDir()).flatMap((name) =>
      readFileSync(join(quarantineDir(), name), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
    expect(kept.map((entry) => JSON.parse(entry.line).charge)).toEqual([refusedCharge]);
    expect(kept[0].reason).toContain("value out of range");
    expect(readdirSync(journalDir()).filter((name) => name.endsWith(".jsonl"))).toEqual([]);
    expect(existsSync(quarantineDir())).toBe(true);
  });
});
