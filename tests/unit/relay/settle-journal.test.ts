import { appendFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The local settlement journal: what a crashed process leaves is read back whole, in order. */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-journal-"));
let journalModule: typeof import("~/relay/billing/settle-journal.server");

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  journalModule = await import("~/relay/billing/settle-journal.server");
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const settlement = (charge: number) => ({ leaseId: 7, userId: 1, tokenId: 2, limited: true, charge, channelId: 3, at: 1_700_000_000 });

describe("settle journal", () => {
  it("reads back another process's settlements in order, skipping a line the crash cut short", () => {
    const { SettleJournal, journalsLeftBy, journalDir } = journalModule;
    const dead = new SettleJournal("host:111:42");
    expect([dead.append(settlement(10)), dead.append(settlement(20))].map((j) => j.settlement.seq)).toEqual([1, 2]);
    dead.writePending();
    dead.append(settlement(30));
    dead.writePending();
    const file = readdirSync(journalDir()).find((name) => name.startsWith("host_111_42"))!;
    appendFileSync(join(journalDir(), file), '{"leaseId":7,"char'); // the write the crash interrupted
    const live = new SettleJournal("host:222:43");
    live.append(settlement(99));
    live.writePending();

    const left = journalsLeftBy((node) => node !== "host:222:43");
    expect(left).toHaveLength(1);
    expect(left[0]!.nodeId).toBe("host:111:42");
    expect(left[0]!.settlements.map((s) => [s.seq, s.charge])).toEqual([[1, 10], [2, 20], [3, 30]]);
  });

  it("leaves nothing behind after a clean close", () => {
    const { SettleJournal, journalsLeftBy } = journalModule;
    const journal = new SettleJournal("host:333:44");
    journal.append(settlement(5));
    journal.writePending();
    journal.applied(1);
    journal.close();
    expect(journalsLeftBy((node) => node === "host:333:44")).toEqual([]);
  });
});
