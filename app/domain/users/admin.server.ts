import { sql } from "kysely";
import type { User } from "../../../db/schema";
import { revokeUserSessions } from "~/domain/auth/sessions.server";
import { listGroupNames } from "~/domain/groups/groups.server";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { options } from "~/domain/options/store.server";
import { messages } from "~/messages";
import { getDb } from "~/utils/db.server";
import { readId } from "~/utils/edge-input";
import { publish } from "~/utils/redis.server";
import { USER_CHANGED_CHANNEL } from "./manage.server";
import { hashPassword } from "./passwords.server";
import { editRefusal, outranks, ruleMessages } from "./admin-rules";
import { ROLE_ADMIN, ROLE_USER } from "./roles";
import { createUser, isUsernameTaken } from "./users.server";
import type { Result } from "~/utils/result";

/**
 * Admin user management: list, search, view, add and edit. Deleting and the row
 * actions are manageUser's (manage.server.ts); who may act on whom is admin-rules.ts, shared by
 * both and by the /user page: an admin acts on ordinary users only, root on anyone but root, and
 * a deregistered account takes no operation.
 */

export const adminMessages = {
  ...ruleMessages,
  createRoleTooHigh: "无法创建权限大于等于自己的用户",
  groupUnknown: "分组不存在",
  quotaBoth: "quota 与 quota_delta 不能同时提供",
} as const;

/** The reference's list: every account including deregistered ones (DeletedAt set), newest first. */
export async function listUsers(page: number, size: number): Promise<{ items: User[]; total: number }> {
  const db = await getDb();
  const [items, total] = await Promise.all([
    db
      .selectFrom("users")
      .selectAll()
      .orderBy("id", "desc")
      .limit(size)
      .offset(page * size)
      .execute(),
    db
      .selectFrom("users")
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

/** The search's filter: an id match, else username, email or display name containing the keyword; optionally one group. */
async function matchingUsers(keyword: string, group: string) {
  const db = await getDb();
  let query = db.selectFrom("users");
  const text = keyword.trim();
  const id = text ? (readId(text) ?? -1) : -1;
  if (text) {
    const needle = text.toLowerCase();
    query = query.where((eb) =>
      eb.or([
        eb("id", "=", id),
        eb(sql`position(${needle} in lower(username))`, ">", 0),
        eb(sql`position(${needle} in lower(email))`, ">", 0),
        eb(sql`position(${needle} in lower(display_name))`, ">", 0),
      ]),
    );
  }
  if (group.trim()) query = query.where("group", "=", group.trim());
  return { query, id };
}

/**
 * An id match first, then the rest newest first. The reference answers every match; this pages
 * (`p`, `page_size`, 100 by default) so a one-letter keyword on a large install is not one huge answer.
 */
export async function searchUsers(keyword: string, group: string, page = 0, size = 100): Promise<User[]> {
  const { query, id } = await matchingUsers(keyword, group);
  return query
    .selectAll()
    .orderBy(sql`id = ${id}`, "desc")
    .orderBy("id", "desc")
    .limit(size)
    .offset(page * size)
    .execute();
}

/** One page of the search and how many match in all (the /user page's pager). */
export async function searchUsersPage(
  keyword: string,
  group: string,
  page: number,
  size: number,
): Promise<{ items: User[]; total: number }> {
  const { query } = await matchingUsers(keyword, group);
  const [items, total] = await Promise.all([
    searchUsers(keyword, group, page, size),
    query.select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

export async function getUserForAdmin(actor: User, id: number): Promise<Result<User>> {
  const db = await getDb();
  const target = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!target) return { ok: false, message: adminMessages.notFound };
  if (!outranks(actor, target)) return { ok: false, message: adminMessages.peerOrHigherView };
  return { ok: true, value: target };
}

export type NewUserInput = { username: string; password: string; display_name?: string; role?: number };

/** Adds an account with the new-user quota, as registration does; never a role at or above the actor's. */
export async function addUser(actor: User, input: NewUserInput): Promise<Result<User>> {
  const role = input.role ?? ROLE_USER;
  if (role !== ROLE_USER && role !== ROLE_ADMIN) return { ok: false, message: "无效的参数：role 只能是 1 或 10" };
  if (role >= actor.role) return { ok: false, message: adminMessages.createRoleTooHigh };
  if (input.username.includes("#")) return { ok: false, message: messages.usernameHasHash };
  if (await isUsernameTaken(input.username)) return { ok: false, message: messages.usernameTaken };
  try {
    const user = await createUser({
      username: input.username,
      password: input.password,
      displayName: input.display_name?.trim() || input.username,
      role,
      quota: options.int("QuotaForNewUser"),
    });
    return { ok: true, value: user };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return { ok: false, message: messages.usernameTaken };
    throw error;
  }
}

export type UserEdit = {
  id: number;
  username?: string;
  display_name?: string;
  password?: string;
  email?: string;
  group?: string;
  /** The new balance (the reference's PUT). */
  quota?: number;
  /** Added to the balance in the database (negative subtracts); the balance never goes below zero. */
  quota_delta?: number;
};

async function editableTarget(actor: User, id: number): Promise<Result<User>> {
  const db = await getDb();
  const target = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!target) return { ok: false, message: adminMessages.notFound };
  const refusal = editRefusal(actor, target);
  return refusal ? { ok: false, message: refusal } : { ok: true, value: target };
}

/**
 * The admin edit. Profile fields and the balance change in one UPDATE; the balance expression is
 * evaluated by the database on the row as it is then (never a value read earlier here), so
 * concurrent edits and charges all count. Lowering the balance below what relay nodes lease
 * is allowed, as for token balances: `quota - leased` then leases nothing new, and the
 * USER_CHANGED message makes nodes hand back their unheld slices (decision 006). A changed
 * balance writes a management log (type 3) in the same transaction, as the reference does.
 */
export async function editUser(actor: User, edit: UserEdit): Promise<Result<User>> {
  if (edit.quota !== undefined && edit.quota_delta !== undefined)
    return { ok: false, message: adminMessages.quotaBoth };
  const allowed = await editableTarget(actor, edit.id);
  if (!allowed.ok) return allowed;
  const target = allowed.value;
  if (edit.group !== undefined && edit.group !== target.group && !listGroupNames().includes(edit.group)) {
    return { ok: false, message: adminMessages.groupUnknown };
  }
  const username = edit.username?.trim();
  if (username !== undefined && username !== target.username) {
    if (username.includes("#")) return { ok: false, message: messages.usernameHasHash };
    if (await isUsernameTaken(username)) return { ok: false, message: messages.usernameTaken };
  }
  const set: Record<string, unknown> = {};
  if (username) set.username = username;
  if (edit.display_name !== undefined) set.display_name = edit.display_name.trim() || (username ?? target.username);
  if (edit.email !== undefined) set.email = edit.email.trim();
  if (edit.group !== undefined) set.group = edit.group;
  // An empty password keeps the old one (the reference's console sends "" when unchanged).
  if (edit.password) set.password_hash = await hashPassword(edit.password);
  if (edit.quota !== undefined) set.quota = sql`${edit.quota}::bigint`;
  if (edit.quota_delta !== undefined) set.quota = sql`greatest(users.quota + ${edit.quota_delta}::bigint, 0)`;
  if (Object.keys(set).length === 0) return { ok: true, value: target };

  const db = await getDb();
  let updated: (User & { before: number }) | undefined;
  try {
    updated = await db.transaction().execute(async (trx) => {
      const row = await trx
        .with("old", (q) =>
          q
            .selectFrom("users")
            .select(["id", "quota"])
            .where("id", "=", target.id)
            .where("deleted_at", "is", null)
            .forUpdate(),
        )
        .updateTable("users")
        .from("old")
        .set(set)
        .whereRef("users.id", "=", "old.id")
        .returningAll("users")
        .returning(sql<number>`old.quota`.as("before"))
        .executeTakeFirst();
      if (row && row.before !== row.quota) {
        await trx
          .insertInto("logs")
          .values({
            created_at: Math.floor(Date.now() / 1000),
            type: LOG_TYPE.manage,
            content: `管理员将用户额度从 ${row.before} 修改为 ${row.quota}`,
            user_id: row.id,
            username: row.username,
            quota: 0,
            other: JSON.stringify({ admin_id: actor.id, before: row.before, after: row.quota }),
          })
          .execute();
      }
      return row as (User & { before: number }) | undefined;
    });
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return { ok: false, message: messages.usernameTaken };
    throw error;
  }
  if (!updated) return { ok: false, message: adminMessages.deregistered };
  // A new password ends the user's sessions; any change drops relay caches and trims leases.
  if (set.password_hash) await revokeUserSessions(updated.id);
  await publish(USER_CHANGED_CHANNEL, String(updated.id));
  const { before: _before, ...user } = updated;
  return { ok: true, value: user };
}
