import { sql } from "kysely";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";

/** The reference's email column limit. */
export const EMAIL_MAX_LENGTH = 50;
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Is this address allowed by the operator's domain whitelist (when restriction is on)? */
export function isEmailDomainAllowed(email: string): boolean {
  if (!options.bool("EmailDomainRestrictionEnabled")) return true;
  const domain = email.split("@").pop()?.toLowerCase() ?? "";
  const allowed = options
    .string("EmailDomainWhitelist")
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  return allowed.includes(domain);
}

/**
 * The operator's rules for an address a code is sent to: format, domain whitelist, and the alias
 * rule. The reference's alias rule also refuses a dot in the local part; here only `+` (the
 * sub-address that makes one mailbox many accounts) is refused, since dots are how ordinary
 * addresses (first.last@company) are written (docs/decisions/017).
 */
export function emailPolicyRefusal(email: string): string | undefined {
  if (!email) return messages.emailRequired;
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_FORMAT.test(email)) return messages.emailInvalid;
  if (!isEmailDomainAllowed(email)) return messages.emailDomainNotAllowed;
  const localPart = email.slice(0, email.lastIndexOf("@"));
  if (options.bool("EmailAliasRestrictionEnabled") && localPart.includes("+")) return messages.emailAliasNotAllowed;
  return undefined;
}

/** Whether a live account (other than `exceptUserId`) holds this address, case-insensitively. */
export async function isEmailTaken(email: string, exceptUserId?: number): Promise<boolean> {
  const db = await getDb();
  let query = db
    .selectFrom("users")
    .select("id")
    .where(sql`lower(email)`, "=", email.trim().toLowerCase())
    .where("email", "<>", "")
    .where("deleted_at", "is", null);
  if (exceptUserId !== undefined) query = query.where("id", "<>", exceptUserId);
  return Boolean(await query.executeTakeFirst());
}
