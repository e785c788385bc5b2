import type { Token } from "../../../db/schema";
import { env } from "~/utils/env.server";
import { openTokenKey } from "./token-keys.server";
import { toTokenJson, type TokenJson } from "./tokens.server";

/**
 * A token as /api's list, search, detail and edit answer it. With EXPOSE_FULL_KEYS the operator chose
 * the reference's behaviour: `key` is the full key, in the reference's form (without `sk-`, which
 * its console prepends), so that console's view and copy buttons give a working key.
 */
export function toTokenApiJson(token: Token): TokenJson {
  const json = toTokenJson(token);
  if (!env.EXPOSE_FULL_KEYS) return json;
  try {
    return { ...json, key: openTokenKey(token.key_encrypted) };
  } catch {
    // Sealed under another CRYPTO_SECRET: the hint still tells keys apart; one bad row must not fail the list.
    return json;
  }
}
