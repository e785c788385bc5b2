import type { StreamStep, StreamTranslator } from "../types";
import { mapFinishReason } from "./map-finish-reason";
import { openAiUsage } from "./convert-response";

/**
 * Anthropic SSE events → OpenAI chat.completion.chunk JSON, one event at a time. Tool calls are
 * numbered by tool blocks only (not Anthropic's block index); usage comes from message_start
 * (input) and the cumulative message_delta (output), and is emitted as the usage-only chunk
 * when the client asked for it.
 */
export type AnthropicStreamTranslator = StreamTranslator & {
  /** Usage so far (after message_start); undefined before it. */
  usage(): { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
  /** True once message_delta carried a stop_reason or message_stop arrived. */
  finished(): boolean;
};

export function createAnthropicStreamTranslator(
  requestModel: string,
  forwardUsage = false,
  initialId?: string,
): AnthropicStreamTranslator {
  let id = initialId ?? "chatcmpl-";
  let started = false;
  let done = false;
  const created = Math.floor(Date.now() / 1000);
  let usage: Record<string, unknown> = {};
  const toolIndexByBlock = new Map<number, number>();
  let tools = 0;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: requestModel,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });

  return {
    push(event, data): StreamStep {
      let payload: Record<string, any>;
      try {
        payload = JSON.parse(data) as Record<string, any>;
      } catch {
        return { chunks: [] };
      }
      switch (event ?? payload.type) {
        case "message_start":
          if (!initialId) id = `chatcmpl-${payload.message?.id ?? ""}`;
          usage =
            payload.message?.usage && typeof payload.message.usage === "object" ? { ...payload.message.usage } : {};
          started = true;
          return { chunks: [chunk({ role: "assistant", content: "" })] };
        case "content_block_start": {
          const block = payload.content_block ?? {};
          if (block.type !== "tool_use") return { chunks: [] };
          const index = tools++;
          toolIndexByBlock.set(payload.index, index);
          return {
            chunks: [
              chunk({
                tool_calls: [{ index, id: block.id, type: "function", function: { name: block.name, arguments: "" } }],
              }),
            ],
            text: block.name,
          };
        }
        case "content_block_delta": {
          const delta = payload.delta ?? {};
          if (delta.type === "text_delta") return { chunks: [chunk({ content: delta.text })], text: delta.text };
          if (delta.type === "thinking_delta")
            return { chunks: [chunk({ reasoning_content: delta.thinking })], text: delta.thinking };
          if (delta.type === "input_json_delta") {
            const index = toolIndexByBlock.get(payload.index) ?? 0;
            return {
              chunks: [chunk({ tool_calls: [{ index, function: { arguments: delta.partial_json } }] })],
              text: delta.partial_json,
            };
          }
          return { chunks: [] };
        }
        case "message_delta": {
          const latest: unknown = payload.usage ?? {};
          if (latest && typeof latest === "object")
            for (const [k, v] of Object.entries(latest)) if (v !== null && v !== undefined) usage[k] = v;
          const { shown: converted, billing } = openAiUsage(usage);
          started = true;
          if (payload.delta?.stop_reason) done = true;
          const chunks = [chunk({}, mapFinishReason(payload.delta?.stop_reason) ?? "stop")];
          if (forwardUsage)
            chunks.push(
              JSON.stringify({
                id,
                object: "chat.completion.chunk",
                created,
                model: requestModel,
                choices: [],
                usage: converted,
              }),
            );
          return { chunks, ...billing };
        }
        case "message_stop":
          done = true;
          return { chunks: [], done: true };
        case "error":
          return {
            chunks: [],
            error: {
              message: payload.error?.message ?? "upstream stream error",
              type: payload.error?.type ?? "upstream_error",
              code: null,
            },
          };
        default:
          return { chunks: [] };
      }
    },
    usage() {
      if (!started) return undefined;
      const { shown, billing } = openAiUsage(usage);
      if (!billing.usage) return undefined;
      return {
        prompt_tokens: shown.prompt_tokens,
        completion_tokens: shown.completion_tokens,
        total_tokens: shown.total_tokens,
      };
    },
    finished: () => done,
  };
}
