import { startOpenAiMock } from "../../tests/mocks/openai-upstream";
import { sendUpstream, readAll } from "../../app/relay/upstream-client.server";
const m = await startOpenAiMock();
const body = JSON.stringify({ model: "gpt-4o-mini", stream: false, messages: [{ role: "user", content: "Say hi" }] });
for (const variant of ["signal", "nosignal", "signal", "nosignal"]) {
  const t: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const s = performance.now();
    const ac = new AbortController();
    const res = await sendUpstream(`${m.url}/v1/chat/completions`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer x" }, body, signal: variant === "signal" ? ac.signal : (undefined as any), connectTimeoutMs: 5000 });
    await readAll(res);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  console.log(variant, "p50", t[1500]!.toFixed(3));
}
await m.close();
