import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Channel } from "../../db/schema";
import { adapterFor } from "~/relay/adapters/registry";
import { SELECTABLE_CHANNEL_TYPES } from "~/domain/channels/catalog";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { billingWritten, loginRoot, type ApiSession } from "../support/api";
import { createChannel, mergeOption, quotaOf, setOption, uniqueModel, userWithToken } from "../support/relay";

/**
 * Every catalogue type that speaks the OpenAI wire at the standard path (found by asking each
 * type's adapter where it would send a chat, so a type added later is covered without editing
 * this list): a channel of the type, pointed at the OpenAI mock, answers a non-stream and a
 * stream chat through the openai client, billed from the upstream's usage and logged, and a
 * channel of the same type with a bad key fails over to it. The types with their own protocol
 * have their own files (relay-google-aws, relay-cn-providers, relay-more-providers…).
 */
const MOCK_BASE = "http://127.0.0.1:9";

function speaksOpenAiWire(type: number): boolean {
  const channel = {
    id: 1,
    type,
    base_url: MOCK_BASE,
    other: "",
    model_mapping: "",
    openai_organization: null,
  } as unknown as Channel;
  try {
    const built = adapterFor(type).buildRequest({
      channel,
      key: "k",
      mode: "chat",
      path: "/v1/chat/completions",
      body: { model: "m", messages: [] },
      upstreamModel: "m",
      requestModel: "m",
      stream: false,
    });
    if (built instanceof Promise) {
      built.catch(() => undefined); // a credential exchange or key check: not the plain OpenAI wire
      return false;
    }
    return built.url === `${MOCK_BASE}/v1/chat/completions` && built.headers.Authorization === "Bearer k";
  } catch {
    return false;
  }
}

const TASK_TYPES = new Set([2, 5, 36]);
const openAiWireTypes = SELECTABLE_CHANNEL_TYPES.map((t) => t.type).filter(
  (type) => !TASK_TYPES.has(type) && speaksOpenAiWire(type),
);

let root: ApiSession;
let mock: MockUpstream;
const modelOf = new Map<number, string>();
const goodChannelOf = new Map<number, number>();

beforeAll(async () => {
  root = await loginRoot();
  mock = await startOpenAiMock({ apiKey: "sk-good" });
  await setOption(root, "AutomaticDisableChannelEnabled", "false");
  await setOption(root, "RetryTimes", "3");
  for (const type of openAiWireTypes) modelOf.set(type, uniqueModel(`every-${type}`));
  await mergeOption(root, "ModelRatio", Object.fromEntries([...modelOf.values()].map((m) => [m, 1])));
  await mergeOption(root, "CompletionRatio", Object.fromEntries([...modelOf.values()].map((m) => [m, 2])));
  for (const [type, model] of modelOf) {
    // The bad key is tried first (higher priority); its 401 must fail over to the good one.
    await createChannel(root, { type, key: "sk-bad", base_url: mock.url, models: model, priority: 10 });
    goodChannelOf.set(
      type,
      await createChannel(root, { type, key: "sk-good", base_url: mock.url, models: model, priority: 0 }),
    );
  }
});

afterAll(async () => {
  await mock.close();
});

describe("every OpenAI-wire channel type", () => {
  it("the catalogue has OpenAI-wire types besides OpenAI itself (the filter found them)", () => {
    expect(openAiWireTypes).toContain(1);
    expect(openAiWireTypes.length).toBeGreaterThan(10);
  });

  it.each(openAiWireTypes)(
    "type %i: non-stream and stream chat are billed, logged and fail over from a bad key",
    async (type) => {
      const model = modelOf.get(type)!;
      const { client, user } = await userWithToken(1_000_000);
      const before = await quotaOf(user);

      const whole = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Hello" }] });
      expect(whole.choices[0]?.message.content).toBe("Hello there.");
      const stream = await client.chat.completions.create({
        model,
        stream: true,
        messages: [{ role: "user", content: "Hi" }],
      });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      expect(text).toBe("Hi there.");

      await billingWritten();
      const logs = (await root.call("GET", `/api/log/?type=2&model_name=${model}`)).json.data.items as {
        quota: number;
        prompt_tokens: number;
        completion_tokens: number;
        channel: number;
      }[];
      expect(logs).toHaveLength(2);
      // Billed from the upstream's usage (the fixtures report 61 + 17 and 9 + 3 tokens), on the good channel.
      expect(logs.map((l) => [l.prompt_tokens, l.completion_tokens]).sort()).toEqual(
        [
          [61, 17],
          [9, 3],
        ].sort(),
      );
      for (const log of logs) expect(log.channel).toBe(goodChannelOf.get(type));
      const charged = logs.reduce((sum, l) => sum + l.quota, 0);
      expect(charged).toBeGreaterThan(0);
      expect(before.quota - (await quotaOf(user)).quota).toBe(charged);
      // The bad key went to this type's channel too: the credential was sent only to the channel's own host.
      expect(mock.requests.filter((r) => r.headers.authorization === "Bearer sk-bad").length).toBeGreaterThan(0);
    },
  );
});
