import type { ImportReport } from "../report";
import type { SourceValue } from "../types";
import { asInt, asString } from "../values";

/**
 * Reading history cells into the target's column types, noting in the report every value that
 * had to change: a history row is kept even when one of its numbers is out of range, since the
 * rest of it (who, when, which model) is what the operator imports it for.
 */

const INT32_MAX = 2_147_483_647;
/** Before 2286 in seconds, after 1973 in milliseconds: a time past this is milliseconds. */
const MILLISECOND_TIMES_FROM = 10_000_000_000;

export class CellReader {
  constructor(
    private readonly report: ImportReport,
    private readonly table: string,
  ) {}

  /** A 32-bit integer column (tokens, ids, seconds): out-of-range values clamped and noted. */
  int32(id: number, column: string, value: SourceValue | undefined, min = -INT32_MAX - 1): number {
    const n = asInt(value);
    const clamped = Math.min(Math.max(n, min), INT32_MAX);
    if (clamped !== n)
      this.report.note(this.table, id, "clamped", `${column} ${n} is outside ${min}..${INT32_MAX}: kept as ${clamped}`);
    return clamped;
  }

  /** A bigint column: the readers hand over values past 2^53 as bigint, held at the safe range. */
  int64(id: number, column: string, value: SourceValue | undefined): number {
    const n = asInt(value);
    if (typeof value === "bigint" && BigInt(n) !== value)
      this.report.note(this.table, id, "clamped", `${column} ${value} is past what is kept exactly: kept as ${n}`);
    return n;
  }

  /** Unix seconds, whichever unit the source used (some forks wrote milliseconds). */
  seconds(id: number, column: string, value: SourceValue | undefined): number {
    const n = asInt(value);
    if (n >= MILLISECOND_TIMES_FROM) return Math.floor(n / 1000);
    return n;
  }

  /** Unix milliseconds (Switchyard's Midjourney times, like new-api's); seconds are multiplied. */
  milliseconds(id: number, column: string, value: SourceValue | undefined): number {
    const n = asInt(value);
    if (n > 0 && n < MILLISECOND_TIMES_FROM) return n * 1000;
    return n;
  }

  /** Text without NUL, which PostgreSQL text cannot hold (SQLite and MySQL can). */
  text(id: number, column: string, value: SourceValue | undefined): string {
    const text = asString(value);
    if (!text.includes("\0")) return text;
    this.report.note(this.table, id, "changed", `${column} held NUL characters, removed`);
    return text.replaceAll("\0", "");
  }

  /** A JSON column (jsonb): text that is not JSON is kept as a JSON string, noted. */
  json(id: number, column: string, value: SourceValue | undefined): string | null {
    if (value === null || value === undefined) return null;
    const text = this.text(id, column, value);
    if (text.trim() === "") return null;
    try {
      JSON.parse(text);
      // PostgreSQL's jsonb refuses the \u0000 escape JSON allows.
      if (!text.includes("\\u0000")) return text;
    } catch {
      // not JSON: kept as a string below
    }
    this.report.note(this.table, id, "changed", `${column} is not JSON PostgreSQL keeps: stored as a JSON string`);
    return JSON.stringify(text.replaceAll("\\u0000", ""));
  }
}
