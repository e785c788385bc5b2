import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env } from "./env.server";

/**
 * One random server secret, generated on first start and kept in DATA_DIR (not in the database,
 * so a database dump alone reveals no channel key). SESSION_SECRET / CRYPTO_SECRET override the
 * derived values; several nodes must share them (or share the file).
 */
function loadServerSecret(): Buffer {
  const file = join(env.DATA_DIR, "server-secret");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "hex");
  mkdirSync(env.DATA_DIR, { recursive: true });
  // Several web processes may start on one fresh DATA_DIR at once: the secret is written whole
  // under a private name and linked into place, so the first link wins and every other process
  // reads that one (never a half-written file, never a second secret).
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, randomBytes(32).toString("hex"), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(draft);
  }
  return Buffer.from(readFileSync(file, "utf8").trim(), "hex");
}

let serverSecret: Buffer | undefined;
function getServerSecret(): Buffer {
  serverSecret ??= loadServerSecret();
  return serverSecret;
}

function derive(label: string): Buffer {
  return Buffer.from(hkdfSync("sha256", getServerSecret(), Buffer.alloc(0), label, 32));
}

export function getSessionSecret(): string {
  return env.SESSION_SECRET ?? derive("switchyard-session").toString("hex");
}

let encryptionKey: Buffer | undefined;
function getEncryptionKey(): Buffer {
  encryptionKey ??= env.CRYPTO_SECRET
    ? createHash("sha256").update(env.CRYPTO_SECRET).digest()
    : derive("switchyard-encryption");
  return encryptionKey;
}

/** AES-256-GCM; output is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", getEncryptionKey(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(
    ".",
  );
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("unrecognised secret format");
  const decipher = createDecipheriv("aes-256-gcm", getEncryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/** Lookup hash for bearer secrets (token keys, access tokens): fast and deterministic. */
export function hashLookupKey(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

const ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Uniform random alphanumeric string (rejection sampling keeps it unbiased). */
export function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}
