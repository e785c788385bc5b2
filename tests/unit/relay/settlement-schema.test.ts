import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainlyValidSettlement, settlementProblem, settlementSchema } from "~/relay/billing/settlement-schema";

/** A settlement as the relay builds it for an ordinary call. */
const ordinary = () => ({
  seq: 41,
  leaseId: 7,
  userId: 3,
  tokenId: 9,
  limited: true,
  charge: 1_250,
  channelId: 2,
  at: 1_764_374_400,
  log: {
    username: "alice",
    tokenName: "默认令牌",
    modelName: "gpt-4o-mini",
    promptTokens: 61,
    completionTokens: 17,
    useTimeSeconds: 1,
    isStream: true,
    channelId: 2,
    group: "default",
    content: "模型倍率 0.075，补全倍率 4，分组倍率 1",
    other: { frt: 312, model_ratio: 0.075, group_ratio: 1 },
  },
});

/** Any value at all, weighted towards the ones a check on numbers and text could get wrong. */
const oddValue = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    0.5,
    NaN,
    Infinity,
    -Infinity,
    2_147_483_647,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 1,
    "12",
    "",
    "a\u0000b",
    "\ud800",
    "x\udc00",
    "\ud83d\ude00",
    null,
    undefined,
    true,
    [],
    {},
    Object.create(null),
    new Date(0),
    [1, 2],
  ),
  fc.anything(),
);

const topFields = ["seq", "leaseId", "userId", "tokenId", "limited", "charge", "channelId", "at", "log", "shortfall"];
const logFields = [
  "username",
  "tokenName",
  "modelName",
  "promptTokens",
  "completionTokens",
  "useTimeSeconds",
  "isStream",
  "channelId",
  "group",
  "content",
  "other",
];

describe("the settlement check", () => {
  it("passes an ordinary settlement without the schema's copy, and the schema agrees with it", () => {
    expect(plainlyValidSettlement(ordinary())).toBe(true);
    expect(settlementSchema.safeParse(ordinary()).success).toBe(true);
    const { log: _log, ...withoutLog } = ordinary();
    expect(plainlyValidSettlement(withoutLog)).toBe(true);
    expect(plainlyValidSettlement({ ...ordinary(), shortfall: 300 })).toBe(true);
  });

  it("never passes what the schema refuses, whatever field holds whatever value", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(), oddValue), { minLength: 1, maxLength: 4 }), (edits) => {
        const log: Record<string, unknown> = { ...ordinary().log };
        const value: Record<string, unknown> = { ...ordinary(), log };
        for (const [inLog, field, odd] of edits) {
          if (inLog) log[logFields[field % logFields.length]!] = odd;
          else value[topFields[field % topFields.length]!] = odd;
        }
        if (plainlyValidSettlement(value)) expect(settlementSchema.safeParse(value).success).toBe(true);
        // Either way the answer a caller gets is the schema's.
        expect(settlementProblem(value) === undefined).toBe(settlementSchema.safeParse(value).success);
      }),
      { numRuns: 5_000 },
    );
  });

  it("refuses text PostgreSQL cannot hold (a lone surrogate anywhere) and keeps text that only looks odd", () => {
    const withContent = (content: string) => ({ ...ordinary(), log: { ...ordinary().log, content } });
    for (const lone of ["\ud800", "a\ud83d", "\ude00b", "\ude00\ud83d", "ok \ud83d\ude00 \udbff"]) {
      expect(settlementProblem(withContent(lone))).toMatch(
        /^log\.content: text must not contain NUL or a lone surrogate/,
      );
      expect(plainlyValidSettlement(withContent(lone))).toBe(false);
    }
    for (const fine of ["\ud83d\ude00", "模型倍率 1，😀", "\u00e9\uffff", ""]) {
      expect(settlementProblem(withContent(fine))).toBeUndefined();
      expect(plainlyValidSettlement(withContent(fine))).toBe(true);
    }
  });

  it("still words the problem of a refused settlement", () => {
    expect(settlementProblem({ ...ordinary(), charge: Number.NaN })).toMatch(/^charge: /);
    expect(settlementProblem({ ...ordinary(), log: { ...ordinary().log, modelName: "gpt\u0000" } })).toMatch(
      /^log\.modelName: text must not contain NUL/,
    );
  });
});
