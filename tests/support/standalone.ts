import { afterAll } from "vitest";
import type { MockUpstream } from "../mocks/openai-upstream";
import { fakeIp } from "./api";
import type { TestRedis } from "./redis-server";
import type { StartedServer } from "./server";

/**
 * Helpers for tests that start servers of their own (a node per deployment, a node to crash or
 * to cut off from its dependencies) instead of the shared one from global-setup.
 */
export type Node = { baseUrl: string; auth: Record<string, string> };

export async function call(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
) {
  const res = await fetch(base + path, {
    method: init.method ?? "GET",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": fakeIp(), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: "manual",
    signal: AbortSignal.timeout(init.timeoutMs ?? 20_000),
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { res, status: res.status, text, json };
}

export async function signIn(baseUrl: string, username = "root", password = "123456"): Promise<Node> {
  const login = await call(baseUrl, "/api/user/login", { method: "POST", body: { username, password } });
  if (!login.json?.success) throw new Error(`sign-in failed: ${login.text}`);
  const cookie = (login.res.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { baseUrl, auth: { Cookie: cookie, "New-Api-User": String(login.json.data.id) } };
}

/** A channel to the upstream mock and a fresh unlimited token of root; returns the token's key. */
export async function channelAndKey(node: Node, upstreamUrl: string, model = "gpt-4o-mini"): Promise<string> {
  const channel = await call(node.baseUrl, "/api/channel/", {
    method: "POST",
    headers: node.auth,
    body: {
      type: 1,
      name: `c-${Math.random().toString(36).slice(2, 8)}`,
      key: "k",
      base_url: upstreamUrl,
      models: model,
    },
  });
  if (!channel.json?.success) throw new Error(`channel: ${channel.text}`);
  const name = `t-${Math.random().toString(36).slice(2, 8)}`;
  await call(node.baseUrl, "/api/token/", {
    method: "POST",
    headers: node.auth,
    body: { name, unlimited_quota: true, remain_quota: 0, expired_time: -1 },
  });
  const tokens = (await call(node.baseUrl, "/api/token/", { headers: node.auth })).json.data as {
    id: number;
    name: string;
  }[];
  const tokenId = tokens.find((t) => t.name === name)!.id;
  return (await call(node.baseUrl, `/api/token/${tokenId}/key`, { headers: node.auth })).json.data.key as string;
}

export function chat(baseUrl: string, key: string, model = "gpt-4o-mini") {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, max_tokens: 1000, messages: [{ role: "user", content: "hi" }] }),
    signal: AbortSignal.timeout(30_000),
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` is true or the time is up; returns whether it became true. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  stepMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
}

/**
 * What a test file starts for itself, stopped after its last test: servers first, then the
 * upstream mocks and Redis servers they talk to. Push into the lists as things start.
 */
export function stoppedAfterAll(): { servers: StartedServer[]; upstreams: MockUpstream[]; redises: TestRedis[] } {
  const started = { servers: [] as StartedServer[], upstreams: [] as MockUpstream[], redises: [] as TestRedis[] };
  afterAll(async () => {
    for (const s of started.servers) await s.stop();
    for (const u of started.upstreams) await u.close();
    for (const r of started.redises) await r.stop();
  });
  return started;
}
