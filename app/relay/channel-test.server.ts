import type { Channel } from "../../db/schema";
import { setChannelStatus } from "~/domain/channels/channels.server";
import { options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { decryptSecret } from "~/utils/secrets.server";
import { adapterFor } from "./adapters/registry";
import type { AdapterContext } from "./adapters/types";
import { mapModel } from "./attempt.server";
import { shouldDisableChannel } from "./failure-policy";
import { readAll, sendUpstream } from "./upstream-client.server";

export type ChannelTestResult = { success: boolean; message: string; time: number; disabled?: boolean };

const UNTESTABLE_TYPES = new Set([2, 5, 36]);

/** The reference's test model order: ?model=, the channel's test model, its first model, gpt-3.5-turbo. */
export function testModelFor(channel: Channel, requested?: string): string {
  return requested?.trim() || channel.test_model?.trim() || channel.models.split(",").map((m) => m.trim()).find(Boolean) || "gpt-3.5-turbo";
}

/**
 * A real one-token chat call through the channel's adapter. Records response_time and
 * test_time and writes a test log; nobody is charged. Auto-disables on the reference's rules.
 */
export async function testChannel(channel: Channel, requestedModel?: string): Promise<ChannelTestResult> {
  if (UNTESTABLE_TYPES.has(channel.type)) return { success: false, message: "该渠道类型不支持测试", time: 0 };
  const model = testModelFor(channel, requestedModel);
  const upstreamModel = mapModel(channel, model);
  const limit = /^o\d/.test(upstreamModel) ? { max_completion_tokens: 1 } : { max_tokens: 1 };
  const ctx: AdapterContext = {
    channel, key: decryptSecret(channel.key_encrypted), mode: "chat", path: "/v1/chat/completions",
    body: { model, messages: [{ role: "user", content: "hi" }], ...limit }, upstreamModel, requestModel: model, stream: false,
  };
  const adapter = adapterFor(channel.type);
  const request = adapter.buildRequest(ctx);
  const started = Date.now();
  let result: ChannelTestResult;
  let disableReason: string | undefined;
  try {
    const upstream = await sendUpstream(request.url, { method: "POST", headers: request.headers, body: request.body, signal: AbortSignal.timeout(env.RELAY_TIMEOUT * 1000), connectTimeoutMs: env.RELAY_CONNECT_TIMEOUT * 1000 });
    const text = (await readAll(upstream)).toString("utf8");
    const seconds = (Date.now() - started) / 1000;
    if (upstream.statusCode === 200) {
      result = { success: true, message: "", time: seconds };
    } else {
      const error = adapter.parseError(upstream.statusCode ?? 0, text);
      result = { success: false, message: error.message, time: seconds };
      if (shouldDisableChannel(upstream.statusCode ?? 0, error, channel.type)) disableReason = `${upstream.statusCode} ${error.message}`;
    }
  } catch (error) {
    result = { success: false, message: `请求上游地址失败：${(error as Error).message}`, time: (Date.now() - started) / 1000 };
  }
  const db = await getDb();
  await db.updateTable("channels").set({ response_time: Math.round(result.time * 1000), test_time: Math.floor(Date.now() / 1000) }).where("id", "=", channel.id).execute();
  await db
    .insertInto("logs")
    .values({
      created_at: Math.floor(Date.now() / 1000), type: 2, content: result.success ? "模型测试" : `模型测试失败：${result.message}`.slice(0, 500), user_id: 1, username: "",
      token_name: "模型测试", model_name: model, quota: 0, use_time: Math.round(result.time), channel_id: channel.id, other: JSON.stringify({ test: true }),
    })
    .execute();
  if (disableReason && channel.auto_ban && channel.status === 1 && options.bool("AutomaticDisableChannelEnabled")) {
    await setChannelStatus(channel.id, 3, disableReason.slice(0, 500));
    result.disabled = true;
  }
  return result;
}
