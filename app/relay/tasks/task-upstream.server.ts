import type { Channel } from "../../../db/schema";
import { guardedHttp, type GuardedResponse } from "~/utils/guarded-http.server";
import { channelBase, taskChannelKey } from "./task-billing.server";

/**
 * One call to a task upstream (a Midjourney proxy, a Suno API) through the SSRF guard, with a
 * deadline and a reply-size cap. Midjourney proxies take the key in `mj-api-secret`, Suno APIs
 * as a bearer token.
 */
export type TaskUpstreamCall = {
  method: "GET" | "POST";
  path: string;
  body?: string;
  auth: "mj" | "bearer";
  timeoutMs: number;
};

export class TaskUpstreamError extends Error {}

export async function callTaskUpstream(channel: Channel, call: TaskUpstreamCall): Promise<GuardedResponse> {
  const base = channelBase(channel);
  if (!base) throw new TaskUpstreamError(`渠道 #${channel.id} 未设置代理地址`);
  const key = taskChannelKey(channel);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  if (call.auth === "mj") headers["mj-api-secret"] = key;
  else headers.Authorization = `Bearer ${key}`;
  try {
    return await guardedHttp(`${base}${call.path}`, {
      method: call.method,
      headers,
      body: call.body,
      timeoutMs: call.timeoutMs,
      maxBytes: 8 * 1024 * 1024,
    });
  } catch (error) {
    throw new TaskUpstreamError(error instanceof Error ? error.message : String(error));
  }
}

/** A JSON reply body, or undefined when it is not JSON. */
export function parseJsonBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
