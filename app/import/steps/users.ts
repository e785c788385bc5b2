import { randomBytes } from "node:crypto";
import { hashPassword } from "~/domain/users/passwords.server";
import { ROLE_ADMIN, ROLE_ROOT, ROLE_USER, USER_STATUS_BANNED, USER_STATUS_ENABLED } from "~/domain/users/roles";
import { hashLookupKey } from "~/utils/secrets.server";
import { moveTable } from "../table-mover";
import type { ImportStep } from "../types";
import { asDeletedAt, asInt, asOptionalString, asString } from "../values";

const COLUMNS = [
  "id",
  "username",
  "password",
  "display_name",
  "role",
  "status",
  "email",
  "github_id",
  "wechat_id",
  "telegram_id",
  "access_token",
  "quota",
  "used_quota",
  "request_count",
  "group",
  "aff_code",
  "aff_count",
  "aff_quota",
  "aff_history",
  "inviter_id",
  "deleted_at",
];
/** Source columns Switchyard has no place for: named in the report, not silently lost. */
const NOT_CARRIED = ["lark_id", "oidc_id", "linux_do_id", "setting"];
/** one-api marks a deleted account by status instead of a soft delete. */
const ONE_API_DELETED_STATUS = 3;
/** Both forks hash with Go's bcrypt, which bcryptjs verifies as it is. */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const ROLES = new Set([ROLE_USER, ROLE_ADMIN, ROLE_ROOT]);

export const usersStep: ImportStep = {
  name: "users",
  async run(ctx) {
    const have = new Set(await ctx.source.columns("users"));
    const dropped = NOT_CARRIED.filter((c) => have.has(c));
    if (dropped.length)
      ctx.report.remark("users", `columns not carried (Switchyard has no such field): ${dropped.join(", ")}`);
    const importedAt = Math.floor(Date.now() / 1000);
    await moveTable(ctx, {
      source: "users",
      target: "users",
      columns: COLUMNS,
      async map(row) {
        const id = asInt(row.id);
        const note = (outcome: "changed" | "clamped", reason: string) => ctx.report.note("users", id, outcome, reason);
        const username = asString(row.username).trim();
        if (!username) {
          ctx.report.note("users", id, "refused", "no username");
          return { skip: true };
        }
        let passwordHash = asString(row.password);
        if (!BCRYPT.test(passwordHash)) {
          // Unusable hash: the account comes across (its tokens and logs point at it) but its
          // password must be reset by an admin.
          passwordHash = await hashPassword(randomBytes(24).toString("hex"));
          note("changed", "password is not a bcrypt hash: replaced by a random one, an admin must set a new password");
        }
        let role = asInt(row.role, ROLE_USER);
        if (!ROLES.has(role)) {
          note("changed", `role ${role} is not one of 1, 10, 100: imported as a common user (1)`);
          role = ROLE_USER;
        }
        const sourceStatus = asInt(row.status, USER_STATUS_ENABLED);
        let deletedAt = asDeletedAt(row.deleted_at);
        if (sourceStatus === ONE_API_DELETED_STATUS && !deletedAt) deletedAt = new Date(importedAt * 1000);
        let status =
          sourceStatus === USER_STATUS_BANNED || sourceStatus === ONE_API_DELETED_STATUS
            ? USER_STATUS_BANNED
            : USER_STATUS_ENABLED;
        if (
          sourceStatus !== USER_STATUS_ENABLED &&
          sourceStatus !== USER_STATUS_BANNED &&
          sourceStatus !== ONE_API_DELETED_STATUS
        ) {
          note("changed", `status ${sourceStatus} unknown: imported disabled`);
          status = USER_STATUS_BANNED;
        }
        // Deleted accounts free their name the way Switchyard's own deletion does.
        const storedName = deletedAt ? `${username}#deleted-${id}` : username;
        if (deletedAt) note("changed", `deleted in the source: imported deleted, renamed ${storedName}`);
        let quota = asInt(row.quota);
        if (quota < 0) {
          note("clamped", `quota ${quota} is negative: set to 0`);
          quota = 0;
        }
        const accessToken = asString(row.access_token).trim();
        return {
          row: {
            id,
            username: storedName,
            password_hash: passwordHash,
            display_name: asString(row.display_name),
            role,
            status,
            email: asString(row.email),
            github_id: asString(row.github_id),
            wechat_id: asString(row.wechat_id),
            telegram_id: asString(row.telegram_id),
            // Only the hash is kept, as for tokens Switchyard issues itself: the old token still works.
            access_token_hash: accessToken && !deletedAt ? hashLookupKey(accessToken) : null,
            quota,
            used_quota: Math.max(asInt(row.used_quota), 0),
            request_count: Math.max(asInt(row.request_count), 0),
            group: asString(row.group, "default") || "default",
            aff_code: asOptionalString(row.aff_code),
            aff_count: Math.max(asInt(row.aff_count), 0),
            aff_quota: Math.max(asInt(row.aff_quota), 0),
            aff_history: Math.max(asInt(row.aff_history), 0),
            inviter_id: Math.max(asInt(row.inviter_id), 0),
            created_time: importedAt,
            deleted_at: deletedAt,
          },
        };
      },
    });
  },
};
