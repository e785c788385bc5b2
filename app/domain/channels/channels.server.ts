import { sql } from "kysely";
import type { Channel } from "../../../db/schema";
import { getDb } from "~/utils/db.server";
import { LOG_TYPE } from "~/domain/logs/log-types";
import { CHANNEL_STATUS } from "./channel-status";
import { CHANNEL_TYPE } from "./channel-types";
import { publish } from "~/utils/redis.server";
import { encryptSecret } from "~/utils/secrets.server";
import { rebuildAbilities } from "./abilities.server";
import {
  BASE_URL_REQUIRED_MESSAGE,
  getChannelType,
  requiresBaseUrl,
  splitChannelKeys,
  validateChannelKey,
} from "./catalog";
import { toColumns, type Columns } from "./channel-columns";
import type { ChannelFields, CreateMode } from "./channel-input";
import { multiKeyInfo, parseChannelInfo, type KeyMode } from "./multi-key";
import type { Result } from "~/utils/result";

/** Every node's routing cache listens here; the message is the channel id ("*" for many). */
export const CHANNEL_CHANGED_CHANNEL = "channel-changed";

/** The reference's channel JSON: every column but the key, which never leaves the server. */
export function toChannelJson(channel: Channel) {
  const { key_encrypted: _secret, ...rest } = channel;
  // The reference sends its multi-key info as an object (a one-key channel's says so too).
  return { ...rest, channel_info: parseChannelInfo(channel.channel_info), key: "" };
}

/** Tells every node's routing cache that the channel (or "*": several) changed. */
export async function announce(id: number | "*") {
  await publish(CHANNEL_CHANGED_CHANNEL, String(id));
}

const NO_MULTI_KEY_VERTEX = "Vertex AI 渠道的密钥是整段 JSON，不支持单渠道多密钥";

/** Every line a key the channel type accepts; the first refusal, if any. */
function checkKeys(type: number, keys: string[]): string | undefined {
  for (const key of keys) {
    const problem = validateChannelKey(type, key);
    if (problem) return problem;
  }
  return undefined;
}

export type CreateOptions = { mode?: CreateMode; multiKeyMode?: KeyMode };

/**
 * Makes channels of the key lines (a Vertex service-account JSON is one key): "batch" (the
 * default) one channel per line, "single" one channel of one key, "multi_to_single" one channel
 * holding every line as its keys. Each gets its abilities, all in one transaction: either every
 * channel of the batch exists or none does.
 */
export async function createChannels(fields: ChannelFields, options: CreateOptions = {}): Promise<Result<number[]>> {
  const mode = options.mode ?? "batch";
  const type = fields.type ?? 1;
  if (!getChannelType(type) || type === CHANNEL_TYPE.unknown) return { ok: false, message: "未知的渠道类型" };
  const keys = splitChannelKeys(type, fields.key ?? "");
  if (!fields.name?.trim() || keys.length === 0) return { ok: false, message: "请填写渠道名称和渠道密钥！" };
  if (mode === "single" && keys.length > 1)
    return {
      ok: false,
      message: "单个渠道只能填写一个密钥；每行一个渠道请用批量创建，一个渠道多个密钥请用单渠道多密钥",
    };
  if (mode === "multi_to_single" && type === CHANNEL_TYPE.vertexAi) return { ok: false, message: NO_MULTI_KEY_VERTEX };
  const models = fields.models ?? [...(getChannelType(type)?.defaultModels ?? [])];
  const problem = checkKeys(type, keys);
  if (problem) return { ok: false, message: problem };
  const mapped = toColumns({ ...fields, type, models }, type);
  if (!mapped.ok) return mapped;
  if (requiresBaseUrl(type) && !mapped.value.base_url) return { ok: false, message: BASE_URL_REQUIRED_MESSAGE };
  // A multi-key channel keeps its keys as lines of one secret, numbered from 0 in this order.
  const rows =
    mode === "multi_to_single"
      ? [
          {
            key: keys.join("\n"),
            channel_info: JSON.stringify(
              multiKeyInfo(keys.length, options.multiKeyMode ?? fields.multi_key_mode ?? "random"),
            ),
          },
        ]
      : keys.map((key) => ({ key, channel_info: "" }));
  const db = await getDb();
  const ids = await db.transaction().execute(async (trx) => {
    const created: number[] = [];
    for (const { key, channel_info } of rows) {
      const channel = await trx
        .insertInto("channels")
        .values({
          ...mapped.value,
          type,
          name: fields.name!.trim(),
          key_encrypted: encryptSecret(key),
          channel_info,
          created_time: Math.floor(Date.now() / 1000),
          status: CHANNEL_STATUS.enabled,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await rebuildAbilities(trx, channel);
      created.push(channel.id);
    }
    return created;
  });
  await announce("*");
  return { ok: true, value: ids };
}

/**
 * Changed fields only; a blank key keeps the stored one. A multi-key channel's non-blank key is
 * its new key set: every key starts enabled again (old indexes may name other keys now).
 */
export async function updateChannel(id: number, fields: ChannelFields): Promise<Result<Channel>> {
  const db = await getDb();
  const current = await db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
  if (!current) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  const type = fields.type ?? current.type;
  const mapped = toColumns(fields, type);
  if (!mapped.ok) return mapped;
  // Checked when the change is about where the channel goes; a legacy row without a host can
  // still be renamed or disabled (the relay refuses to call it either way).
  const addressed = fields.base_url !== undefined || fields.type !== undefined;
  if (addressed && requiresBaseUrl(type) && !(mapped.value.base_url ?? current.base_url))
    return { ok: false, message: BASE_URL_REQUIRED_MESSAGE };
  const set: Partial<Columns> & { key_encrypted?: string; channel_info?: string } = { ...mapped.value };
  if (fields.name !== undefined && !fields.name.trim()) return { ok: false, message: "请填写渠道名称和渠道密钥！" };
  const multiKey = parseChannelInfo(current.channel_info).is_multi_key;
  if (multiKey && type === CHANNEL_TYPE.vertexAi) return { ok: false, message: NO_MULTI_KEY_VERTEX };
  const key = fields.key?.trim();
  const keys = key ? (multiKey ? splitChannelKeys(type, key) : [key]) : [];
  const problem = checkKeys(type, keys);
  if (problem) return { ok: false, message: problem };
  if (keys.length) set.key_encrypted = encryptSecret(keys.join("\n"));
  const updated = await db.transaction().execute(async (trx) => {
    if (multiKey && (keys.length || fields.multi_key_mode)) {
      // Read under the row lock a key's status change also takes, so neither loses the other.
      const locked = await trx
        .selectFrom("channels")
        .select("channel_info")
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const info = parseChannelInfo(locked.channel_info);
      const keyMode = fields.multi_key_mode ?? info.multi_key_mode;
      set.channel_info = JSON.stringify(
        keys.length ? multiKeyInfo(keys.length, keyMode) : { ...info, multi_key_mode: keyMode },
      );
    }
    const row = Object.keys(set).length
      ? await trx.updateTable("channels").set(set).where("id", "=", id).returningAll().executeTakeFirstOrThrow()
      : current;
    await rebuildAbilities(trx, row);
    return row;
  });
  await announce(id);
  return { ok: true, value: updated };
}

/**
 * Enable (1), manual disable (2) or automatic disable (3, with the reason and time kept in
 * other_info for the console's tooltip). Abilities follow in the same transaction. An automatic
 * change (a disable, or `automatic` for a re-enable after a passing test) that really changes the
 * status writes a system log (type 4), once however many requests hit the same failure.
 */
export async function setChannelStatus(
  id: number,
  status: number,
  reason = "",
  change: { automatic?: boolean } = {},
): Promise<Result<Channel>> {
  if (!(Object.values(CHANNEL_STATUS) as number[]).includes(status)) return { ok: false, message: "无效的渠道状态" };
  const db = await getDb();
  const current = await db.selectFrom("channels").select(["id", "other_info"]).where("id", "=", id).executeTakeFirst();
  if (!current) return { ok: false, message: "渠道未找到，请刷新页面后重试。" };
  let info: Record<string, unknown> = {};
  try {
    info = current.other_info ? (JSON.parse(current.other_info) as Record<string, unknown>) : {};
  } catch {}
  if (status === CHANNEL_STATUS.enabled) {
    delete info.status_reason;
    delete info.status_time;
  } else {
    info.status_reason = reason || (status === CHANNEL_STATUS.manuallyDisabled ? "手动禁用" : "自动禁用");
    info.status_time = Math.floor(Date.now() / 1000);
  }
  const automatic = status === CHANNEL_STATUS.autoDisabled || change.automatic === true;
  const updated = await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("channels")
      .select("status")
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    const row = await trx
      .updateTable("channels")
      .set({ status, other_info: JSON.stringify(info) })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("abilities")
      .set({ enabled: status === CHANNEL_STATUS.enabled })
      .where("channel_id", "=", id)
      .execute();
    if (automatic && before && before.status !== status) {
      const what =
        status === CHANNEL_STATUS.enabled ? "已被自动启用" : `已被自动禁用，原因：${info.status_reason as string}`;
      await trx
        .insertInto("logs")
        .values({
          created_at: Math.floor(Date.now() / 1000),
          type: LOG_TYPE.system,
          content: `渠道「${row.name}」（#${id}）${what}`.slice(0, 1000),
          channel_id: id,
        })
        .execute();
    }
    return row;
  });
  await announce(id);
  return { ok: true, value: updated };
}

export async function deleteChannel(id: number): Promise<Result> {
  return deleteChannels([id]).then((n) =>
    n ? { ok: true, value: undefined } : { ok: false, message: "渠道未找到，请刷新页面后重试。" },
  );
}

/** Abilities go with their channel (foreign key cascade), unlike the reference's orphans. */
export async function deleteChannels(ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const db = await getDb();
  const result = await db.deleteFrom("channels").where("id", "in", ids).executeTakeFirst();
  await announce("*");
  return Number(result.numDeletedRows);
}

export async function deleteDisabledChannels(): Promise<number> {
  const db = await getDb();
  const result = await db
    .deleteFrom("channels")
    .where("status", "in", [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled])
    .executeTakeFirst();
  await announce("*");
  return Number(result.numDeletedRows);
}

/** A copy with the same key and settings, enabled, with fresh counters. */
export async function copyChannel(id: number, suffix = "_复制"): Promise<Result<number>> {
  const db = await getDb();
  const source = await db.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
  if (!source) return { ok: false, message: "渠道复制失败" };
  const { id: _id, ...fields } = source;
  const copyId = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("channels")
      .values({
        ...fields,
        name: `${source.name}${suffix}`,
        created_time: Math.floor(Date.now() / 1000),
        used_quota: 0,
        balance: 0,
        balance_updated_time: 0,
        test_time: 0,
        response_time: 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await rebuildAbilities(trx, row);
    return row.id;
  });
  await announce("*");
  return { ok: true, value: copyId };
}

/** Rebuilds every channel's abilities from the channels table; returns how many channels. */
export async function fixAbilities(): Promise<number> {
  const db = await getDb();
  const count = await db.transaction().execute(async (trx) => {
    // Two rebuilds at once would both delete, then both insert the same rows (a unique
    // violation, found by the input fuzzer): this lock makes the second wait for the first.
    // Readers (routing) are not blocked; it conflicts only with writers of abilities.
    await sql`lock table abilities in share row exclusive mode`.execute(trx);
    await trx.deleteFrom("abilities").execute();
    const channels = await trx.selectFrom("channels").selectAll().execute();
    for (const channel of channels) await rebuildAbilities(trx, channel);
    return channels.length;
  });
  await announce("*");
  return count;
}
