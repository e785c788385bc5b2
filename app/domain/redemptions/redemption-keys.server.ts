import { randomBytes } from "node:crypto";
import { hashLookupKey } from "~/utils/secrets.server";

/**
 * Redemption keys: 32 lowercase hex characters (128 random bits), the reference's length and
 * alphabet. Only the SHA-256 is stored: with 128 random bits there is nothing to guess from it,
 * so a plain (unsalted) hash is enough and stays a unique, indexable lookup.
 */
export function generateRedemptionKey(): string {
  return randomBytes(16).toString("hex");
}

/** What users paste: surrounding spaces and upper-case hex are forgiven. */
export function normaliseRedemptionKey(presented: string): string {
  return presented.trim().toLowerCase();
}

export function redemptionKeyHash(key: string): string {
  return hashLookupKey(normaliseRedemptionKey(key));
}

/** What lists show: enough to match a code on paper with its row, not enough to redeem it. */
export function redemptionKeyHint(key: string): string {
  return `${key.slice(0, 4)}${"*".repeat(8)}${key.slice(-4)}`;
}

/** A key as generated (for the download, which only echoes keys the page was given). */
export function looksLikeRedemptionKey(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text);
}
