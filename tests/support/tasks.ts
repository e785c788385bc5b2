import { call, signIn, type Node } from "./standalone";

/** Helpers for the Midjourney and Suno task tests, against a server of their own (short poll intervals). */
export async function setOptionOn(node: Node, key: string, value: string): Promise<void> {
  const res = await call(node.baseUrl, "/api/option/", { method: "PUT", headers: node.auth, body: { key, value } });
  if (!res.json?.success) throw new Error(`option ${key}: ${res.text}`);
}

export async function taskChannel(
  root: Node,
  fields: { type: number; base_url: string; key: string; models: string },
): Promise<number> {
  const name = `task-${Math.random().toString(36).slice(2, 9)}`;
  const created = await call(root.baseUrl, "/api/channel/", {
    method: "POST",
    headers: root.auth,
    body: { group: "default", name, ...fields },
  });
  if (!created.json?.success) throw new Error(`channel: ${created.text}`);
  const found = await call(root.baseUrl, `/api/channel/search?keyword=${name}`, { headers: root.auth });
  return found.json.data[0].id as number;
}

export type Payer = { user: Node; userId: number; key: string; tokenId: number };

/** A fresh user holding `quota`, with one token limited to `tokenQuota`. */
export async function payer(root: Node, quota: number, tokenQuota: number): Promise<Payer> {
  await setOptionOn(root, "QuotaForNewUser", String(quota));
  const username = `t${Math.random().toString(36).slice(2, 10)}`;
  try {
    const registered = await call(root.baseUrl, "/api/user/register", {
      method: "POST",
      body: { username, password: "password123", password2: "password123" },
    });
    if (!registered.json?.success) throw new Error(`register: ${registered.text}`);
  } finally {
    await setOptionOn(root, "QuotaForNewUser", "0");
  }
  const user = await signIn(root.baseUrl, username, "password123");
  const created = await call(root.baseUrl, "/api/token/", {
    method: "POST",
    headers: user.auth,
    body: { name: "tasks", remain_quota: tokenQuota, unlimited_quota: false, expired_time: -1 },
  });
  if (!created.json?.success) throw new Error(`token: ${created.text}`);
  const token = (await call(root.baseUrl, "/api/token/", { headers: user.auth })).json.data[0];
  const key = (await call(root.baseUrl, `/api/token/${token.id}/key`, { headers: user.auth })).json.data.key as string;
  return { user, userId: Number(user.auth["New-Api-User"]), key, tokenId: token.id as number };
}

export async function balances(p: Payer): Promise<{ quota: number; used: number; token: number; tokenUsed: number }> {
  const self = (await call(p.user.baseUrl, "/api/user/self", { headers: p.user.auth })).json.data;
  const token = (await call(p.user.baseUrl, `/api/token/${p.tokenId}`, { headers: p.user.auth })).json.data;
  return {
    quota: Number(self.quota),
    used: Number(self.used_quota),
    token: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
  };
}

/** The user's own log rows (newest first). */
export async function logsOf(
  p: Payer,
): Promise<{ type: number; content: string; quota: number; model_name: string; token_name: string }[]> {
  const res = await call(p.user.baseUrl, "/api/log/self?p=1&page_size=100", { headers: p.user.auth });
  return res.json.data.items;
}

/** A task refund's log row (a system row; registration gifts are system rows too). */
export function isRefund(log: { type: number; content: string }): boolean {
  return log.type === 4 && log.content.includes("，补偿 ");
}
