import { startOpenAiMock } from "../../tests/mocks/openai-upstream";
import { startServer } from "../../tests/support/server";
import { runLoad } from "../load";
import { rssMb } from "../process-stats";
// Memory under sustained load: RSS after each 10 s of c=50 non-stream traffic (a leak keeps climbing).
process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const upstream = await startOpenAiMock();
const server = await startServer({ kind: "postgres", nodeArgs: (process.env.NODE_ARGS ?? "").split(" ").filter(Boolean) });
const login = await fetch(`${server.baseUrl}/api/user/login`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": "10.9.9.8" }, body: JSON.stringify({ username: "root", password: "123456" }) });
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
const rootId = ((await login.json()) as { data: { id: number } }).data.id;
const api = (method: string, path: string, body?: unknown) => fetch(`${server.baseUrl}${path}`, { method, headers: { Cookie: cookie, "New-Api-User": String(rootId), "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
await api("POST", "/api/channel/", { type: 1, name: "bench", key: "sk-bench", base_url: upstream.url, models: "gpt-4o-mini", group: "default" });
await api("POST", "/api/token/", { name: "bench", unlimited_quota: true, remain_quota: 0, expired_time: -1 });
const tokenId = (await api("GET", "/api/token/")).data[0].id;
const key = (await api("GET", `/api/token/${tokenId}/key`)).data.key as string;
const body = JSON.stringify({ model: "gpt-4o-mini", stream: false, messages: [{ role: "user", content: "Say hi" }] });
let total = 0;
for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round += 1) {
  const r = await runLoad(`${server.baseUrl}/v1/chat/completions`, { headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` }, body }, 50, 10);
  total += r.requests;
  console.log(`after ${total} requests: ${r.rps.toFixed(0)} req/s, RSS ${rssMb(server.pid).toFixed(0)} MB`);
}
await server.stop();
await upstream.close();
