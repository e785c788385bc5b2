import OpenAI from "openai";
import { baseUrl, loginRoot, newUser, type ApiSession } from "./api";

/** Relay test helpers: priced unique models, channels pointing at mocks, users and keys. */
export function uniqueModel(prefix = "m"): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 9)}`;
}

export async function setOption(root: ApiSession, key: string, value: string) {
  const res = await root.call("PUT", "/api/option/", { key, value });
  if (!res.json.success) throw new Error(`option ${key}: ${res.json.message}`);
}

/** Adds entries to a JSON-map option (ModelRatio, CompletionRatio, ModelPrice…). */
export async function mergeOption(root: ApiSession, key: string, entries: Record<string, number>) {
  const all = (await root.call("GET", "/api/option/")).json.data as { key: string; value: string }[];
  const current = JSON.parse(all.find((o) => o.key === key)?.value ?? "{}") as Record<string, number>;
  await setOption(root, key, JSON.stringify({ ...current, ...entries }));
}

export async function createChannel(root: ApiSession, fields: Record<string, unknown>): Promise<number> {
  const name = `relay-${Math.random().toString(36).slice(2, 9)}`;
  const res = await root.call("POST", "/api/channel/", {
    type: 1,
    key: "sk-upstream",
    group: "default",
    name,
    ...fields,
  });
  if (!res.json.success) throw new Error(`channel: ${res.json.message}`);
  const found = await root.call("GET", `/api/channel/search?keyword=${name}`);
  return found.json.data[0].id as number;
}

/** A fresh user holding `quota` and one token; returns its key and an OpenAI client using it. */
export async function userWithToken(quota: number, tokenFields: Record<string, unknown> = {}) {
  const root = await loginRoot();
  await setOption(root, "QuotaForNewUser", String(quota));
  let user: ApiSession;
  try {
    user = await newUser();
  } finally {
    await setOption(root, "QuotaForNewUser", "0");
  }
  const created = await user.call("POST", "/api/token/", {
    name: "relay",
    remain_quota: 500000,
    expired_time: -1,
    unlimited_quota: true,
    ...tokenFields,
  });
  if (!created.json.success) throw new Error(`token: ${created.json.message}`);
  const token = (await user.call("GET", "/api/token/")).json.data[0];
  const key = (await user.call("GET", `/api/token/${token.id}/key`)).json.data.key as string;
  const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl()}/v1`, maxRetries: 0, timeout: 20_000 });
  return { user, key, tokenId: token.id as number, client };
}

export async function quotaOf(user: ApiSession): Promise<{ quota: number; used_quota: number; request_count: number }> {
  return (await user.call("GET", "/api/user/self")).json.data;
}

export async function tokenOf(user: ApiSession, id: number) {
  return (await user.call("GET", `/api/token/${id}`)).json.data;
}
