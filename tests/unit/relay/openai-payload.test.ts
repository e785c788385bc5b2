import { describe, expect, it } from "vitest";
import type { AdapterContext } from "~/relay/adapters/types";
import { openAiPayload, usageOfReply } from "~/relay/adapters/shared/openai-payload";
import type { Channel } from "../../../db/schema";

const channel = { id: 1, type: 1, base_url: "", model_mapping: "", openai_organization: null } as unknown as Channel;

function ctx(raw: string, overrides: Partial<AdapterContext> = {}): AdapterContext {
  const body = JSON.parse(raw) as Record<string, unknown>;
  return {
    channel,
    key: "k",
    mode: "chat",
    path: "/v1/chat/completions",
    body,
    upstreamModel: String(body.model),
    requestModel: String(body.model),
    stream: body.stream === true,
    rawJson: Buffer.from(raw),
    ...overrides,
  };
}

describe("openAiPayload", () => {
  it("sends the client's own bytes upstream when nothing changes", () => {
    const raw = ' {"model":"gpt-4o-mini","messages":[{"role":"user","content":"héllo"}],"temperature":0.2}';
    const payload = openAiPayload(ctx(raw), true);
    expect(Buffer.isBuffer(payload)).toBe(true);
    expect(payload.toString()).toBe(raw);
  });

  it("splices the usage request into a stream that asked for none, keeping every other byte", () => {
    const raw = '{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"hi"}]}';
    const payload = openAiPayload(ctx(raw), true).toString();
    expect(JSON.parse(payload)).toEqual({ ...JSON.parse(raw), stream_options: { include_usage: true } });
    expect(payload.endsWith(raw.slice(1))).toBe(true);
  });

  it("edits the mapped model and the client's own stream_options in place, every other byte as sent", () => {
    const raw =
      '{"model":"gpt-4o-mini","stream":true,"stream_options":{"x":1.0,"include_usage":false},"seed":9223372036854775807,"messages":[]}';
    expect(openAiPayload(ctx(raw), true).toString()).toBe(raw.replace("false", "true"));
    const mapped = openAiPayload(
      ctx('{"model":"alias","top_p":0.10,"messages":[]}', { upstreamModel: "gpt-4o" }),
      true,
    );
    expect(mapped.toString()).toBe('{"model":"gpt-4o","top_p":0.10,"messages":[]}');
  });

  it("builds the body from the parse when there are no client bytes", () => {
    const built = openAiPayload(
      ctx('{"model":"alias","stream":true,"messages":[]}', { upstreamModel: "gpt-4o", rawJson: undefined }),
      true,
    );
    expect(JSON.parse(built.toString())).toEqual({
      model: "gpt-4o",
      stream: true,
      messages: [],
      stream_options: { include_usage: true },
    });
  });

  it("leaves a stream alone when the channel type does not take stream_options", () => {
    const raw = '{"model":"llama3","stream":true,"messages":[]}';
    expect(openAiPayload(ctx(raw), false).toString()).toBe(raw);
  });
});

describe("usageOfReply", () => {
  const reply = (fields: Record<string, unknown>) =>
    Buffer.from(JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", ...fields }));
  const answer = (content: string) => [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }];

  it("reads the top-level usage at the end of a reply", () => {
    const raw = reply({
      choices: answer("hello"),
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17, prompt_tokens_details: { cached_tokens: 0 } },
      system_fingerprint: "fp_1",
    });
    expect(usageOfReply(raw)).toEqual({ usage: { prompt_tokens: 12, completion_tokens: 5 } });
  });

  it("is not fooled by the word usage inside the answer, nor by a nested usage key after the real one", () => {
    const quoted = reply({
      choices: answer('the JSON was {"usage":{"prompt_tokens":999}}'),
      usage: { prompt_tokens: 3, completion_tokens: 4 },
    });
    expect(usageOfReply(quoted)).toEqual({ usage: { prompt_tokens: 3, completion_tokens: 4 } });
    const nested = reply({
      usage: { prompt_tokens: 7, completion_tokens: 1 },
      choices: answer("x"),
      meta: { usage: { prompt_tokens: 500 } },
    });
    expect(usageOfReply(nested)).toEqual({ usage: { prompt_tokens: 7, completion_tokens: 1 } });
  });

  it("finds usage placed before the choices, embeddings usage, and none when there is none", () => {
    expect(usageOfReply(reply({ usage: { prompt_tokens: 2, total_tokens: 2 }, choices: answer("hi") }))).toEqual({
      usage: { prompt_tokens: 2, completion_tokens: 0 },
    });
    expect(
      usageOfReply(
        Buffer.from(
          '{"object":"list","data":[{"embedding":[0.1,0.2]}],"model":"m","usage":{"prompt_tokens":8,"total_tokens":8}}\n',
        ),
      ),
    ).toEqual({ usage: { prompt_tokens: 8, completion_tokens: 0 } });
    expect(usageOfReply(reply({ choices: answer("no usage here") }))).toEqual({});
    expect(usageOfReply(Buffer.from("not json"))).toEqual({});
  });
});
