import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Channel } from "../../../db/schema";
import { getChannel } from "~/domain/channels/channel-queries.server";
import { effectiveServerAddress } from "~/domain/options/store.server";
import { applyMjState } from "~/domain/tasks/midjourney.server";
import { getDb } from "~/utils/db.server";
import { sendJson } from "../http.server";
import { readReportedMjTask } from "./mj-wire";
import { mjError, readJsonObject } from "./mj-replies.server";
import { taskChannelKey } from "./task-billing.server";

/** The callback address the proxy is given (MjNotifyEnabled), signed with the channel's key so a forged notify is refused. */
export function notifySignature(channel: Channel): string {
  return createHmac("sha256", taskChannelKey(channel)).update(`mj-notify:${channel.id}`).digest("hex").slice(0, 32);
}

export function notifyHookFor(channel: Channel): string {
  return `${effectiveServerAddress().replace(/\/+$/, "")}/mj/notify?channel=${channel.id}&sig=${notifySignature(channel)}`;
}

/** `POST /mj/notify?channel=&sig=`: the proxy's callback, applied like a poll result (idempotent). */
export async function handleMjNotify(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://gateway");
  const channelId = Number(url.searchParams.get("channel"));
  const sig = url.searchParams.get("sig") ?? "";
  const channel = Number.isSafeInteger(channelId) && channelId > 0 ? await getChannel(channelId) : undefined;
  const expected = channel ? Buffer.from(notifySignature(channel)) : undefined;
  // Compared as bytes: a signature of as many characters as the expected one can still be longer in UTF-8.
  const given = Buffer.from(sig);
  if (!channel || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    req.resume();
    return mjError(res, 401, 4, "无效的回调签名");
  }
  const body = await readJsonObject(req, res);
  if (!body) return;
  const task = readReportedMjTask(body);
  if (!task) return mjError(res, 400, 4, "invalid_request: 缺少任务 id");
  const db = await getDb();
  const rows = await db
    .selectFrom("midjourneys")
    .selectAll()
    .where("mj_id", "=", task.id)
    .where("channel_id", "=", channel.id)
    .execute();
  for (const row of rows) await applyMjState(row, task);
  sendJson(res, 200, { code: 1, description: "success", result: task.id });
}
