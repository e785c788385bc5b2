import { decryptSecret, encryptSecret, hashLookupKey, randomAlphanumeric } from "~/utils/secrets.server";

/**
 * Token keys: `sk-` + 48 random characters. The database holds a hash for lookup (the relay's
 * hot path) and an encrypted copy for the product's "view key"/"copy"; never the plaintext.
 * The wire keeps the reference's shape: `key` is the 48 characters without the `sk-` prefix.
 */
export const TOKEN_KEY_LENGTH = 48;

export function generateTokenKey(): string {
  return randomAlphanumeric(TOKEN_KEY_LENGTH);
}

/** Accepts `sk-<key>`, `Bearer sk-<key>` or the bare key, as clients send all three. */
export function normaliseTokenKey(presented: string): string {
  return presented
    .trim()
    .replace(/^Bearer\s+/i, "")
    .replace(/^sk-/, "");
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

/** How many characters of each end of a key its hint shows (see maskTokenKey). */
export const KEY_HINT_VISIBLE = 4;

/**
 * A key search as the user typed it, read against what lists show (`sk-` + the hint, or
 * `sk-abcd…` in other consoles): `hash` finds a full key; `head`/`tail` are the visible parts the
 * hint must carry. A typed mask (`*`, `…` or `...`) splits the text into the end of the visible
 * head and the start of the visible tail; `sk-` pins the head to the key's first character; a bare
 * fragment may sit in either visible end.
 */
export type KeySearch = {
  hash: string;
  fragment?: { text: string; atStart: boolean } | { head: string; tail: string; atStart: boolean };
};

const MASK = /\*+|…+|\.{2,}/;

export function parseKeySearch(typed: string): KeySearch {
  const trimmed = typed.trim().replace(/^Bearer\s+/i, "");
  const atStart = /^sk-/.test(trimmed);
  const text = trimmed.replace(/^sk-/, "");
  const hash = tokenKeyHash(text);
  const parts = text.split(MASK);
  if (parts.length === 1)
    return text.length > 0 && text.length <= KEY_HINT_VISIBLE ? { hash, fragment: { text, atStart } } : { hash };
  const head = parts[0]!;
  const tail = parts[parts.length - 1]!;
  // Only what a hint can show: at most the visible characters on each side, something typed.
  if (head.length > KEY_HINT_VISIBLE || tail.length > KEY_HINT_VISIBLE || (!head && !tail)) return { hash };
  return { hash, fragment: { head, tail, atStart } };
}
