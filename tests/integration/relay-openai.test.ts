import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, request, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, tokenOf, uniqueModel, userWithToken } from "../support/relay";

let root: ApiSession;
let upstream: MockUpstream;
const model = uniqueModel("chat");
const embedModel = uniqueModel("emb");

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock({ apiKey: "sk-upstream" });
  await mergeOption(root, "ModelRatio", { [model]: 1.5, [embedModel]: 0.1 });
  await mergeOption(root, "CompletionRatio", { [model]: 2 });
  await createChannel(root, {
    base_url: upstream.url,
    models: `${model},${embedModel}`,
    model_mapping: JSON.stringify({ [model]: "gpt-4o-mini" }),
  });
});
afterAll(async () => upstream.close());

describe("OpenAI-compatible relay through the official client", () => {
  it("relays a chat completion and bills (61 + 17×2) × 1.5 = 143 to user and token", async () => {
    const { user, client, tokenId } = await userWithToken(100_000);
    const completion = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Say hi" }] });
    expect(completion.choices[0]?.message.content).toBe("Hello there.");
    expect(completion.usage?.total_tokens).toBe(78);
    const sent = JSON.parse(upstream.requests.at(-1)!.body) as Record<string, unknown>;
    expect(sent.model).toBe("gpt-4o-mini");
    expect(sent.messages).toEqual([{ role: "user", content: "Say hi" }]);
    expect(upstream.requests.at(-1)!.headers.authorization).toBe("Bearer sk-upstream");
    const self = await quotaOf(user);
    expect(self.quota).toBe(100_000 - 143);
    expect(self.used_quota).toBe(143);
    expect(self.request_count).toBe(1);
    expect((await tokenOf(user, tokenId)).used_quota).toBe(143);
  });

  it("streams chunk by chunk, forcing usage upstream but forwarding it only when asked", async () => {
    const { user, client } = await userWithToken(100_000);
    const withUsage = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const texts: string[] = [];
    let usage: unknown;
    for await (const chunk of withUsage) {
      texts.push(chunk.choices[0]?.delta?.content ?? "");
      if (chunk.usage) usage = chunk.usage;
    }
    expect(texts.join("")).toBe("Hi there.");
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3 });

    const plain = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let sawUsage = false;
    for await (const chunk of plain) if (chunk.usage) sawUsage = true;
    expect(sawUsage).toBe(false);
    const sent = JSON.parse(upstream.requests.at(-1)!.body) as { stream_options?: { include_usage?: boolean } };
    expect(sent.stream_options?.include_usage).toBe(true);
    // (9 + 3×2) × 1.5 = 22.5 → 23, twice.
    expect((await quotaOf(user)).quota).toBe(100_000 - 46);
  });

  it("counts tokens itself when the upstream sends no usage", async () => {
    const { user, client } = await userWithToken(100_000);
    upstream.fault = { kind: "no-usage" };
    try {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      for await (const _ of stream) void _;
    } finally {
      upstream.fault = undefined;
    }
    const used = (await quotaOf(user)).used_quota;
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(100);
  });

  it("include_usage with an upstream that sends no usage gets a closing usage chunk with the billed tokens; with upstream usage, exactly one", async () => {
    const { user, key } = await userWithToken(100_000);
    const events = async () => {
      const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          model,
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: "user", content: "hi" }],
        }),
      });
      expect(res.status).toBe(200);
      return (await res.text())
        .split("\n\n")
        .filter(Boolean)
        .map((e) => e.replace(/^data: /, ""));
    };
    upstream.fault = { kind: "no-usage" };
    let counted: string[];
    try {
      counted = await events();
    } finally {
      upstream.fault = undefined;
    }
    expect(counted.at(-1)).toBe("[DONE]");
    const closing = JSON.parse(counted.at(-2)!) as {
      id: string;
      object: string;
      model: string;
      choices: unknown[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(closing).toMatchObject({ id: "chatcmpl-Q7", object: "chat.completion.chunk", model, choices: [] });
    const { prompt_tokens, completion_tokens, total_tokens } = closing.usage;
    expect(prompt_tokens).toBeGreaterThan(0);
    expect(completion_tokens).toBeGreaterThan(0);
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
    // The chunk reports what was billed: (prompt + completion × 2) × 1.5.
    expect((await quotaOf(user)).used_quota).toBe(Math.round((prompt_tokens + completion_tokens * 2) * 1.5));
    expect(counted.filter((e) => e.includes('"usage":{'))).toHaveLength(1);

    const reported = await events();
    const usageChunks = reported.filter((e) => e.includes('"usage":{'));
    expect(usageChunks).toHaveLength(1);
    expect(JSON.parse(usageChunks[0]!).usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3 });
    expect(reported.at(-1)).toBe("[DONE]");
  });

  it("relays embeddings, also under /v1/engines/:model/embeddings", async () => {
    const { client, key } = await userWithToken(100_000);
    const result = await client.embeddings.create({ model: embedModel, input: "hello" });
    expect(result.data[0]?.embedding).toHaveLength(3);
    const engines = await request(
      "POST",
      `/v1/engines/${embedModel}/embeddings`,
      { input: "hello" },
      { Authorization: `Bearer ${key}` },
    );
    expect(engines.status).toBe(200);
    expect(upstream.requests.at(-1)!.path).toBe("/v1/embeddings");
  });

  it("lists the models the token can use", async () => {
    const { client } = await userWithToken(1000);
    const ids = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toContain(model);
    const one = await client.models.retrieve(model);
    expect(one.id).toBe(model);
    await expect(client.models.retrieve("no-such-model")).rejects.toMatchObject({ status: 404 });
  });

  it("answers the billing endpoints chat apps use for balances", async () => {
    const { key } = await userWithToken(250_000);
    const sub = await request("GET", "/v1/dashboard/billing/subscription", undefined, {
      Authorization: `Bearer ${key}`,
    });
    expect(sub.json).toMatchObject({ object: "billing_subscription", hard_limit_usd: 0.5 });
    const usage = await request("GET", "/dashboard/billing/usage", undefined, { Authorization: `Bearer ${key}` });
    expect(usage.json).toMatchObject({ object: "list", total_usage: 0 });
  });

  it("returns 501 in the OpenAI shape for endpoints that are not implemented", async () => {
    const { key } = await userWithToken(1000);
    const res = await request("POST", "/v1/files", {}, { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(501);
    expect(res.json.error).toMatchObject({ type: "new_api_error", code: "api_not_implemented" });
    expect(res.headers.get("x-oneapi-request-id")).toBeTruthy();
  });

  it("relays through the real HTTP stack with a request id on every reply", async () => {
    const { key } = await userWithToken(100_000);
    const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "x" }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-oneapi-request-id")).toMatch(/^\d{14}/);
  });
});
