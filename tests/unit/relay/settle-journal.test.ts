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

const settlement = (charge: number) => ({
  leaseId: 7,
  userId: 1,
  tokenId: 2,
  limited: true,
  charge,
  channelId: 3,
  at: 1_700_000_000,
});

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
    expect(left[0]!.settlements.map((s) => [s.seq, s.charge])).toEqual([
      [1, 10],
      [2, 20],
      [3, 30],
    ]);
    expect(left[0]!.rejected).toEqual([]); // a torn last line is no settlement: nothing to quarantine
  });

  it("refuses to record a settlement that would not replay (non-integer charge or token count)", () => {
    const { SettleJournal, journalsLeftBy } = journalModule;
    const journal = new SettleJournal("host:444:45");
    const log = {
      username: "u",
      tokenName: "t",
      modelName: "m",
      promptTokens: 10,
      completionTokens: 5,
      useTimeSeconds: 1,
      isStream: false,
      channelId: 3,
      group: "default",
      content: "",
      other: {},
    };
    expect(() => journal.append({ ...settlement(Number.NaN), log })).toThrow(/charge/);
    expect(() =>
      journal.append({ ...settlement(12), log: { ...log, promptTokens: "abc" as unknown as number } }),
    ).toThrow(/promptTokens/);
    expect(() => journal.append({ ...settlement(12), log: { ...log, promptTokens: 3e9 } })).toThrow(/promptTokens/);
    expect(() => journal.append({ ...settlement(1.5) })).toThrow(/charge/);
    // Nothing was recorded or numbered: the next good settlement is the first.
    expect(journal.hasPending()).toBe(false);
    expect(journal.append({ ...settlement(12), log, shortfall: 3 } as never).settlement.seq).toBe(1);
    journal.writePending();
    const [left] = journalsLeftBy((node) => node === "host:444:45");
    expect(left!.settlements).toEqual([expect.objectContaining({ seq: 1, charge: 12, shortfall: 3, log })]);
    expect(left!.rejected).toEqual([]);
    journal.close();
  });

  it("reports a line that fails the schema or does not parse mid-file, and reads the good ones around it", () => {
    const { SettleJournal, journalsLeftBy, journalDir } = journalModule;
    const dead = new SettleJournal("host:555:46");
    dead.append(settlement(10));
    dead.writePending();
    const file = join(
      journalDir(),
      readdirSync(journalDir()).find((name) => name.startsWith("host_555_46"))!,
    );
    appendFileSync(
      file,
      '{"seq":2,"leaseId":7,"userId":1,"tokenId":2,"limited":true,"charge":null,"channelId":3,"at":1}\n',
    );
    appendFileSync(file, "#garbage#\n");
    dead.append(settlement(30));
    dead.writePending();
    const [left] = journalsLeftBy((node) => node === "host:555:46");
    expect(left!.settlements.map((s) => [s.seq, s.charge])).toEqual([
      [1, 10],
      [2, 30],
    ]);
    expect(left!.rejected.map((r) => [r.line, r.file])).toEqual([
      ['{"seq":2,"leaseId":7,"userId":1,"tokenId":2,"limited":true,"charge":null,"channelId":3,"at":1}', file],
      ["#garbage#", file],
    ]);
    expect(left!.rejected[0]!.reason).toContain("charge");
    dead.close();
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
