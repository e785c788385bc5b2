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
// A lone UTF-16 surrogate (a string that is not well-formed) fails PostgreSQL's JSON text
// extraction just as NUL does.
const storable = (value: string) => !value.includes("\u0000") && value.isWellFormed();
const text = z.string().refine(storable, "text must not contain NUL or a lone surrogate");

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

const isInt32 = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= INT32_MAX;
const isSafeCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isText = (value: unknown) => typeof value === "string" && storable(value);
const isPlainObject = (value: unknown) =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * True when every field of a settlement is plainly inside the schema, as the relay builds it for
 * every ordinary call: the journal then skips zod's copy of it (4 KB and ~3 % of a relayed call's
 * CPU under load, decision 039). Never true of a value the schema refuses (a property test holds
 * it to that); anything unusual goes to the schema, which decides and words the problem.
 */
export function plainlyValidSettlement(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const s = value as Record<string, unknown>;
  if (!(isSafeCount(s.seq) && (s.seq as number) >= 1 && isSafeCount(s.leaseId) && isSafeCount(s.charge))) return false;
  if (!(isInt32(s.userId) && isInt32(s.tokenId) && isInt32(s.channelId) && isSafeCount(s.at))) return false;
  if (typeof s.limited !== "boolean" || (s.shortfall !== undefined && !isSafeCount(s.shortfall))) return false;
  if (s.log === undefined) return true;
  if (!isPlainObject(s.log)) return false;
  const log = s.log as Record<string, unknown>;
  return (
    isText(log.username) &&
    isText(log.tokenName) &&
    isText(log.modelName) &&
    isText(log.group) &&
    isText(log.content) &&
    isInt32(log.promptTokens) &&
    isInt32(log.completionTokens) &&
    isInt32(log.useTimeSeconds) &&
    isInt32(log.channelId) &&
    typeof log.isStream === "boolean" &&
    isPlainObject(log.other)
  );
}

/** Why a settlement would not replay, in one line; undefined when it is fine. */
export function settlementProblem(value: unknown): string | undefined {
  if (plainlyValidSettlement(value)) return undefined;
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
