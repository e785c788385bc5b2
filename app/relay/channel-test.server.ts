import type { Channel } from "../../db/schema";
import { setChannelStatus } from "~/domain/channels/channels.server";
import { options } from "~/domain/options/store.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { adapterFor } from "./adapters/registry";
import { ChannelConfigError } from "./adapters/types";
import { defaultTestModel } from "./channel-test-model";
import type { Adapter, AdapterContext, UpstreamError } from "./adapters/types";
import { mapModel } from "./attempt.server";
import { shouldDisableChannel } from "./failure-policy";
import { readAll, sendUpstream, UpstreamAbortError } from "./upstream-client.server";
import { channelKeyForCall } from "~/domain/channels/channel-key.server";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";
import { CHANNEL_STATUS } from "~/domain/channels/channel-status";
import { LOG_TYPE } from "~/domain/logs/log-types";

export type ChannelTestResult = { success: boolean; message: string; time: number; disabled?: boolean };

const UNTESTABLE_TYPES = new Set<number>([CHANNEL_TYPE.midjourney, CHANNEL_TYPE.midjourneyPlus, CHANNEL_TYPE.suno]);

/** ?model=, then the channel's test model, then a chat model it serves (see defaultTestModel). */
export function testModelFor(channel: Channel, requested?: string): string {
  return requested?.trim() || channel.test_model?.trim() || defaultTestModel(channel.models);
}

/**
 * What is wrong with a 200 reply, if anything: some upstreams (and proxies in front of them)
 * answer errors with 200 and an error body, or with a page that is no completion at all.
 */
function replyProblem(adapter: Adapter, ctx: AdapterContext, text: string): UpstreamError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      message: `上游返回了无法识别的响应：${text.slice(0, 200)}`,
      type: "upstream_error",
      code: "bad_response_body",
    };
  }
  const body = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  if (body.error || body.type === "error") return adapter.parseError(200, text);
  try {
    const converted = JSON.parse(String(adapter.convertResponse(ctx, Buffer.from(text)).body)) as { choices?: unknown };
    if (Array.isArray(converted.choices)) return undefined;
  } catch {}
  return {
    message: `上游返回了无法识别的响应：${text.slice(0, 200)}`,
    type: "upstream_error",
    code: "bad_response_body",
  };
}

/**
 * The test's time and outcome on the channel row: response_time and test_time as the reference
 * keeps them, and a failure's message in other_info (test_error), so the console shows the
 * failure instead of a quick "response time"; a passing test clears it.
 */
async function recordTestOutcome(channelId: number, result: ChannelTestResult): Promise<void> {
  const db = await getDb();
  const current = await db.selectFrom("channels").select("other_info").where("id", "=", channelId).executeTakeFirst();
  let info: Record<string, unknown> = {};
  try {
    const parsed: unknown = current?.other_info ? JSON.parse(current.other_info) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) info = parsed as Record<string, unknown>;
  } catch {}
  if (result.success) delete info.test_error;
  else info.test_error = result.message.slice(0, 500);
  await db
    .updateTable("channels")
    .set({
      response_time: Math.round(result.time * 1000),
      test_time: Math.floor(Date.now() / 1000),
      other_info: JSON.stringify(info),
    })
    .where("id", "=", channelId)
    .execute();
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
    channel,
    key: channelKeyForCall(channel),
    mode: "chat",
    path: "/v1/chat/completions",
    body: { model, messages: [{ role: "user", content: "hi" }], ...limit },
    upstreamModel,
    requestModel: model,
    stream: false,
  };
  const adapter = adapterFor(channel.type);
  const started = Date.now();
  let result: ChannelTestResult;
  let disableReason: string | undefined;
  try {
    const request = await adapter.buildRequest(ctx);
    const signal = AbortSignal.timeout(env.RELAY_TIMEOUT * 1000);
    const connectTimeoutMs = env.RELAY_CONNECT_TIMEOUT * 1000;
    const upstream = adapter.send
      ? await adapter.send(request, { connectTimeoutMs, signal })
      : await sendUpstream(request.url, {
          method: request.method ?? "POST",
          headers: request.headers,
          body: request.method === "GET" ? undefined : request.body,
          signal,
          connectTimeoutMs,
        });
    const text = (await readAll(upstream)).toString("utf8");
    const seconds = (Date.now() - started) / 1000;
    const status = upstream.statusCode ?? 0;
    const error = status === 200 ? replyProblem(adapter, ctx, text) : adapter.parseError(status, text);
    if (!error) {
      result = { success: true, message: "", time: seconds };
    } else {
      result = { success: false, message: error.message, time: seconds };
      if (shouldDisableChannel(status, error, channel.type)) disableReason = `${status} ${error.message}`;
    }
  } catch (error) {
    // No reply at all (refused, unresolvable, forbidden address, timed out). A test exists to
    // tell whether the channel works: this one does not, so it counts for auto-disable (a relay
    // call's connection failure does not: it is retried elsewhere). See decision 008.
    const timedOut = error instanceof UpstreamAbortError || (error as Error).name === "TimeoutError";
    if (error instanceof ChannelConfigError) {
      // Misconfigured, not broken: said as it is, and not a reason to disable (the operator must edit it anyway).
      result = { success: false, message: error.message, time: 0 };
      await recordTestOutcome(channel.id, result);
      return result;
    }
    const message = timedOut
      ? `上游响应超时（${env.RELAY_TIMEOUT} 秒）`
      : `请求上游地址失败：${(error as Error).message}`;
    result = { success: false, message, time: (Date.now() - started) / 1000 };
    disableReason = message;
  }
  await recordTestOutcome(channel.id, result);
  // Logged as root (user 1), under root's name, so the log's user column and a search by name find it.
  await (
    await getDb()
  )
    .insertInto("logs")
    .values((eb) => ({
      created_at: Math.floor(Date.now() / 1000),
      type: LOG_TYPE.consume,
      content: result.success ? "模型测试" : `模型测试失败：${result.message}`.slice(0, 500),
      user_id: 1,
      username: eb.fn.coalesce(eb.selectFrom("users").select("username").where("id", "=", 1), eb.val("")),
      token_name: "模型测试",
      model_name: model,
      quota: 0,
      use_time: Math.round(result.time),
      channel_id: channel.id,
      other: JSON.stringify({ test: true }),
    }))
    .execute();
  if (
    disableReason &&
    channel.auto_ban &&
    channel.status === CHANNEL_STATUS.enabled &&
    options.bool("AutomaticDisableChannelEnabled")
  ) {
    await setChannelStatus(channel.id, 3, disableReason.slice(0, 500));
    result.disabled = true;
  }
  return result;
}
