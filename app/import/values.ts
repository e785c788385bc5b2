import type { SourceValue } from "./types";

/**
 * Reading one normalised source cell as what a mapper needs. The sources disagree on types (a
 * GORM bool is a tinyint in MySQL, a numeric in SQLite, a boolean in PostgreSQL; an int64 may come
 * as a string): these accept every such shape and say when a value is not usable.
 */

export function asInt(value: SourceValue | undefined, fallback = 0): number {
  if (value === null || value === undefined || value === "") return fallback;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : fallback;
  if (typeof value === "bigint") return clampToSafe(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? Math.trunc(parsed) : fallback;
  }
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  return fallback;
}

export function asFloat(value: SourceValue | undefined, fallback = 0): number {
  if (typeof value === "number") return Number.isFinite(value) ? value : fallback;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : fallback;
  }
  return fallback;
}

export function asString(value: SourceValue | undefined, fallback = ""): string {
  if (value === null || value === undefined) return fallback;
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** SQL NULL and '' both mean "none" in the sources' optional text columns. */
export function asOptionalString(value: SourceValue | undefined): string | null {
  const text = asString(value);
  return text === "" ? null : text;
}

export function asBool(value: SourceValue | undefined): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "bigint") return value !== 0n;
  if (typeof value === "string") return value === "1" || value.toLowerCase() === "true" || value.toLowerCase() === "t";
  return false;
}

/** A soft-delete column: a time when deleted, null when not (SQLite keeps it as text). */
export function asDeletedAt(value: SourceValue | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? new Date(0) : value;
  const parsed = new Date(asString(value));
  // A deleted_at the source wrote but we cannot read still means deleted.
  return Number.isNaN(parsed.getTime()) ? new Date(0) : parsed;
}

function clampToSafe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (value < BigInt(Number.MIN_SAFE_INTEGER)) return Number.MIN_SAFE_INTEGER;
  return Number(value);
}

/** An integer past 2^53 is handed over as bigint, smaller ones as number (one shape for mappers). */
export function integerFromText(text: string): number | bigint {
  const big = BigInt(text);
  return big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER) ? big : Number(big);
}
