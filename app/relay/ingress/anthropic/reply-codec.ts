import type { UpstreamError } from "../../adapters/types";
import { anthropicCounts } from "../../billing/billed-usage-body";
import type { Usage } from "../../billing/pricing";
import { parseArguments, sseFrame, type Json } from "../json-shape";
import { readChunk, readCompletion } from "../openai-reply";
import type { NativeStreamWriter, ReplyCodec } from "../types";
import { anthropicErrorType } from "./errors";

/** OpenAI finish_reason → Anthropic stop_reason. */
function stopReason(finish: string | null | undefined): string {
  if (finish === "length") return "max_tokens";
  if (finish === "tool_calls" || finish === "function_call") return "tool_use";
  if (finish === "content_filter") return "refusal";
  return "end_turn";
}

function messageId(openAiId: string): string {
  return `msg_${openAiId.replace(/^chatcmpl-/, "") || Date.now().toString(36)}`;
}

/** An OpenAI reply, whole or streamed, as an Anthropic Messages reply. */
export const anthropicReplyCodec: ReplyCodec = {
  convertReply(reply, usage, requestModel) {
    const parts = readCompletion(reply);
    const content: Json[] = [];
    if (parts.reasoning) content.push({ type: "thinking", thinking: parts.reasoning, signature: "" });
    if (parts.text) content.push({ type: "text", text: parts.text });
    for (const call of parts.toolCalls)
      content.push({ type: "tool_use", id: call.id, name: call.name, input: parseArguments(call.arguments) });
    return {
      id: messageId(parts.id),
      type: "message",
      role: "assistant",
      model: requestModel,
      content,
      stop_reason: stopReason(parts.finishReason),
      stop_sequence: null,
      usage: anthropicCounts(usage),
    };
  },
  createStreamWriter: (requestModel, promptEstimate) => new AnthropicStreamWriter(requestModel, promptEstimate),
};

/**
 * OpenAI chunks → Anthropic events: message_start before the first (its input_tokens the prompt
 * as counted before the reply: an OpenAI stream reports its usage only at the end), a thinking
 * block for reasoning, a text block for content, one tool_use block per tool call (its arguments
 * as input_json_delta), each block stopped when the next opens; message_delta (stop reason, the
 * whole usage billed, input included as Anthropic's own message_delta now carries it) and
 * message_stop at the end.
 */
class AnthropicStreamWriter implements NativeStreamWriter {
  private started = false;
  private blocks = 0;
  private open: { kind: "text" } | { kind: "thinking" } | { kind: "tool"; callIndex: number } | undefined;
  private finish: string | undefined;

  constructor(
    private readonly requestModel: string,
    private readonly promptEstimate: number,
  ) {}

  private start(id: string | undefined): string {
    if (this.started) return "";
    this.started = true;
    const message = {
      id: messageId(id ?? ""),
      type: "message",
      role: "assistant",
      model: this.requestModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: this.promptEstimate,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 0,
      },
    };
    return sseFrame({ type: "message_start", message }, "message_start");
  }

  private stopBlock(): string {
    if (!this.open) return "";
    this.open = undefined;
    const index = this.blocks - 1;
    return sseFrame({ type: "content_block_stop", index }, "content_block_stop");
  }

  private startBlock(block: Json, open: NonNullable<AnthropicStreamWriter["open"]>): string {
    const frames = this.stopBlock();
    this.open = open;
    const index = this.blocks++;
    return frames + sseFrame({ type: "content_block_start", index, content_block: block }, "content_block_start");
  }

  chunk(chunk: Json): string {
    const delta = readChunk(chunk);
    let frames = this.start(delta.id);
    if (delta.reasoning) {
      if (this.open?.kind !== "thinking")
        frames += this.startBlock({ type: "thinking", thinking: "", signature: "" }, { kind: "thinking" });
      frames += sseFrame(
        {
          type: "content_block_delta",
          index: this.blocks - 1,
          delta: { type: "thinking_delta", thinking: delta.reasoning },
        },
        "content_block_delta",
      );
    }
    if (delta.text) {
      if (this.open?.kind !== "text") frames += this.startBlock({ type: "text", text: "" }, { kind: "text" });
      frames += sseFrame(
        { type: "content_block_delta", index: this.blocks - 1, delta: { type: "text_delta", text: delta.text } },
        "content_block_delta",
      );
    }
    for (const call of delta.toolCalls) {
      if (this.open?.kind !== "tool" || this.open.callIndex !== call.index || call.id) {
        frames += this.startBlock(
          { type: "tool_use", id: call.id ?? `toolu_${call.index}`, name: call.name ?? "", input: {} },
          { kind: "tool", callIndex: call.index },
        );
      }
      if (call.arguments)
        frames += sseFrame(
          {
            type: "content_block_delta",
            index: this.blocks - 1,
            delta: { type: "input_json_delta", partial_json: call.arguments },
          },
          "content_block_delta",
        );
    }
    if (delta.finishReason) this.finish = delta.finishReason;
    return frames;
  }

  close(billed: Usage, error?: UpstreamError): string {
    let frames = this.start(undefined) + this.stopBlock();
    if (error)
      return (
        frames + sseFrame({ type: "error", error: { type: anthropicErrorType(500), message: error.message } }, "error")
      );
    frames += sseFrame(
      {
        type: "message_delta",
        delta: { stop_reason: stopReason(this.finish), stop_sequence: null },
        usage: anthropicCounts(billed),
      },
      "message_delta",
    );
    return frames + sseFrame({ type: "message_stop" }, "message_stop");
  }
}
