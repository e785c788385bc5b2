import { spawn } from "node:child_process";
import { once } from "node:events";
import { startServer, type StartedServer } from "../tests/support/server";

/** An upstream a benchmark sends to: where it listens, and how to stop it. */
export type BenchUpstream = { url: string; close: () => Promise<void>; pid?: number };

/** The near-free OpenAI upstream of bench/fast-upstream.mjs, in a process of its own (its CPU is not the benchmark's). */
export async function startFastUpstream(): Promise<BenchUpstream> {
  const child = spawn(process.execPath, [new URL("./fast-upstream.mjs", import.meta.url).pathname], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = String((await once(child.stdout!, "data"))[0]).trim();
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    close: async () => {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/**
 * One of the relays the gateway is measured beside, in a process of its own: `bare` (a plain
 * node:http proxy, bare-relay.mjs) or `floor` (the least a relay that charges does,
 * floor-relay.mjs). Its chat URL, its pid (for its CPU), and how to stop it.
 */
export async function startComparisonRelay(
  kind: "bare" | "floor",
  upstream: BenchUpstream,
): Promise<{ url: string; pid: number; close: () => void }> {
  const child = spawn(process.execPath, [new URL(`./${kind}-relay.mjs`, import.meta.url).pathname, upstream.url], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = String((await once(child.stdout!, "data"))[0]).trim();
  return { url: `http://127.0.0.1:${port}/v1/chat/completions`, pid: child.pid!, close: () => child.kill() };
}

/**
 * What every relay benchmark starts from: a near-free loopback OpenAI upstream, Switchyard on PostgreSQL
 * (DATABASE_URL, else the local server) with one channel to the mock, and root's unlimited token.
 */
export type BenchGateway = {
  upstream: BenchUpstream;
  server: StartedServer;
  key: string;
  api: (method: string, path: string, body?: unknown) => Promise<any>;
  close: () => Promise<void>;
};

export async function startBenchGateway(
  options: { nodeArgs?: string[]; cwd?: string; upstream?: BenchUpstream; env?: Record<string, string> } = {},
): Promise<BenchGateway> {
  process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
  const upstream = options.upstream ?? (await startFastUpstream());
  const server = await startServer({
    kind: "postgres",
    nodeArgs: options.nodeArgs,
    cwd: options.cwd,
    env: options.env,
  });
  const close = async () => {
    await server.stop();
    if (!options.upstream) await upstream.close();
  };
  try {
    // A client address of its own, so sign-in rate limits left in Redis by other runs do not apply.
    const login = await fetch(`${server.baseUrl}/api/user/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.250.${process.pid % 250}.1` },
      body: JSON.stringify({ username: "root", password: "123456" }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const rootId = ((await login.json()) as { data: { id: number } }).data.id;
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { Cookie: cookie, "New-Api-User": String(rootId), "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    await api("POST", "/api/channel/", {
      type: 1,
      name: "bench",
      key: "sk-bench",
      base_url: upstream.url,
      models: "gpt-4o-mini",
      group: "default",
    });
    await api("POST", "/api/token/", { name: "bench", unlimited_quota: true, remain_quota: 0, expired_time: -1 });
    const tokenId = (await api("GET", "/api/token/")).data[0].id;
    const key = (await api("GET", `/api/token/${tokenId}/key`)).data.key as string;
    return { upstream, server, key, api, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The benchmark's chat request: "Say hi", or with BENCH_BODY_KB=N a chat history of about N KB
 * and an int64 seed, the body whose bytes the gateway edits (or re-serialised, before) per call.
 */
const historyKb = Number(process.env.BENCH_BODY_KB ?? 0);
const history = Array.from({ length: Math.ceil((historyKb * 1024) / 520) }, (_, i) => ({
  role: i % 2 ? "assistant" : "user",
  content: `${"lorem ipsum dolor sit amet ".repeat(18)}${i}`,
}));
export const chatBody = (stream: boolean) =>
  historyKb > 0
    ? `{"model":"gpt-4o-mini","stream":${stream},"seed":9223372036854775807,"temperature":1.0,"messages":${JSON.stringify([...history, { role: "user", content: "Say hi" }])}}`
    : JSON.stringify({ model: "gpt-4o-mini", stream, messages: [{ role: "user", content: "Say hi" }] });
