import { chunkWriter, randomId } from "../shared/openai-shapes";
import type { StreamStep, StreamTranslator } from "../types";
import { mapOllamaFinish, ollamaUsage, toolCallsOf, type OllamaChatLine } from "./convert-response";

/**
 * Ollama /api/chat NDJSON lines → OpenAI chunks. The final line (done:true) carries the counts
 * and done_reason; a line with `error` (the status stays 200 once streaming began) is an error.
 */
export function createOllamaStreamTranslator(model: string, forwardUsage: boolean): StreamTranslator {
  const id = randomId("chatcmpl-");
  const chunks = chunkWriter(id, model);
  let started = false;
  let toolCalls = 0;
  return {
    push(_event, data): StreamStep {
      let line: OllamaChatLine;
      try {
        line = JSON.parse(data) as OllamaChatLine;
      } catch {
        return { chunks: [] };
      }
      if (typeof line.error === "string")
        return { chunks: [], error: { message: line.error, type: "upstream_error", code: null }, done: true };
      const out: string[] = [];
      if (!started) {
        started = true;
        out.push(chunks.delta({ role: "assistant", content: "" }));
      }
      let text = "";
      const content = typeof line.message?.content === "string" ? line.message.content : "";
      const thinking = typeof line.message?.thinking === "string" ? line.message.thinking : "";
      if (thinking) {
        out.push(chunks.delta({ reasoning_content: thinking }));
        text += thinking;
      }
      if (content) {
        out.push(chunks.delta({ content }));
        text += content;
      }
      const calls = toolCallsOf(line, `${id.slice(-6)}${toolCalls}`);
      for (const call of calls) {
        out.push(chunks.delta({ tool_calls: [{ index: toolCalls++, ...call }] }));
        text += call.function.arguments;
      }
      if (line.done !== true) return { chunks: out, text };
      const parsed = ollamaUsage(line);
      out.push(chunks.delta({}, mapOllamaFinish(line.done_reason, toolCalls > 0)));
      if (forwardUsage && parsed.usage) out.push(chunks.usage(parsed.usage));
      return { chunks: out, ...parsed, text, done: true };
    },
  };
}
