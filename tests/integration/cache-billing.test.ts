import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { startAnthropicMock, type AnthropicMock } from "../mocks/anthropic-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * Cached prompt tokens are billed as cached: a read from the provider's cache at CacheRatio, a
 * write at CreateCacheRatio, each as the provider reports it; the log row records them (and the
 * reasoning tokens), /log shows them and /pricing shows the cache price.
 */
let root: ApiSession;
let openai: MockUpstream;
let claude: AnthropicMock;
let model: string;
let claudeModel: string;
let deepseekModel: string;
const CACHE_RATIO = 0.25;

beforeAll(async () => {
  root = await loginRoot();
  openai = await startOpenAiMock();
  claude = await startAnthropicMock("sk-ant-cache");
  model = uniqueModel("cache");
  claudeModel = uniqueModel("claude-cache");
  deepseekModel = uniqueModel("deepseek-cache");
  // Ratio 1, completion ratio 1: an uncached call's quota is its prompt plus its completion tokens.
  await mergeOption(root, "ModelRatio", { [model]: 1, [claudeModel]: 1, [deepseekModel]: 1 });
  await mergeOption(root, "CompletionRatio", { [model]: 1, [claudeModel]: 1, [deepseekModel]: 1 });
  await mergeOption(root, "CacheRatio", { [model]: CACHE_RATIO });
  await createChannel(root, { base_url: openai.url, models: `${model},${deepseekModel}` });
  await createChannel(root, { type: 14, key: "sk-ant-cache", base_url: claude.url, models: claudeModel });
});
afterAll(async () => {
  await openai?.close();
  await claude?.close();
});

type LogRow = { quota: number; prompt_tokens: number; completion_tokens: number; content: string; other: string };

/** One call by a fresh payer, the OpenAI upstream reporting `usage`; what it cost and its log row. */
async function billedCall(target: string, usage: Record<string, unknown>, stream = false) {
  openai.fault = { kind: "usage", json: JSON.stringify(usage) };
  const payer = await userWithToken(10_000_000);
  try {
    const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${payer.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        model: target,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: "user", content: "the long shared prefix" }],
      }),
    });
    expect(res.status).toBe(200);
    await res.text();
  } finally {
    openai.fault = undefined;
  }
  const logs = (await payer.user.call("GET", "/api/log/self?type=2")).json.data.items as LogRow[];
  expect(logs).toHaveLength(1);
  return {
    payer,
    spent: (await quotaOf(payer.user)).used_quota,
    log: logs[0]!,
    other: JSON.parse(logs[0]!.other) as Record<string, unknown>,
  };
}

describe.each([false, true])("cache billing on an OpenAI channel (stream: %s)", (stream) => {
  it("bills 4,000 cached prompt tokens at exactly CacheRatio × what 4,000 uncached ones cost", async () => {
    const uncached = await billedCall(model, { prompt_tokens: 4000, completion_tokens: 0, total_tokens: 4000 }, stream);
    const cached = await billedCall(
      model,
      { prompt_tokens: 4000, completion_tokens: 0, total_tokens: 4000, prompt_tokens_details: { cached_tokens: 4000 } },
      stream,
    );
    expect(uncached.spent).toBe(4000);
    expect(cached.spent).toBe(uncached.spent * CACHE_RATIO);
    expect(cached.log.prompt_tokens).toBe(4000);
    expect(cached.other).toMatchObject({ cache_tokens: 4000, cache_ratio: CACHE_RATIO });
    expect(cached.log.content).toContain(`缓存倍率 ${CACHE_RATIO}`);
    expect(uncached.other.cache_tokens).toBeUndefined();
  });
});

describe("cache and reasoning tokens as each provider reports them", () => {
  it("a partly cached prompt pays the ratio on the cached part only, and reasoning tokens are logged", async () => {
    const call = await billedCall(model, {
      prompt_tokens: 1000,
      completion_tokens: 300,
      total_tokens: 1300,
      prompt_tokens_details: { cached_tokens: 800 },
      completion_tokens_details: { reasoning_tokens: 120 },
    });
    expect(call.spent).toBe(200 + 800 * CACHE_RATIO + 300);
    expect(call.other).toMatchObject({ cache_tokens: 800, reasoning_tokens: 120 });
  });

  it("DeepSeek's prompt_cache_hit_tokens are cached tokens, at its published tenth by default", async () => {
    const call = await billedCall(deepseekModel, {
      prompt_tokens: 5000,
      completion_tokens: 0,
      total_tokens: 5000,
      prompt_cache_hit_tokens: 4000,
      prompt_cache_miss_tokens: 1000,
    });
    expect(call.spent).toBe(1000 + 400);
  });

  it("a cached count the upstream cannot mean (more than the prompt, or text) never lowers the bill below the prompt's", async () => {
    const over = await billedCall(model, {
      prompt_tokens: 100,
      completion_tokens: 0,
      total_tokens: 100,
      prompt_tokens_details: { cached_tokens: 1e9 },
    });
    expect(over.spent).toBe(100 * CACHE_RATIO);
    const garbage = await billedCall(model, {
      prompt_tokens: 100,
      completion_tokens: 0,
      total_tokens: 100,
      prompt_tokens_details: { cached_tokens: "lots" },
    });
    expect(garbage.spent).toBe(100);
    expect(String(garbage.other.usage_warning)).toContain("cached_tokens");
  });

  it.each([false, true])(
    "Claude's cache reads bill at 0.1 and its cache writes at 1.25 (stream: %s)",
    async (stream) => {
      claude.usage = {
        input_tokens: 100,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 40,
        output_tokens: 10,
      };
      const payer = await userWithToken(10_000_000);
      try {
        const res = await fetch(`${baseUrl()}/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${payer.key}`, "Content-Type": "application/json" },
          body: JSON.stringify({
            model: claudeModel,
            stream,
            max_tokens: 50,
            messages: [{ role: "user", content: "hi" }],
          }),
        });
        expect(res.status).toBe(200);
        await res.text();
      } finally {
        claude.usage = undefined;
      }
      // Before, this was 1,140 full-price prompt tokens.
      expect((await quotaOf(payer.user)).used_quota).toBe(100 + 1000 * 0.1 + 40 * 1.25 + 10);
      const log = ((await payer.user.call("GET", "/api/log/self?type=2")).json.data.items as LogRow[])[0]!;
      expect(log.prompt_tokens).toBe(1140);
      expect(JSON.parse(log.other)).toMatchObject({
        cache_tokens: 1000,
        cache_creation_tokens: 40,
        cache_ratio: 0.1,
        cache_creation_ratio: 1.25,
      });
      expect(log.content).toContain("缓存创建倍率 1.25");
    },
  );
});

describe("what the console shows", () => {
  it("/log shows the cached and reasoning tokens of a call, and /pricing the cache price", async () => {
    const call = await billedCall(model, {
      prompt_tokens: 1000,
      completion_tokens: 50,
      total_tokens: 1050,
      prompt_tokens_details: { cached_tokens: 600 },
      completion_tokens_details: { reasoning_tokens: 20 },
    });
    const logPage = await (await fetch(`${baseUrl()}/log`, { headers: { Cookie: call.payer.user.cookie } })).text();
    expect(logPage.replaceAll("<!-- -->", "")).toMatch(/data-testid="log-cache-tokens">缓存 600</);
    expect(logPage.replaceAll("<!-- -->", "")).toMatch(/data-testid="log-reasoning-tokens">推理 20</);

    const api = (await root.call("GET", "/api/pricing")).json.data as {
      model_name: string;
      cache_ratio: number;
      create_cache_ratio: number;
    }[];
    expect(api.find((p) => p.model_name === model)).toMatchObject({ cache_ratio: CACHE_RATIO, create_cache_ratio: 1 });
    expect(api.find((p) => p.model_name === claudeModel)).toMatchObject({ cache_ratio: 0.1, create_cache_ratio: 1.25 });
    const pricing = (await (await fetch(`${baseUrl()}/pricing?q=${claudeModel}`)).text()).replaceAll("<!-- -->", "");
    const row = pricing.slice(pricing.indexOf(`data-model="${claudeModel}"`));
    // Ratio 1 is $0.002 per 1K prompt tokens: a cache read a tenth of it, a cache write 1.25 times.
    expect(row).toMatch(/data-testid="price-cached">缓存读取 \$0\.0002 \/ 1K tokens/);
    expect(row).toMatch(/data-testid="price-cache-write">缓存写入 \$0\.0025 \/ 1K tokens/);
    expect(pricing).toContain("提示token数中命中缓存的部分按缓存倍率计费");
  });
});
