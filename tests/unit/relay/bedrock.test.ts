import type { IncomingMessage } from "node:http";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Channel } from "../../../db/schema";
import { awsAdapter, bedrockBody, bedrockUrl } from "~/relay/adapters/aws/aws-adapter";
import { parseAwsKey } from "~/relay/adapters/aws/credentials";
import { parseBedrockError } from "~/relay/adapters/aws/errors";
import { createEventStreamDecoder } from "~/relay/adapters/aws/event-stream-decoder";
import { bedrockModelId } from "~/relay/adapters/aws/model-ids";
import { createAnthropicStreamTranslator } from "~/relay/adapters/anthropic/convert-stream";
import { ChannelConfigError, type AdapterContext, type StreamEvent } from "~/relay/adapters/types";
import { chunkMessage, encodeEventMessage, verifySigV4 } from "../../mocks/bedrock-upstream";

const credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  region: "us-east-1",
};
const anthropicEvents = readFileSync(
  new URL("../../fixtures/upstream/anthropic/stream-text.sse", import.meta.url),
  "utf8",
)
  .split("\n\n")
  .map((e) => /^data: (.*)$/m.exec(e)?.[1])
  .filter((d): d is string => Boolean(d));

function ctx(fields: Omit<Partial<AdapterContext>, "channel"> & { channel?: Partial<Channel> } = {}): AdapterContext {
  return {
    mode: "chat",
    path: "/v1/chat/completions",
    body: {
      model: "c",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      max_tokens: 50,
      stream: fields.stream ?? false,
    },
    upstreamModel: "claude-3-5-sonnet-20240620",
    requestModel: "c",
    stream: false,
    key: `${credentials.accessKeyId}|${credentials.secretAccessKey}|${credentials.region}`,
    ...fields,
    channel: { id: 3, type: 33, base_url: "", other: "", ...fields.channel } as Channel,
  };
}

describe("Bedrock request", () => {
  it("maps model names to Bedrock ids through the table, passing unknown names through", () => {
    expect(bedrockModelId("claude-3-5-sonnet-20240620")).toBe("anthropic.claude-3-5-sonnet-20240620-v1:0");
    expect(bedrockModelId("claude-3-5-sonnet-20241022")).toBe("anthropic.claude-3-5-sonnet-20241022-v2:0");
    expect(bedrockModelId("us.anthropic.claude-3-7-sonnet-20250219-v1:0")).toBe(
      "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
    );
  });

  it("sends the Anthropic body without model and stream, with anthropic_version bedrock-2023-05-31", () => {
    expect(
      bedrockBody({
        model: "c",
        stream: true,
        max_tokens: 50,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
      }),
    ).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 50,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
  });

  it("builds the regional URL, or the channel's base URL in its place", () => {
    expect(bedrockUrl("", "eu-west-1", "claude-3-haiku-20240307", false)).toBe(
      "https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke",
    );
    expect(bedrockUrl("http://127.0.0.1:4000/", "eu-west-1", "claude-3-haiku-20240307", true)).toBe(
      "http://127.0.0.1:4000/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream",
    );
  });

  it("refuses a key that is not Ak|Sk|Region, or a region that is not a name", () => {
    expect(() => parseAwsKey("AK|SK")).toThrow(ChannelConfigError);
    expect(() => parseAwsKey("AK|SK|evil.com/x")).toThrow(ChannelConfigError);
    expect(parseAwsKey(" AK | SK | us-west-2 ")).toEqual({
      accessKeyId: "AK",
      secretAccessKey: "SK",
      region: "us-west-2",
    });
  });

  it("signs with SigV4 as AWS documents it (checked by an independent implementation), and a tampered body fails", async () => {
    const built = await awsAdapter.buildRequest(ctx({ channel: { base_url: "http://127.0.0.1:4000" } }));
    const headers = Object.fromEntries(Object.entries(built.headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(headers.host).toBeUndefined(); // the upstream client sends Host from the URL
    const path = new URL(built.url).pathname;
    const req = (url: string) =>
      ({ method: "POST", url, headers: { ...headers, host: "127.0.0.1:4000" } }) as unknown as IncomingMessage;
    const full = { ...credentials, service: "bedrock" };
    const body = String(built.body);
    expect(verifySigV4(req(path), body, full)).toBeUndefined();
    expect(verifySigV4(req(path), `${body} `, full)).toBe("signature mismatch");
    expect(verifySigV4(req(path.replace("v1%3A0", "v2%3A0")), body, full)).toBe("signature mismatch");
    expect(verifySigV4(req(path), body, { ...full, secretAccessKey: "other" })).toBe("signature mismatch");
  });

  it("maps Bedrock errors with the exception named after the status", () => {
    expect(parseBedrockError(429, '{"message":"Too many requests, please wait before trying again."}')).toEqual({
      message: "Too many requests, please wait before trying again.",
      type: "ThrottlingException",
      code: "ThrottlingException",
    });
    expect(parseBedrockError(403, '{"Message":"User is not authorized"}').type).toBe("AccessDeniedException");
    expect(parseBedrockError(500, "oops").code).toBe("bad_response_status_code");
  });
});

describe("AWS event-stream decoding", () => {
  const body = Buffer.concat(anthropicEvents.map(chunkMessage));
  const decodeIn = (pieces: Buffer[]) => {
    const decoder = createEventStreamDecoder();
    return pieces.flatMap((p) => decoder.feed(p));
  };

  it("yields the wrapped Anthropic events whether the bytes come whole, one by one, or cut at random", () => {
    const whole = decodeIn([body]);
    expect(whole.map((e) => e.data)).toEqual(anthropicEvents);
    const bytewise = decodeIn([...body].map((b) => Buffer.from([b])));
    expect(bytewise).toEqual(whole);
    let seed = 42;
    const cuts: Buffer[] = [];
    for (let at = 0; at < body.length;) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const size = 1 + (seed % 60);
      cuts.push(body.subarray(at, at + size));
      at += size;
    }
    expect(decodeIn(cuts)).toEqual(whole);
  });

  it("feeds the Anthropic stream translator: text, finish and usage", () => {
    const translator = createAnthropicStreamTranslator("c", false);
    const steps = decodeIn([body]).map((e: StreamEvent) => translator.push(e.event, e.data));
    const text = steps
      .flatMap((s) =>
        s.chunks.map(
          (c) => (JSON.parse(c) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "",
        ),
      )
      .join("");
    expect(text).toBe("Hello there.");
    expect(steps.find((s) => s.usage)?.usage).toEqual({ prompt_tokens: 14, completion_tokens: 5 });
    expect(steps.at(-1)?.done).toBe(true);
  });

  it("an exception message becomes an error event; a corrupted CRC stops decoding with an error", () => {
    const exception = encodeEventMessage(
      { ":exception-type": "throttlingException", ":content-type": "application/json", ":message-type": "exception" },
      Buffer.from('{"message":"Too many tokens"}'),
    );
    const events = decodeIn([chunkMessage(anthropicEvents[0]!), exception]);
    expect(events[1]).toEqual({
      event: "error",
      data: JSON.stringify({ type: "error", error: { type: "throttlingException", message: "Too many tokens" } }),
    });
    const step = createAnthropicStreamTranslator("c", false).push(events[1]!.event, events[1]!.data);
    expect(step.error?.message).toBe("Too many tokens");
    const corrupt = Buffer.from(chunkMessage(anthropicEvents[0]!));
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 10) ^ 0xff, corrupt.length - 10);
    const broken = decodeIn([corrupt, chunkMessage(anthropicEvents[1]!)]);
    expect(broken).toHaveLength(1);
    expect(broken[0]!.event).toBe("error");
    expect(broken[0]!.data).toContain("checksum");
  });
});
