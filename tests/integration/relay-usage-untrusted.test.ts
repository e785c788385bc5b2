import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { startAnthropicMock } from "../mocks/anthropic-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * Through the real server (decision 007): the usage an upstream reports is untrusted input.
 * A bad count bills as if no usage came (tokens counted, a warning in the log), a string count is
 * a number, an absurd count is clamped — and in every case the charge has its log row and the
 * node's billing keeps flowing (no later call or /api read waits behind a refused write).
 */
let root: ApiSession;
let upstream: MockUpstream;
let model: string;
const CEILING = 2_000_000; // RELAY_USAGE_CEILING's default

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock();
  model = uniqueModel("usage");
  // Ratio 1, completion ratio 1: a call's quota is its prompt plus its completion tokens.
  await mergeOption(root, "ModelRatio", { [model]: 1 });
  await mergeOption(root, "CompletionRatio", { [model]: 1 });
  await createChannel(root, { base_url: upstream.url, models: model });
});
afterAll(async () => {
  await upstream?.close();
});

type LogRow = { quota: number; prompt_tokens: number; completion_tokens: number; other: string };

async function chat(key: string, stream: boolean): Promise<string> {
  const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      model,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      max_tokens: 50,
      messages: [{ role: "user", content: "say hello to the gateway" }],
    }),
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** One call by a fresh payer with the upstream's usage set to `usage` (literal JSON; undefined: none at all). */
async function billedCall(usage: string | undefined, stream: boolean) {
  upstream.fault = usage === undefined ? { kind: "no-usage" } : { kind: "usage", json: usage };
  const payer = await userWithToken(10_000_000);
  let reply: string;
  try {
    reply = await chat(payer.key, stream);
  } finally {
    upstream.fault = undefined;
  }
  const started = Date.now();
  const balance = await quotaOf(payer.user);
  const readMs = Date.now() - started;
  const logs = (await payer.user.call("GET", "/api/log/self?type=2")).json.data.items as LogRow[];
  expect(logs).toHaveLength(1);
  const log = logs[0]!;
  return {
    balance,
    readMs,
    log,
    other: JSON.parse(log.other) as Record<string, any>,
    reported: reportedUsage(reply, stream),
    usageReports: reply.split("\n").filter((line) => line.startsWith("data: {") && line.includes('"usage":{')).length,
  };
}

/** The usage the client was shown: the whole reply's, or the last usage chunk of a stream. */
function reportedUsage(reply: string, stream: boolean): Record<string, unknown> | undefined {
  if (!stream) return (JSON.parse(reply) as { usage?: Record<string, unknown> }).usage;
  const chunks = reply
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)) as { usage?: Record<string, unknown> });
  return chunks.reverse().find((chunk) => chunk.usage)?.usage;
}

/** Nothing waits behind that call: the next call and a balance read answer at once. */
async function expectBillingFlowing() {
  const payer = await userWithToken(1_000_000);
  const started = Date.now();
  await chat(payer.key, false);
  const balance = await quotaOf(payer.user);
  expect(Date.now() - started).toBeLessThan(1_500);
  expect(balance.used_quota).toBe(61 + 17); // the fixture's own usage
}

describe.each([false, true])("untrusted usage (stream: %s)", (stream) => {
  let counted: Awaited<ReturnType<typeof billedCall>>;
  beforeAll(async () => {
    counted = await billedCall(undefined, stream);
  });

  it("absent usage is counted, without a warning", () => {
    expect(counted.log.prompt_tokens).toBeGreaterThan(0);
    expect(counted.log.completion_tokens).toBeGreaterThan(0);
    expect(counted.log.quota).toBe(counted.log.prompt_tokens + counted.log.completion_tokens);
    expect(counted.balance.used_quota).toBe(counted.log.quota);
    expect(counted.other.usage_warning).toBeUndefined();
  });

  it("a non-numeric usage value bills counted tokens with a warning, and billing keeps flowing", async () => {
    const bad = await billedCall('{"prompt_tokens":"abc","completion_tokens":5,"total_tokens":5}', stream);
    expect([bad.log.prompt_tokens, bad.log.completion_tokens, bad.log.quota]).toEqual([
      counted.log.prompt_tokens,
      counted.log.completion_tokens,
      counted.log.quota,
    ]);
    expect(bad.balance.used_quota).toBe(bad.log.quota);
    expect(bad.balance.quota).toBe(10_000_000 - bad.log.quota);
    expect(bad.other.usage_warning).toContain("abc");
    expect(bad.readMs).toBeLessThan(1_000);
    await expectBillingFlowing();
  });

  it.each([
    ["an infinite count", '{"prompt_tokens":1e400,"completion_tokens":5}', "prompt_tokens"],
    ["a negative count", '{"prompt_tokens":-5,"completion_tokens":5}', "prompt_tokens"],
    ['a "NaN" string', '{"prompt_tokens":"NaN","completion_tokens":5}', "NaN"],
    ["a fraction", '{"prompt_tokens":10,"completion_tokens":1.5}', "completion_tokens"],
    ["a usage that is not an object", '"lots"', "lots"],
  ])("%s is treated as no usage", async (_name, usage, mentioned) => {
    const bad = await billedCall(usage, stream);
    expect([bad.log.prompt_tokens, bad.log.completion_tokens, bad.log.quota]).toEqual([
      counted.log.prompt_tokens,
      counted.log.completion_tokens,
      counted.log.quota,
    ]);
    expect(bad.balance.used_quota).toBe(bad.log.quota);
    expect(bad.other.usage_warning).toContain(mentioned);
    expect(bad.readMs).toBeLessThan(1_000);
  });

  it("string usage is converted, not concatenated", async () => {
    const billed = await billedCall('{"prompt_tokens":"10","completion_tokens":20,"total_tokens":"30"}', stream);
    expect([billed.log.prompt_tokens, billed.log.completion_tokens, billed.log.quota]).toEqual([10, 20, 30]);
    expect(billed.balance.used_quota).toBe(30);
    expect(billed.other.usage_warning).toBeUndefined();
  });

  it("a huge reported usage is clamped, charged with its log row, and the clamp recorded", async () => {
    const billed = await billedCall('{"prompt_tokens":3e9,"completion_tokens":5,"total_tokens":3000000005}', stream);
    expect([billed.log.prompt_tokens, billed.log.completion_tokens, billed.log.quota]).toEqual([
      CEILING,
      5,
      CEILING + 5,
    ]);
    expect(billed.balance.used_quota).toBe(CEILING + 5);
    expect(billed.balance.quota).toBe(10_000_000 - CEILING - 5);
    expect(billed.other.usage_clamped).toEqual({
      prompt_tokens: 3e9,
      bound: { prompt_tokens: CEILING, completion_tokens: 50 },
    });
    expect(billed.readMs).toBeLessThan(1_000);
    await expectBillingFlowing();
  });

  it("the reply shows the client the usage billed: a count that was no number, a side past its bound", async () => {
    const bad = await billedCall('{"prompt_tokens":"abc","completion_tokens":3e9}', stream);
    expect(bad.reported).toMatchObject({
      prompt_tokens: bad.log.prompt_tokens,
      completion_tokens: bad.log.completion_tokens,
      total_tokens: bad.log.prompt_tokens + bad.log.completion_tokens,
    });
    const huge = await billedCall('{"prompt_tokens":3e9,"completion_tokens":5,"total_tokens":3000000005}', stream);
    expect(huge.reported).toEqual({ prompt_tokens: CEILING, completion_tokens: 5, total_tokens: CEILING + 5 });
    const fine = await billedCall('{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}', stream);
    expect(fine.reported).toEqual({ prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 });
    // One usage report, at the end, whatever the upstream's counts were.
    if (stream) for (const billed of [bad, huge, fine]) expect(billed.usageReports).toBe(1);
  });

  it("a reply is never billed past the request's max_tokens: a trillion total tokens bills 50", async () => {
    const billed = await billedCall('{"total_tokens":999999999999}', stream);
    expect([billed.log.prompt_tokens, billed.log.completion_tokens, billed.log.quota]).toEqual([0, 50, 50]);
    expect(billed.balance.used_quota).toBe(50);
    expect(billed.other.usage_clamped).toEqual({
      completion_tokens: 999999999999,
      bound: { prompt_tokens: CEILING, completion_tokens: 50 },
    });
  });

  it("a prompt is never billed past the model's context window (ModelContextLength, a dated snapshot by its family)", async () => {
    const family = uniqueModel("ctx");
    const snapshot = `${family}-2024-07-18`;
    await mergeOption(root, "ModelContextLength", { [family]: 1_000 });
    await mergeOption(root, "ModelRatio", { [snapshot]: 1 });
    await mergeOption(root, "CompletionRatio", { [snapshot]: 1 });
    await createChannel(root, { base_url: upstream.url, models: snapshot });
    const previous = model;
    model = snapshot;
    try {
      const billed = await billedCall('{"prompt_tokens":3e9,"completion_tokens":5,"total_tokens":3000000005}', stream);
      expect([billed.log.prompt_tokens, billed.log.completion_tokens, billed.log.quota]).toEqual([1_000, 5, 1_005]);
      expect(billed.other.usage_clamped).toEqual({
        prompt_tokens: 3e9,
        bound: { prompt_tokens: 1_000, completion_tokens: 50 },
      });
    } finally {
      model = previous;
    }
  });
});

describe("untrusted usage from Anthropic", () => {
  it.each([false, true])(
    "string counts converted, a bad count counted with a warning, a huge one clamped (stream: %s)",
    async (stream) => {
      const claude = await startAnthropicMock("sk-ant-usage");
      try {
        const claudeModel = uniqueModel("claude-usage");
        await mergeOption(root, "ModelRatio", { [claudeModel]: 1 });
        await mergeOption(root, "CompletionRatio", { [claudeModel]: 1 });
        await createChannel(root, { type: 14, key: "sk-ant-usage", base_url: claude.url, models: claudeModel });
        const billed = async (usage: Record<string, unknown>) => {
          claude.usage = usage;
          const payer = await userWithToken(10_000_000);
          const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
            method: "POST",
            headers: { Authorization: `Bearer ${payer.key}`, "Content-Type": "application/json" },
            body: JSON.stringify({
              model: claudeModel,
              stream,
              max_tokens: 50,
              messages: [{ role: "user", content: "say hello to the gateway" }],
            }),
          });
          expect(res.status).toBe(200);
          await res.text();
          const [log] = (await payer.user.call("GET", "/api/log/self?type=2")).json.data.items as LogRow[];
          const balance = await quotaOf(payer.user);
          expect(balance.used_quota).toBe(log!.quota);
          return { log: log!, other: JSON.parse(log!.other) as Record<string, any> };
        };
        const strings = await billed({
          input_tokens: "10",
          cache_creation_input_tokens: null,
          cache_read_input_tokens: "0",
          output_tokens: "20",
        });
        expect([strings.log.prompt_tokens, strings.log.completion_tokens, strings.log.quota]).toEqual([10, 20, 30]);
        const bad = await billed({ input_tokens: "abc" });
        expect(bad.other.usage_warning).toContain("input_tokens");
        expect(bad.log.prompt_tokens).toBeGreaterThan(0);
        expect(bad.log.quota).toBe(bad.log.prompt_tokens + bad.log.completion_tokens);
        const huge = await billed({ input_tokens: 3e9, output_tokens: 5 });
        expect([huge.log.prompt_tokens, huge.log.completion_tokens, huge.log.quota]).toEqual([CEILING, 5, CEILING + 5]);
        expect(huge.other.usage_clamped).toEqual({
          prompt_tokens: 3e9,
          bound: { prompt_tokens: CEILING, completion_tokens: 50 },
        });
      } finally {
        await claude.close();
      }
    },
  );
});

describe("an Anthropic pass-through stream ends with the usage billed", () => {
  it("its closing message_delta reports the billed counts when the upstream's were clamped, its own bytes otherwise", async () => {
    const claude = await startAnthropicMock("sk-ant-closing");
    try {
      const claudeModel = uniqueModel("claude-closing");
      await mergeOption(root, "ModelRatio", { [claudeModel]: 1 });
      await mergeOption(root, "CompletionRatio", { [claudeModel]: 1 });
      await createChannel(root, { type: 14, key: "sk-ant-closing", base_url: claude.url, models: claudeModel });
      const { key } = await userWithToken(10_000_000);
      const closingDelta = async (usage: Record<string, unknown> | undefined) => {
        claude.usage = usage;
        const res = await fetch(`${baseUrl()}/v1/messages`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${key}`,
            "Content-Type": "application/json",
            "anthropic-version": "2023-06-01",
          },
          body: JSON.stringify({
            model: claudeModel,
            stream: true,
            max_tokens: 50,
            messages: [{ role: "user", content: "hi" }],
          }),
        });
        expect(res.status).toBe(200);
        const text = await res.text();
        const delta = text.split("\n").find((line) => line.startsWith("data: ") && line.includes('"message_delta"'))!;
        expect(text.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
        return delta.slice(6);
      };
      // As the upstream said it: the upstream's own bytes.
      expect(await closingDelta(undefined)).toBe(
        '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}',
      );
      // Past max_tokens (50): billed 50, and the stream says 50.
      const clamped = JSON.parse(
        await closingDelta({ input_tokens: 10, cache_read_input_tokens: 4, output_tokens: 3e9 }),
      ) as { usage: Record<string, number> };
      expect(clamped.usage).toMatchObject({ output_tokens: 50, input_tokens: 10, cache_read_input_tokens: 4 });
    } finally {
      claude.usage = undefined;
      await claude.close();
    }
  });
});
