import { decryptSecret, encryptSecret, hashLookupKey, randomAlphanumeric } from "~/utils/secrets.server";

/**
 * Token keys: `sk-` + 48 random characters. The database holds a hash for lookup (the relay's
 * hot path) and an encrypted copy for the spec's "view key"/"copy"; never the plaintext.
 * The wire keeps the reference's shape: `key` is the 48 characters without the `sk-` prefix.
 */
export const TOKEN_KEY_LENGTH = 48;

export function generateTokenKey(): string {
  return randomAlphanumeric(TOKEN_KEY_LENGTH);
}

/** Accepts `sk-<key>`, `Bearer sk-<key>` or the bare key, as clients send all three. */
export function normaliseTokenKey(presented: string): string {
  return presented.trim().replace(/^Bearer\s+/i, "").replace(/^sk-/, "");
}

export function tokenKeyHash(key: string): string {
  return hashLookupKey(normaliseTokenKey(key));
}

export function sealTokenKey(key: string): { key_hash: string; key_encrypted: string; key_hint: string } {
  return { key_hash: tokenKeyHash(key), key_encrypted: encryptSecret(key), key_hint: maskTokenKey(key) };
}

export function openTokenKey(sealed: string): string {
  return decryptSecret(sealed);
}

/** What lists show: enough to tell keys apart, not enough to use one. */
export function maskTokenKey(key: string): string {
  return `${key.slice(0, 4)}${"*".repeat(10)}${key.slice(-4)}`;
}
