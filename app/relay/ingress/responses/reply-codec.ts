import type { UpstreamError } from "../../adapters/types";
import type { Usage } from "../../billing/pricing";
import { sseFrame, type Json } from "../json-shape";
import { readChunk, readCompletion, type ToolCall } from "../openai-reply";
import type { NativeStreamWriter, ReplyCodec } from "../types";

function responseUsage(usage: Usage | undefined): Json {
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

const messageItem = (id: string, text: string, status: string): Json => ({
  type: "message",
  id,
  status,
  role: "assistant",
  content: status === "completed" || text ? [{ type: "output_text", text, annotations: [] }] : [],
});
const callItem = (call: ToolCall, status: string): Json => ({
  type: "function_call",
  id: `fc_${call.id}`,
  call_id: call.id,
  name: call.name,
  arguments: call.arguments,
  status,
});

/** A Responses object: what `responses.create` returns, and what response.completed carries. */
function responseObject(
  id: string,
  model: string,
  output: Json[],
  finish: string | null | undefined,
  usage: Usage | undefined,
  status?: string,
): Json {
  const truncated = finish === "length";
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: status ?? (truncated ? "incomplete" : "completed"),
    model,
    output,
    error: null,
    incomplete_details: truncated ? { reason: "max_output_tokens" } : null,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    ...(usage ? { usage: responseUsage(usage) } : {}),
  };
}

const responseId = (openAiId: string) => `resp_${openAiId.replace(/^chatcmpl-/, "") || Date.now().toString(36)}`;

/** An OpenAI chat reply, whole or streamed, as a Responses reply. */
export const responsesReplyCodec: ReplyCodec = {
  convertReply(reply, usage, requestModel) {
    const parts = readCompletion(reply);
    const id = responseId(parts.id);
    const output: Json[] = [];
    if (parts.text || parts.toolCalls.length === 0)
      output.push(messageItem(`msg_${id.slice(5)}`, parts.text, "completed"));
    for (const call of parts.toolCalls) output.push(callItem(call, "completed"));
    return responseObject(
      id,
      requestModel,
      output,
      parts.finishReason,
      usage ?? { prompt_tokens: 0, completion_tokens: 0 },
    );
  },
  createStreamWriter: (requestModel) => new ResponsesStreamWriter(requestModel),
};

/**
 * OpenAI chunks → Responses events, each named by its type and numbered: response.created and
 * in_progress first; a message item (output_item.added, content_part.added, output_text.delta…)
 * for text; a function_call item per tool call with its argument deltas; every item done and
 * response.completed (usage billed) at the end. The text is kept: the done events repeat it.
 */
class ResponsesStreamWriter implements NativeStreamWriter {
  private sequence = 0;
  private id = "";
  private started = false;
  private finish: string | undefined;
  private readonly output: { item: Json; text?: string; call?: ToolCall; done: boolean }[] = [];
  private readonly callOutput = new Map<number, number>();

  constructor(private readonly requestModel: string) {}

  private event(type: string, fields: Json): string {
    return sseFrame({ type, sequence_number: this.sequence++, ...fields }, type);
  }

  private start(openAiId: string | undefined): string {
    if (this.started) return "";
    this.started = true;
    this.id = responseId(openAiId ?? "");
    const response = responseObject(this.id, this.requestModel, [], null, undefined, "in_progress");
    return this.event("response.created", { response }) + this.event("response.in_progress", { response });
  }

  private closeItem(index: number): string {
    const entry = this.output[index];
    if (!entry || entry.done) return "";
    entry.done = true;
    if (entry.call) {
      entry.item = callItem(entry.call, "completed");
      return (
        this.event("response.function_call_arguments.done", {
          item_id: entry.item.id,
          output_index: index,
          arguments: entry.call.arguments,
        }) + this.event("response.output_item.done", { output_index: index, item: entry.item })
      );
    }
    const text = entry.text ?? "";
    const part = { type: "output_text", text, annotations: [] };
    entry.item = messageItem(entry.item.id as string, text, "completed");
    return (
      this.event("response.output_text.done", {
        item_id: entry.item.id,
        output_index: index,
        content_index: 0,
        text,
        logprobs: [],
      }) +
      this.event("response.content_part.done", {
        item_id: entry.item.id,
        output_index: index,
        content_index: 0,
        part,
      }) +
      this.event("response.output_item.done", { output_index: index, item: entry.item })
    );
  }

  chunk(chunk: Json): string {
    const delta = readChunk(chunk);
    let frames = this.start(delta.id);
    if (delta.text) {
      let index = this.output.findIndex((entry) => entry.text !== undefined && !entry.done);
      if (index < 0) {
        index = this.output.length;
        const item = messageItem(`msg_${this.id.slice(5)}_${index}`, "", "in_progress");
        this.output.push({ item, text: "", done: false });
        frames += this.event("response.output_item.added", { output_index: index, item });
        frames += this.event("response.content_part.added", {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        });
      }
      const entry = this.output[index]!;
      entry.text += delta.text;
      frames += this.event("response.output_text.delta", {
        item_id: entry.item.id,
        output_index: index,
        content_index: 0,
        delta: delta.text,
        logprobs: [],
      });
    }
    for (const call of delta.toolCalls) {
      let index = this.callOutput.get(call.index);
      if (index === undefined) {
        index = this.output.length;
        this.callOutput.set(call.index, index);
        const started: ToolCall = { id: call.id ?? `call_${call.index}`, name: call.name ?? "", arguments: "" };
        const item = callItem(started, "in_progress");
        this.output.push({ item, call: started, done: false });
        frames += this.event("response.output_item.added", { output_index: index, item });
      }
      const entry = this.output[index]!;
      if (call.arguments) {
        entry.call!.arguments += call.arguments;
        frames += this.event("response.function_call_arguments.delta", {
          item_id: entry.item.id,
          output_index: index,
          delta: call.arguments,
        });
      }
    }
    if (delta.finishReason) this.finish = delta.finishReason;
    return frames;
  }

  close(billed: Usage, error?: UpstreamError): string {
    let frames = this.start(undefined);
    for (let index = 0; index < this.output.length; index += 1) frames += this.closeItem(index);
    if (error)
      return frames + this.event("error", { code: error.code ?? "server_error", message: error.message, param: null });
    const response = responseObject(
      this.id,
      this.requestModel,
      this.output.map((entry) => entry.item),
      this.finish,
      billed,
    );
    return (
      frames + this.event(response.status === "incomplete" ? "response.incomplete" : "response.completed", { response })
    );
  }
}
