import { createServer } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startRealtimeMock, type RealtimeMock } from "../mocks/realtime-mock";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";
import { startServer } from "../support/server";
import { call, channelAndKey, signIn } from "../support/standalone";

/** The Realtime WebSocket pass-through (decision 026): relayed both ways, billed from response.done. */
let root: ApiSession;
let upstream: RealtimeMock;
const model = uniqueModel("rt");
const failoverModel = uniqueModel("rtfo");

/** A port nothing listens on: connecting to it is refused at once. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startRealtimeMock("sk-upstream");
  await mergeOption(root, "ModelRatio", { [model]: 1, [failoverModel]: 1 });
  await mergeOption(root, "CompletionRatio", { [model]: 4, [failoverModel]: 4 });
  await createChannel(root, {
    type: 1,
    key: "sk-upstream",
    base_url: upstream.url,
    models: `${model},${failoverModel}`,
    model_mapping: JSON.stringify({ [model]: "gpt-4o-realtime-preview" }),
  });
  await createChannel(root, {
    type: 1,
    key: "sk-upstream",
    base_url: `http://127.0.0.1:${await deadPort()}`,
    models: failoverModel,
    priority: 10,
  });
}, 60_000);

afterAll(async () => {
  await upstream?.close();
});

const wsUrl = (m: string) => `${baseUrl().replace(/^http/, "ws")}/v1/realtime?model=${encodeURIComponent(m)}`;

type Opened = { ws: WebSocket; events: { type: string }[]; next: (type: string) => Promise<{ type: string }> };

function open(url: string, options: { headers?: Record<string, string>; protocols?: string[] }): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
    const events: { type: string }[] = [];
    // Events not yet taken by next(), so one that arrives before anyone waits for it is not lost.
    const unclaimed: { type: string }[] = [];
    const waiters: { type: string; resolve: (e: { type: string }) => void }[] = [];
    ws.on("message", (data) => {
      const event = JSON.parse(data.toString()) as { type: string };
      events.push(event);
      const waiter = waiters.findIndex((w) => w.type === event.type);
      if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(event);
      else unclaimed.push(event);
    });
    const next = (type: string) =>
      new Promise<{ type: string }>((r) => {
        const ready = unclaimed.findIndex((e) => e.type === type);
        if (ready >= 0) r(unclaimed.splice(ready, 1)[0]!);
        else waiters.push({ type, resolve: r });
      });
    ws.once("open", () => resolve({ ws, events, next }));
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () =>
        reject(Object.assign(new Error(`status ${res.statusCode}`), { status: res.statusCode, body })),
      );
    });
    ws.once("error", reject);
  });
}

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("Realtime GET /v1/realtime", () => {
  it("relays frames both ways with the channel key at the mapped model, and bills each response.done at close: 2 × (120 + 30×4) = 480", async () => {
    const { user, key } = await userWithToken(100_000);
    const session = await open(wsUrl(model), {
      headers: { Authorization: `Bearer ${key}`, "OpenAI-Beta": "realtime=v1" },
    });
    expect((await session.next("session.created")) as unknown).toMatchObject({
      session: { model: "gpt-4o-realtime-preview" },
    });
    const handshake = upstream.handshakes.at(-1)!;
    expect(handshake.path).toBe("/v1/realtime?model=gpt-4o-realtime-preview");
    expect(handshake.headers.authorization).toBe("Bearer sk-upstream");
    expect(handshake.headers["openai-beta"]).toBe("realtime=v1");
    session.ws.send(JSON.stringify({ type: "response.create" }));
    await session.next("response.done");
    session.ws.send(JSON.stringify({ type: "response.create" }));
    await session.next("response.done");
    expect(session.events.map((e) => e.type)).toContain("response.output_text.delta");
    session.ws.close();
    await waitFor(async () => (await quotaOf(user)).used_quota === 480);
    const log = (await user.call("GET", "/api/log/self?p=1&page_size=5")).json.data.items[0];
    expect(log).toMatchObject({
      model_name: model,
      prompt_tokens: 240,
      completion_tokens: 60,
      quota: 480,
      is_stream: true,
    });
  });

  it("takes the key from the openai-insecure-api-key subprotocol, which never goes upstream", async () => {
    const { key } = await userWithToken(100_000);
    const session = await open(wsUrl(model), {
      protocols: ["realtime", `openai-insecure-api-key.${key}`, "openai-beta.realtime-v1"],
    });
    expect(session.ws.protocol).toBe("realtime");
    await session.next("session.created");
    expect(upstream.handshakes.at(-1)!.protocols).toEqual(["realtime", "openai-beta.realtime-v1"]);
    session.ws.close();
  });

  it("refuses a bad key with 401 before upgrading, and a session on a used-up balance with 403", async () => {
    const refused = await open(wsUrl(model), { headers: { Authorization: "Bearer sk-nope" } }).catch(
      (e: { status: number; body: string }) => e,
    );
    expect((refused as { status: number }).status).toBe(401);
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ error: { code: "invalid_token" } });
    const { key } = await userWithToken(0);
    const broke = await open(wsUrl(model), { headers: { Authorization: `Bearer ${key}` } }).catch(
      (e: { status: number }) => e,
    );
    expect((broke as { status: number }).status).toBe(403);
  });

  it("fails over: a channel that cannot be reached is passed over for the next", async () => {
    const { user, key } = await userWithToken(100_000);
    const session = await open(wsUrl(failoverModel), { headers: { Authorization: `Bearer ${key}` } });
    await session.next("session.created");
    session.ws.send(JSON.stringify({ type: "response.create" }));
    await session.next("response.done");
    session.ws.close();
    await waitFor(async () => (await quotaOf(user)).used_quota === 240);
  });

  it("an upstream that answers the upgrade with a plain 200 is a 502 with an OpenAI error body, and nothing is billed", async () => {
    const plain = createHttpServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    try {
      const odd = uniqueModel("rt200");
      await mergeOption(root, "ModelRatio", { [odd]: 1 });
      await createChannel(root, {
        type: 1,
        key: "sk-upstream",
        base_url: `http://127.0.0.1:${(plain.address() as { port: number }).port}`,
        models: odd,
      });
      const { user, key } = await userWithToken(100_000);
      const refused = (await open(wsUrl(odd), { headers: { Authorization: `Bearer ${key}` } }).catch(
        (e: { status: number; body: string }) => e,
      )) as { status: number; body: string };
      expect(refused.status).toBe(502);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { type: "upstream_error", code: "upstream_refused" } });
      const after = await quotaOf(user);
      expect(after.used_quota).toBe(0);
      expect(after.quota).toBe(100_000);
    } finally {
      await new Promise<void>((r) => plain.close(() => r()));
    }
  });

  it("a key pinned to a disabled channel is refused 403 channel_disabled, the same answer as on chat", async () => {
    const node = await signIn(baseUrl());
    const pinnedModel = uniqueModel("rtpin");
    await mergeOption(root, "ModelRatio", { [pinnedModel]: 1 });
    const channelId = await createChannel(root, {
      type: 1,
      key: "sk-upstream",
      base_url: upstream.url,
      models: pinnedModel,
    });
    const disabled = await root.call("PUT", "/api/channel/", { id: channelId, status: 2 });
    expect(disabled.json.success).toBe(true);
    const key = await channelAndKey(node, upstream.url, pinnedModel);
    const pinnedKey = `${key}-${channelId}`;
    const onChat = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${pinnedKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: pinnedModel, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(onChat.status).toBe(403);
    expect(((await onChat.json()) as { error: { code: string } }).error.code).toBe("channel_disabled");
    const refused = (await open(wsUrl(pinnedModel), { headers: { Authorization: `Bearer ${pinnedKey}` } }).catch(
      (e: { status: number; body: string }) => e,
    )) as { status: number; body: string };
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "channel_disabled" } });
  });

  it(
    "closes a session idle for STREAMING_TIMEOUT seconds (1001) and bills what it used",
    { timeout: 60_000 },
    async () => {
      const idleUpstream = await startRealtimeMock("k");
      const server = await startServer({ kind: inject("dbKind"), env: { STREAMING_TIMEOUT: "1" }, worker: false });
      try {
        const node = await signIn(server.baseUrl);
        const key = await channelAndKey(node, idleUpstream.url, "gpt-4o-mini");
        const session = await open(`${server.baseUrl.replace(/^http/, "ws")}/v1/realtime?model=gpt-4o-mini`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        await session.next("session.created");
        session.ws.send(JSON.stringify({ type: "response.create" }));
        await session.next("response.done");
        const startedIdle = Date.now();
        const code = await new Promise<number>((resolve) => session.ws.once("close", (c) => resolve(c)));
        expect(code).toBe(1001);
        expect(Date.now() - startedIdle).toBeLessThan(5_000);
        let log: { prompt_tokens: number; completion_tokens: number } | undefined;
        await waitFor(async () => {
          log = (
            await call(node.baseUrl, "/api/log/self?p=1&page_size=5", { headers: node.auth })
          ).json.data.items.find((l: { model_name: string }) => l.model_name === "gpt-4o-mini");
          return log !== undefined;
        });
        expect(log).toMatchObject({ prompt_tokens: 120, completion_tokens: 30 });
      } finally {
        await server.stop();
        await idleUpstream.close();
      }
    },
  );
});
