import { describe, expect, inject, it } from "vitest";
import { freePort, startServer } from "../support/server";
import { call, signIn, stoppedAfterAll } from "../support/standalone";

/** LOG_FORMAT=json: what a log collector reads from the process. */
const kind = inject("dbKind");
const started = stoppedAfterAll();

describe("LOG_FORMAT=json", () => {
  it("every line is one JSON object; a relay line carries the request id the client got; no key, password or cookie appears", async () => {
    const password = "Correct-Horse-Battery-9";
    const server = await startServer({ kind, env: { LOG_FORMAT: "json", ROOT_PASSWORD: password }, worker: false });
    started.servers.push(server);
    const node = await signIn(server.baseUrl, "root", password);
    const cookieValue = node.auth.Cookie!.split("=").slice(1).join("=");
    // A channel whose upstream refuses connections: the attempt fails and the relay says so.
    const closedPort = await freePort();
    await call(server.baseUrl, "/api/channel/", {
      method: "POST",
      headers: node.auth,
      body: {
        type: 1,
        name: "closed",
        key: "sk-upstreamKeyThatMustNotLeak123",
        base_url: `http://127.0.0.1:${closedPort}`,
        models: "gpt-4o-mini",
      },
    });
    await call(server.baseUrl, "/api/token/", {
      method: "POST",
      headers: node.auth,
      body: { name: "t", unlimited_quota: true, remain_quota: 0, expired_time: -1 },
    });
    const tokenId = (await call(server.baseUrl, "/api/token/", { headers: node.auth })).json.data[0].id;
    const key = (await call(server.baseUrl, `/api/token/${tokenId}/key`, { headers: node.auth })).json.data
      .key as string;
    const reply = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(reply.status).toBeGreaterThanOrEqual(500);
    const requestId = reply.headers.get("x-oneapi-request-id");
    expect(requestId).toBeTruthy();
    await new Promise((r) => setTimeout(r, 300));

    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(3);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    for (const line of parsed) {
      expect(typeof line.level).toBe("string");
      expect(typeof line.time).toBe("string");
      expect(typeof line.msg).toBe("string");
    }
    const relayLine = parsed.find((line) => line.component === "relay" && line.request_id === requestId);
    expect(relayLine?.msg).toMatch(/request failed/);
    expect(relayLine?.level).toBe("warn");
    expect(parsed.some((line) => line.component === "server" && String(line.msg).includes("listening on"))).toBe(true);
    const all = server.output();
    for (const secret of [password, key, key.slice(3), cookieValue, "sk-upstreamKeyThatMustNotLeak123"])
      expect(all).not.toContain(secret);
  }, 60_000);

  it("an unknown LOG_FORMAT is refused at start with the reason", async () => {
    await expect(startServer({ kind, env: { LOG_FORMAT: "xml" }, worker: false })).rejects.toThrow(/LOG_FORMAT/);
  }, 60_000);
});
