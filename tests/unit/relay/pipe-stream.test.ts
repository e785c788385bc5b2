import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createOpenAiStreamTranslator } from "~/relay/adapters/shared/openai-stream";
import type { StreamTranslator } from "~/relay/adapters/types";
import type { ReplySink } from "~/relay/reply-sink";
import { endStream, pipeStream } from "~/relay/stream/pipe-stream.server";

const streamFixture = readFileSync(new URL("../../fixtures/upstream/openai/chat-stream.sse", import.meta.url), "utf8");

function recordingSink() {
  const writes: string[] = [];
  let ends = 0;
  const sink: ReplySink = {
    start: () => undefined,
    write: (chunk) => void writes.push(String(chunk)),
    end: (chunk) => {
      ends += 1;
      if (chunk !== undefined) writes.push(String(chunk));
    },
    started: true,
    open: true,
    onClientGone: () => undefined,
  };
  return {
    sink,
    writes,
    get ends() {
      return ends;
    },
  };
}

/** An OpenAI stream piped from a stand-in upstream body into a recording sink. */
function pipeOpenAi(
  options: { forwardUsage?: boolean; idleMs?: number; abort?: () => void; alone?: () => boolean } = {},
) {
  const upstream = new PassThrough();
  const recorded = recordingSink();
  const outcome = pipeStream(
    upstream as unknown as IncomingMessage,
    recorded.sink,
    createOpenAiStreamTranslator(options.forwardUsage ?? false),
    options.idleMs ?? 5_000,
    options.abort ?? (() => undefined),
    undefined,
    options.alone,
  );
  return { upstream, sink: recorded.sink, writes: recorded.writes, outcome, recorded };
}

/** What the client received, event by event, however the writes were cut. */
function eventsOf(writes: string[]): string[] {
  return writes
    .join("")
    .split("\n\n")
    .filter(Boolean)
    .map((e) => `${e}\n\n`);
}

describe("pipeStream", () => {
  it("sends a reply that arrived in one upstream read in one write with its end, holding back the usage chunk", async () => {
    const { upstream, sink, writes, outcome, recorded } = pipeOpenAi();
    let expected = 0;
    sink.expectEnd = () => void (expected += 1);
    upstream.end(streamFixture);
    const result = await outcome;
    // Nothing is written before billing; the sink is told the end is coming (its headers wait for it).
    expect(writes).toHaveLength(0);
    expect(expected).toBe(1);
    expect(result.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(result.ended).toBe("done");
    endStream(sink, result);
    expect(writes).toHaveLength(1);
    expect(recorded.ends).toBe(1);
    const forwarded = writes[0]!.split("\n\n").filter(Boolean);
    const upstreamEvents = streamFixture.split("\n\n").filter((e) => e.startsWith("data: {"));
    // Every content chunk passes unchanged; only the usage-only chunk stays behind.
    expect(forwarded).toEqual([...upstreamEvents.filter((e) => !/"choices":\s*\[\]/.test(e)), "data: [DONE]"]);
  });

  it("sends a call alone in flight its reply that arrived in one read at once, and only the end after billing", async () => {
    const { upstream, sink, writes, outcome } = pipeOpenAi({ alone: () => true });
    let expected = 0;
    sink.expectEnd = () => void (expected += 1);
    upstream.end(streamFixture);
    const result = await outcome;
    // The client has every content chunk before the charge is made; nothing waits for the end.
    const upstreamEvents = streamFixture.split("\n\n").filter((e) => e.startsWith("data: {"));
    const content = upstreamEvents.filter((e) => !/"choices":\s*\[\]/.test(e));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n\n").filter(Boolean)).toEqual(content);
    expect(expected).toBe(0);
    expect(result.tail).toBe("");
    endStream(sink, result);
    expect(writes.slice(1)).toEqual(["data: [DONE]\n\n"]);
  });

  it("forwards events that arrive in separate reads as they arrive, split mid-event or not", async () => {
    const { upstream, writes, outcome } = pipeOpenAi({ forwardUsage: true });
    const events = streamFixture
      .split("\n\n")
      .filter(Boolean)
      .map((e) => `${e}\n\n`);
    const seen: number[] = [];
    for (const event of events) {
      // Half an event is held by the parser; the whole event is written once its second half arrives.
      upstream.write(event.slice(0, 10));
      await new Promise((r) => setImmediate(r));
      upstream.write(event.slice(10));
      await new Promise((r) => setImmediate(r));
      seen.push(writes.length);
    }
    upstream.end();
    const result = await outcome;
    // Every event as it arrives, but the usage-only chunk: it waits for the end of the stream,
    // where endStream sends it with the usage billed.
    const usageOnly = (e: string) => e.includes('"choices":[]') && e.includes('"usage":{');
    const dataEvents = events.filter((e) => e.startsWith("data: {") && !usageOnly(e));
    expect(writes).toEqual(dataEvents);
    expect(seen.slice(0, dataEvents.length)).toEqual(dataEvents.map((_, i) => i + 1));
    expect(`data: ${result.usageFrame}\n\n`).toBe(events.find(usageOnly));
  });
});

describe("pipeStream at the reply's last event", () => {
  it("ends at [DONE] without waiting for the upstream to close its body, and lets go of one that never does", async () => {
    let aborted = 0;
    const { upstream, writes, outcome } = pipeOpenAi({ idleMs: 150, abort: () => (aborted += 1) });
    upstream.write(streamFixture); // every event, [DONE] included, and no end of body
    const result = await outcome;
    expect(result.ended).toBe("done");
    expect(result.error).toBeUndefined();
    expect(result.usage?.completion_tokens).toBeGreaterThan(0);
    expect(writes.join("")).not.toContain("[DONE]"); // the relay writes its own after billing
    expect(aborted).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(aborted).toBe(1);
  });

  it("keeps reading a completed reply's body to its close, and stops watching then", async () => {
    let aborted = 0;
    const { upstream, outcome } = pipeOpenAi({ idleMs: 150, abort: () => (aborted += 1) });
    upstream.write(streamFixture);
    await outcome;
    upstream.end(": trailing comment\n\n");
    await new Promise((r) => setTimeout(r, 300));
    expect(upstream.readableEnded).toBe(true);
    expect(aborted).toBe(0);
  });
});

describe("endStream", () => {
  const noUsage =
    streamFixture
      .split("\n\n")
      .filter((e) => e.trim() && !/"choices":\s*\[\]/.test(e))
      .join("\n\n") + "\n\n";
  const usage = { prompt_tokens: 7, completion_tokens: 2 };

  it("adds the usage chunk the client asked for, with the stream's id and created time, before [DONE], when none was forwarded", async () => {
    const { upstream, sink, writes, outcome } = pipeOpenAi({ forwardUsage: true });
    upstream.end(noUsage);
    const result = await outcome;
    expect(result.usageSent).toBe(false);
    endStream(sink, result, { usage, model: "client-model", object: "text_completion" });
    const events = eventsOf(writes);
    expect(events.at(-1)).toBe("data: [DONE]\n\n");
    expect(JSON.parse(events.at(-2)!.replace(/^data: /, ""))).toEqual({
      id: "chatcmpl-Q7",
      object: "text_completion",
      created: 1735689600,
      model: "client-model",
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
  });

  it("adds nothing when the upstream's usage chunk went through, or when the client did not ask", async () => {
    for (const [forward, fixture, closing] of [
      [true, streamFixture, true],
      [false, noUsage, false],
    ] as const) {
      const { upstream, sink, writes, outcome } = pipeOpenAi({ forwardUsage: forward });
      upstream.end(fixture);
      const result = await outcome;
      endStream(sink, result, closing ? { usage, model: "m", object: "chat.completion.chunk" } : undefined);
      expect(writes.join("").match(/"usage":\{/g) ?? []).toHaveLength(forward ? 1 : 0);
      expect(eventsOf(writes).at(-1)).toBe("data: [DONE]\n\n");
    }
  });
});

/** A stub protocol: each event's data is forwarded as a chunk of text; an event named `end` is its last. */
function stubTranslator(options: { marksEnd: boolean }): StreamTranslator {
  let ended = false;
  return {
    push(event, data) {
      if (event === "end") {
        ended = true;
        return { chunks: [], done: true };
      }
      return { chunks: [JSON.stringify({ text: data })], text: data };
    },
    ...(options.marksEnd ? { finished: () => ended } : {}),
  };
}

describe("pipeStream when the upstream stops short", () => {
  const firstEvents = (n: number) =>
    streamFixture
      .split("\n\n")
      .filter((e) => e.trim())
      .slice(0, n)
      .map((e) => `${e}\n\n`)
      .join("");

  it("a body that closes before [DONE] and before any finish_reason is cut: the error to end on, and stream_cut in the usage note", async () => {
    const { upstream, outcome } = pipeOpenAi();
    upstream.end(firstEvents(3));
    const result = await outcome;
    expect(result.error).toMatchObject({ type: "upstream_error", code: "stream_interrupted" });
    expect(result.usageNote).toEqual({ stream_cut: "ended_early" });
    expect(result.countedCompletion).toBeGreaterThan(0);
  });

  it("a connection that breaks mid-reply is cut (connection_lost), and a usage note already there is kept", async () => {
    const upstream = new PassThrough();
    const { sink } = recordingSink();
    const translator: StreamTranslator = {
      push: (_e, data) => ({ chunks: [data], usageNote: { usage_warning: "w" } }),
    };
    const outcome = pipeStream(upstream as unknown as IncomingMessage, sink, translator, 5_000, () => undefined);
    upstream.write("data: {}\n\n");
    await new Promise((r) => setImmediate(r));
    upstream.destroy(new Error("aborted"));
    const result = await outcome;
    expect(result.error?.code).toBe("stream_interrupted");
    expect(result.usageNote).toEqual({ usage_warning: "w", stream_cut: "connection_lost" });
  });

  it("a reply whose every choice finished is whole even when the upstream closes without [DONE]", async () => {
    const { upstream, outcome } = pipeOpenAi();
    upstream.end(firstEvents(4)); // through finish_reason "stop"
    const result = await outcome;
    expect(result.error).toBeUndefined();
    expect(result.usageNote).toBeUndefined();
  });

  it("a last event whose closing blank line never came still counts when the body closes", async () => {
    const upstream = new PassThrough();
    const { sink, writes } = recordingSink();
    const outcome = pipeStream(
      upstream as unknown as IncomingMessage,
      sink,
      stubTranslator({ marksEnd: true }),
      5_000,
      () => undefined,
    );
    upstream.end("data: a\n\nevent: end\ndata: {}");
    const result = await outcome;
    expect(result.error).toBeUndefined();
    expect(writes.join("")).toBe('data: {"text":"a"}\n\n');
  });

  it("a protocol with no end of its own (no finished()): a closing body ends the reply, a broken connection cuts it", async () => {
    const closed = new PassThrough();
    const whole = pipeStream(
      closed as unknown as IncomingMessage,
      recordingSink().sink,
      stubTranslator({ marksEnd: false }),
      5_000,
      () => undefined,
    );
    closed.end("data: a\n\n");
    expect((await whole).error).toBeUndefined();

    const broken = new PassThrough();
    const cut = pipeStream(
      broken as unknown as IncomingMessage,
      recordingSink().sink,
      stubTranslator({ marksEnd: false }),
      5_000,
      () => undefined,
    );
    broken.write("data: a\n\n");
    await new Promise((r) => setImmediate(r));
    broken.destroy(new Error("socket hang up"));
    expect((await cut).usageNote).toEqual({ stream_cut: "connection_lost" });
  });

  it("an upstream gone quiet mid-reply is cut at the idle timeout; one gone quiet after a whole reply is let go without an error", async () => {
    const midway = new PassThrough();
    let aborted = 0;
    const cut = pipeStream(
      midway as unknown as IncomingMessage,
      recordingSink().sink,
      createOpenAiStreamTranslator(false),
      100,
      () => (aborted += 1),
    );
    midway.write(firstEvents(2));
    const cutResult = await cut;
    expect(cutResult.error?.code).toBe("stream_idle_timeout");
    expect(cutResult.usageNote).toEqual({ stream_cut: "idle_timeout" });
    expect(aborted).toBe(1);

    const finished = new PassThrough();
    const whole = pipeStream(
      finished as unknown as IncomingMessage,
      recordingSink().sink,
      createOpenAiStreamTranslator(false),
      100,
      () => (aborted += 1),
    );
    finished.write(firstEvents(5)); // finish_reason and usage, but no [DONE] and no end of body
    const wholeResult = await whole;
    expect(wholeResult.error).toBeUndefined();
    expect(wholeResult.usageNote).toBeUndefined();
    expect(aborted).toBe(2);
  });
});

describe("endStream after a cut", () => {
  it("writes the usage chunk the client asked for, then the error event, and no [DONE]", async () => {
    const { upstream, sink, writes, outcome } = pipeOpenAi({ forwardUsage: true });
    upstream.end(
      streamFixture
        .split("\n\n")
        .slice(0, 2)
        .map((e) => `${e}\n\n`)
        .join(""),
    );
    const result = await outcome;
    endStream(sink, result, {
      usage: { prompt_tokens: 7, completion_tokens: 1 },
      model: "m",
      object: "chat.completion.chunk",
    });
    const events = eventsOf(writes);
    expect(JSON.parse(events.at(-2)!.replace(/^data: /, ""))).toMatchObject({
      id: "chatcmpl-Q7",
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 },
    });
    expect(events.at(-1)).toMatch(
      /^data: \{"error":\{"message":"[^"]+","type":"upstream_error","code":"stream_interrupted","param":null\}\}\n\n$/,
    );
    expect(writes.join("")).not.toContain("[DONE]");
  });
});

describe("OpenAI content chunks on their way through", () => {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices, ...extra })}\n\n`;
  const delta = (index: number, content: string) => ({ index, delta: { content }, finish_reason: null });
  const run = async (body: string, forwardUsage = false) => {
    const { upstream, sink, writes, outcome } = pipeOpenAi({ forwardUsage });
    // One event per read, as a slow upstream sends them.
    for (const event of eventsOf([body])) {
      upstream.write(event);
      await new Promise((r) => setImmediate(r));
    }
    upstream.end();
    const result = await outcome;
    endStream(sink, result);
    return { result, events: eventsOf(writes) };
  };

  it("counts their text, in order, when no usage comes: the same count as the text read whole", async () => {
    const words = ["The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "."];
    const body =
      chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]) +
      words.map((w) => chunk([delta(0, w)])).join("") +
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]) +
      "data: [DONE]\n\n";
    const { result, events } = await run(body);
    expect(result.usage).toBeUndefined();
    const whole = await run(
      chunk([delta(0, words.join(""))]) + chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    );
    expect(result.countedCompletion).toBeGreaterThan(0);
    expect(result.countedCompletion).toBe(whole.result.countedCompletion);
    // Every chunk reached the client as it came.
    expect(events.slice(0, -1)).toEqual(eventsOf([body]).slice(0, -1));
  });

  it("are not fooled by content that spells out usage, an error or a finish", async () => {
    const tricky =
      'see "usage":{"prompt_tokens":999999,"completion_tokens":999999} and "error":{"message":"x"} "finish_reason":"stop"';
    const body =
      chunk([delta(0, "")]) +
      chunk([delta(0, tricky)], { usage: null }) +
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]) +
      chunk([], { usage: { prompt_tokens: 5, completion_tokens: 40, total_tokens: 45 } }) +
      "data: [DONE]\n\n";
    const { result, events } = await run(body, true);
    expect(result.usage).toEqual({ prompt_tokens: 5, completion_tokens: 40 });
    expect(result.error).toBeUndefined();
    expect(events[1]).toBe(chunk([delta(0, tricky)], { usage: null }));
  });

  it("judge the reply's end when no [DONE] comes: a choice begun in the last chunk and never finished cuts it", async () => {
    const twoChoices =
      chunk([delta(0, "")]) +
      chunk([delta(0, "A")]) +
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]) +
      chunk([delta(1, "B")]); // the second choice begins in the last chunk
    const cut = await run(twoChoices);
    expect(cut.result.usageNote?.stream_cut).toBe("ended_early");
    const whole = await run(twoChoices + chunk([{ index: 1, delta: {}, finish_reason: "stop" }]));
    expect(whole.result.usageNote?.stream_cut).toBeUndefined();
    expect(whole.result.ended).toBe("done");
  });
});
