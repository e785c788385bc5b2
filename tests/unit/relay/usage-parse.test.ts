import { describe, expect, it } from "vitest";
import { createOpenAiStreamTranslator } from "~/relay/adapters/shared/openai-stream";
import { usageOfReply } from "~/relay/adapters/shared/openai-payload";
import { createAnthropicStreamTranslator } from "~/relay/adapters/anthropic/convert-stream";
import { toOpenAiResponse } from "~/relay/adapters/anthropic/convert-response";
import { replyUsage } from "~/relay/billing/reply-usage";
import { clampUsage, parseAnthropicUsage, parseOpenAiUsage, readCount } from "~/relay/billing/usage-parse";

// eslint-disable-next-line no-control-regex -- the characters a log line must not carry
const CONTROL = /[\u0000-\u001f]/;

/** Decision 007: usage reported by an upstream is untrusted input. */
describe("usage parser", () => {
  it("accepts only finite non-negative integers (numeric strings converted)", () => {
    expect([0, 7, "12", " 12 ", "3e3", "10.0", null, undefined].map(readCount)).toEqual([
      0,
      7,
      12,
      12,
      3000,
      10,
      undefined,
      undefined,
    ]);
    for (const bad of [
      "abc",
      "",
      "-1",
      "0x10",
      "Infinity",
      "NaN",
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      {},
      [3],
    ]) {
      expect(typeof readCount(bad), String(bad)).toBe("symbol");
    }
  });

  it("a non-numeric count makes the whole usage 'not reported', with a warning", () => {
    const parsed = parseOpenAiUsage({ prompt_tokens: "abc", completion_tokens: 5 });
    expect(parsed.usage).toBeUndefined();
    expect(parsed.usageNote?.usage_warning).toContain('prompt_tokens "abc"');
    expect(parseOpenAiUsage({ prompt_tokens: 5, completion_tokens: -3 }).usage).toBeUndefined();
    expect(parseOpenAiUsage({ prompt_tokens: 5, completion_tokens: 1.5 }).usage).toBeUndefined();
    expect(parseOpenAiUsage("lots").usageNote?.usage_warning).toContain("usage");
    expect(parseOpenAiUsage({}).usageNote?.usage_warning).toContain("no token counts");
    // The warning is printable whatever the upstream sent.
    expect(
      parseOpenAiUsage({ prompt_tokens: "\u0000\u001b[2J", completion_tokens: 1 }).usageNote?.usage_warning,
    ).not.toMatch(CONTROL);
  });

  it("absent or null usage is simply not reported", () => {
    expect(parseOpenAiUsage(undefined)).toEqual({});
    expect(parseOpenAiUsage(null)).toEqual({});
    expect(parseAnthropicUsage(undefined)).toEqual({ cachedTokens: 0 });
  });

  it("string counts are converted, not concatenated", () => {
    expect(parseOpenAiUsage({ prompt_tokens: "10", completion_tokens: 20 })).toEqual({
      usage: { prompt_tokens: 10, completion_tokens: 20 },
    });
    expect(parseOpenAiUsage({ prompt_tokens: "10", total_tokens: "25" })).toEqual({
      usage: { prompt_tokens: 10, completion_tokens: 15 },
    });
    expect(
      parseAnthropicUsage({
        input_tokens: "10",
        output_tokens: "20",
        cache_read_input_tokens: "5",
        cache_creation_input_tokens: null,
      }),
    ).toEqual({ usage: { prompt_tokens: 15, completion_tokens: 20, cached_tokens: 5 }, cachedTokens: 5 });
  });

  it("every adapter path reads counts through the parser", () => {
    expect(
      usageOfReply(Buffer.from('{"choices":[],"usage":{"prompt_tokens":"10","completion_tokens":20}}')).usage,
    ).toEqual({ prompt_tokens: 10, completion_tokens: 20 });
    const stream = createOpenAiStreamTranslator(false);
    expect(
      stream.push(undefined, '{"choices":[],"usage":{"prompt_tokens":"10","completion_tokens":20}}').usage,
    ).toEqual({ prompt_tokens: 10, completion_tokens: 20 });
    const bad = stream.push(undefined, '{"choices":[],"usage":{"prompt_tokens":"abc","completion_tokens":5}}');
    expect(bad.usage).toBeUndefined();
    expect(bad).toMatchObject({ usageNote: { usage_warning: expect.stringContaining("abc") } });
    const message = toOpenAiResponse(
      { id: "m", content: [{ type: "text", text: "hi" }], usage: { input_tokens: "abc", output_tokens: 2 } },
      "claude-x",
    );
    expect(message.usage).toBeUndefined();
    expect(message.usageNote?.usage_warning).toContain("input_tokens");
    expect(message.body.usage).toMatchObject({ prompt_tokens: 0, completion_tokens: 0 });
    const anthropic = createAnthropicStreamTranslator("claude-x");
    anthropic.push(
      "message_start",
      JSON.stringify({ type: "message_start", message: { id: "m", usage: { input_tokens: "10", output_tokens: 1 } } }),
    );
    expect(
      anthropic.push(
        "message_delta",
        JSON.stringify({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: "20" } }),
      ).usage,
    ).toEqual({ prompt_tokens: 10, completion_tokens: 20 });
    expect(replyUsage("rerank", '{"usage":{"total_tokens":"38"}}', {}).usage).toEqual({
      prompt_tokens: 38,
      completion_tokens: 0,
    });
    expect(replyUsage("rerank", '{"usage":{"total_tokens":"many"}}', {})).toMatchObject({
      usageNote: { usage_warning: expect.stringContaining("total_tokens") },
    });
    expect(
      replyUsage(
        "transcriptions",
        '{"text":"hello","usage":{"type":"tokens","input_tokens":"14","output_tokens":13}}',
        {},
      ).usage,
    ).toEqual({ prompt_tokens: 14, completion_tokens: 13 });
    const audio = replyUsage(
      "transcriptions",
      '{"text":"hello","usage":{"type":"tokens","input_tokens":"x","output_tokens":13}}',
      {},
    );
    expect(audio.usage).toBeUndefined();
    expect(audio.countedCompletion).toBeGreaterThan(0);
  });

  it("absurd counts are clamped to the ceiling, the reported figure kept", () => {
    expect(clampUsage({ prompt_tokens: 3e9, completion_tokens: 5 }, 2_000_000)).toEqual({
      usage: { prompt_tokens: 2_000_000, completion_tokens: 5 },
      usageNote: { usage_clamped: { prompt_tokens: 3e9 } },
    });
    expect(clampUsage({ prompt_tokens: 10, completion_tokens: 20 }, 2_000_000)).toEqual({
      usage: { prompt_tokens: 10, completion_tokens: 20 },
    });
    // Whatever the configuration, a count stays inside PostgreSQL's int.
    expect(clampUsage({ prompt_tokens: 1e20, completion_tokens: 0 }, 1e15).usage.prompt_tokens).toBeLessThanOrEqual(
      2 ** 31 - 1,
    );
  });
});
