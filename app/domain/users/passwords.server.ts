import bcrypt from "bcryptjs";

// bcrypt as in the reference, so imported password hashes keep working; cost 10 keeps a login
// under ~100 ms on the 2-core machines this runs on.
const COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return bcrypt.compare(plain, hash);
}

export const DEFAULT_ROOT_PASSWORD = "123456";
