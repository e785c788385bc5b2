import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * The settlement writer when the database refuses a settlement's data outright (not a lost
 * connection): the others are written, and the refused one is set aside whole in the quarantine —
 * never written as a charge without its usage log, and never holding up what comes after it.
 */
const dataDir = mkdtempSync(join(tmpdir(), "switchyard-writer-"));
type Written = { seq: number; charge: number; log?: unknown };
const written: Written[] = [];
const refusedCharge = 666;

vi.mock("~/relay/billing/node-liveness.server", () => ({ NODE_ID: "writer-test" }));
vi.mock("~/utils/redis.server", () => ({ publish: async () => undefined }));
vi.mock("~/domain/tokens/tokens.server", () => ({ TOKEN_CHANGED_CHANNEL: "token-changed" }));
vi.mock("~/relay/billing/lease-store.server", () => ({
  registerJournal: async () => undefined,
  writeSettlements: async (_node: string, items: Written[]) => {
    // As PostgreSQL does with a value its casts refuse: the whole statement fails, SQLSTATE 22P02.
    if (items.some((item) => item.charge === refusedCharge))
      throw Object.assign(new Error('invalid input syntax for type integer: "x"'), { code: "22P02" });
    written.push(...items.map((item) => ({ seq: item.seq, charge: item.charge, log: item.log })));
    return { applied: true, missingLeases: new Set(), exhaustedTokens: new Set() };
  },
}));

let writer: typeof import("~/relay/billing/settlement-writer.server");
let quarantine: typeof import("~/relay/billing/journal-quarantine.server");

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  process.env.BILLING_FLUSH_DELAY_MS = "0";
  writer = await import("~/relay/billing/settlement-writer.server");
  quarantine = await import("~/relay/billing/journal-quarantine.server");
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
  other: { request_id: "r" },
};
const charge = (amount: number) => ({
  leaseId: 7,
  userId: 1,
  tokenId: 2,
  limited: true,
  charge: amount,
  channelId: 3,
  at: 1_700_000_000,
  log,
});

describe("settlement writer", () => {
  it("a settlement the database keeps refusing is quarantined with its log; the rest are written, nothing waits behind it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const amount of [10, refusedCharge, 30]) writer.journalCharge(charge(amount), "hash");
    await writer.chargesJournaled(true);
    await writer.billingWritten(10_000);
    expect(written.map((w) => w.charge)).toEqual([10, 30]);
    expect(written.every((w) => w.log !== undefined)).toBe(true);
    const dir = quarantine.quarantineDir();
    const kept = readdirSync(dir).flatMap((name) =>
      readFileSync(join(dir, name), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    );
    expect(kept).toHaveLength(1);
    expect(JSON.parse(kept[0].line)).toMatchObject({ seq: 2, charge: refusedCharge, log });
    expect(kept[0].reason).toContain("invalid input syntax");
    expect(quarantine.quarantineStatus()).toMatchObject({ lines: 1, dir });

    // The writer is not stuck: a later charge is written at once.
    writer.journalCharge(charge(40), "hash");
    const started = Date.now();
    await writer.billingWritten(10_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(written.map((w) => w.charge)).toEqual([10, 30, 40]);
  });

  it("refuses to journal a charge that is not a non-negative integer", () => {
    expect(() => writer.journalCharge(charge(Number.NaN), "hash")).toThrow(/settlement refused/);
    expect(() => writer.journalCharge({ ...charge(5), log: { ...log, tokenName: "bad\u0000name" } }, "hash")).toThrow(
      /tokenName/,
    );
  });
});
