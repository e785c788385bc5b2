import { describe, expect, it } from "vitest";
import { parseRelayJson } from "~/relay/request-parse";
import { countPromptTokens } from "~/relay/stream/token-counter";

const json = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));
const chat = { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] };

describe("the relay's own fields have a type before the relay acts on them", () => {
  it("max_tokens 1e20, a fractional n and a string stream are 400s naming the field", () => {
    for (const [field, value] of [
      ["max_tokens", 1e20],
      ["max_completion_tokens", -1],
      ["n", 1.5],
      ["stream", "true"],
      ["stream_options", "yes"],
      ["model", 42],
    ] as const) {
      const parsed = parseRelayJson(json({ ...chat, [field]: value }), "chat");
      expect("failure" in parsed && parsed.failure).toMatchObject({
        status: 400,
        type: "invalid_request_error",
        message: expect.stringContaining(field),
      });
    }
  });

  it("image n above 10 is refused (it multiplies the hold and the upstream's work)", () => {
    expect("failure" in parseRelayJson(json({ prompt: "cat", n: 2147483648 }), "images")).toBe(true);
    expect(parseRelayJson(json({ prompt: "cat", n: 4 }), "images")).toEqual({ body: { prompt: "cat", n: 4 } });
  });

  it("100 000 levels of nesting are refused before parsing, an ordinary body passes untouched", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(parseRelayJson(json(`{"messages":${deep}}`), "chat")).toMatchObject({ failure: { status: 400 } });
    // Brackets inside strings are text, not nesting.
    const body = { ...chat, messages: [{ role: "user", content: "[".repeat(1000) }], max_tokens: null, stream: false };
    expect(parseRelayJson(json(body), "chat")).toEqual({ body });
  });

  it("a 200 000-character word is counted in well under a second (BPE was quadratic: minutes)", () => {
    const startedAt = Date.now();
    const tokens = countPromptTokens({ input: "x".repeat(200_000) });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(tokens).toBeGreaterThan(200_000 / 16);
    // Ordinary text counts exactly as the tokenizer does.
    expect(countPromptTokens({ input: "hello world" })).toBe(2);
  });
});
