import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Channel } from "../../../db/schema";
import {
  createPalmStreamTranslator,
  createWholeBodyDecoder,
  palmModel,
  toOpenAiFromPalm,
  toPalmRequest,
} from "~/relay/adapters/palm/convert";
import { palmAdapter } from "~/relay/adapters/palm/palm-adapter";
import { ChannelConfigError, type AdapterContext } from "~/relay/adapters/types";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/upstream/palm/${name}`, import.meta.url), "utf8");

function ctx(fields: Omit<Partial<AdapterContext>, "channel"> & { channel?: Partial<Channel> } = {}): AdapterContext {
  return {
    mode: "chat",
    path: "/v1/chat/completions",
    body: {
      model: "p",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Why is the sky blue?" },
        { role: "assistant", content: "Light." },
        { role: "user", content: "More?" },
      ],
      temperature: 0.2,
    },
    upstreamModel: "PaLM-2",
    requestModel: "p",
    stream: false,
    key: "AIza-palm",
    ...fields,
    channel: { id: 11, type: 11, base_url: "", other: "", ...fields.channel } as Channel,
  };
}

describe("PaLM 2 generateMessage", () => {
  it("builds the exact request: system as context, authors 0/1, key in x-goog-api-key", () => {
    const built = palmAdapter.buildRequest(ctx()) as { url: string; headers: Record<string, string>; body: string };
    expect(built.url).toBe("https://generativelanguage.googleapis.com/v1beta2/models/chat-bison-001:generateMessage");
    expect(built.headers).toEqual({ "Content-Type": "application/json", "x-goog-api-key": "AIza-palm" });
    expect(JSON.parse(built.body)).toEqual({
      prompt: {
        context: "Be brief.",
        messages: [
          { author: "0", content: "Why is the sky blue?" },
          { author: "1", content: "Light." },
          { author: "0", content: "More?" },
        ],
      },
      temperature: 0.2,
    });
    expect(palmModel("chat-bison-002")).toBe("chat-bison-002");
    expect(toPalmRequest({ messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], n: 2 })).toEqual({
      prompt: { messages: [{ author: "0", content: "hi" }] },
      candidateCount: 2,
    });
    expect(() => palmAdapter.buildRequest(ctx({ mode: "embeddings" }))).toThrow(ChannelConfigError);
  });

  it("converts candidates to choices (usage left to counting) and a filtered reply to content_filter", () => {
    const converted = palmAdapter.convertResponse(ctx(), Buffer.from(fixture("message.json")));
    expect(converted.usage).toBeUndefined();
    expect(JSON.parse(String(converted.body)).choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: "Rayleigh scattering makes the sky look blue." },
        logprobs: null,
        finish_reason: "stop",
      },
    ]);
    expect(toOpenAiFromPalm(JSON.parse(fixture("message-filtered.json")), "p").choices[0]!.finish_reason).toBe(
      "content_filter",
    );
  });

  it("a streamed request reads the JSON reply whole, however it is cut, and sends it as one delta", () => {
    const text = fixture("message.json");
    const decoder = createWholeBodyDecoder();
    const events = [...Buffer.from(text)].flatMap((byte) => decoder.feed(Buffer.from([byte])));
    expect(events).toEqual([{ data: text.trimEnd() }]);
    const step = createPalmStreamTranslator("p").push(undefined, events[0]!.data);
    expect(step.chunks.map((c) => JSON.parse(c).choices[0])).toMatchObject([
      { delta: { role: "assistant", content: "Rayleigh scattering makes the sky look blue." } },
      { finish_reason: "stop" },
    ]);
    expect(step.done).toBe(true);
    expect(step.text).toBe("Rayleigh scattering makes the sky look blue.");
  });
});
