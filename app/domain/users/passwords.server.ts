import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { env } from "~/utils/env.server";

// bcrypt as in the reference, so imported password hashes keep working; the cost is the
// operator's (PASSWORD_HASH_COST, default 10).
const COST = env.PASSWORD_HASH_COST;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return bcrypt.compare(plain, hash);
}

// A hash of nothing anyone knows, at the same cost as real ones: an unknown (or deleted) login is
// checked against it, so a refusal takes as long whether or not the account exists (before,
// unknown names answered in 5-25 ms, real ones with a wrong password in 78-170 ms).
let dummyHash: Promise<string> | undefined;

/** Spends the time of one password check and fails; for logins that match no account. */
export async function verifyAgainstDummy(plain: string): Promise<false> {
  dummyHash ??= bcrypt.hash(randomBytes(16).toString("hex"), COST);
  await bcrypt.compare(plain, await dummyHash);
  return false;
}

export const DEFAULT_ROOT_PASSWORD = "123456";
