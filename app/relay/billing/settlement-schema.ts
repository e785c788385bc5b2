import { z } from "zod";

/**
 * The one shape of a journaled settlement (lease-store's `Settlement`), checked twice: by the
 * journal before it records a line, and by crash recovery when it reads one back. A line the
 * writer accepted therefore always replays, and the values reaching the settle statement fit
 * its casts: `::int` for the log's token counts, ids and seconds, `bigint` for money, text
 * without NUL or lone surrogates (PostgreSQL text cannot hold them).
 *
 * Before this, an upstream's `"prompt_tokens":"abc"` became a NaN charge that the database
 * refused forever, and after a crash the same line stopped every start.
 */
const INT32_MAX = 2_147_483_647;

/** A count or id the settle statement casts to PostgreSQL int. */
const int32 = z.number().int().min(0).max(INT32_MAX);
/** Money and sequence numbers: bigint columns, exact in a JavaScript number up to 2^53. */
const safeCount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
// A lone UTF-16 surrogate fails PostgreSQL's JSON text extraction just as NUL does.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const text = z
  .string()
  .refine(
    (value) => !value.includes("\u0000") && !LONE_SURROGATE.test(value),
    "text must not contain NUL or a lone surrogate",
  );

export const consumeLogSchema = z.object({
  username: text,
  tokenName: text,
  modelName: text,
  promptTokens: int32,
  completionTokens: int32,
  useTimeSeconds: int32,
  isStream: z.boolean(),
  channelId: int32,
  group: text,
  content: text,
  other: z.record(z.string(), z.unknown()),
});

export const settlementSchema = z.object({
  seq: safeCount.min(1),
  leaseId: safeCount,
  userId: int32,
  tokenId: int32,
  limited: z.boolean(),
  charge: safeCount,
  channelId: int32,
  at: safeCount,
  log: consumeLogSchema.optional(),
  /** Counted apart by the shortfall counters (what a charge could not take from the balance). */
  shortfall: safeCount.optional(),
});

export type CheckedSettlement = z.infer<typeof settlementSchema>;

/** Why a settlement would not replay, in one line; undefined when it is fine. */
export function settlementProblem(value: unknown): string | undefined {
  const checked = settlementSchema.safeParse(value);
  if (checked.success) return undefined;
  return checked.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "settlement"}: ${issue.message}`)
    .join("; ");
}

/** Thrown when a settlement is refused before it is journaled: nothing was recorded or charged. */
export class InvalidSettlementError extends Error {
  constructor(problem: string) {
    super(`settlement refused before journaling (${problem})`);
    this.name = "InvalidSettlementError";
  }
}
