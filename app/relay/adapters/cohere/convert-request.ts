import { messagesOf, pickFields, textOf } from "../shared/openai-shapes";

type CohereTurn = { role: "USER" | "CHATBOT" | "SYSTEM"; message: string };

/**
 * OpenAI chat → Cohere chat v1: the last user message is `message`, earlier turns are
 * `chat_history`, system messages join into `preamble`. Sampling names differ (top_p → p,
 * stop → stop_sequences).
 */
export function toCohereChat(body: Record<string, unknown>, model: string, stream: boolean): Record<string, unknown> {
  const messages = messagesOf(body);
  const preamble: string[] = [];
  const turns: CohereTurn[] = [];
  for (const m of messages) {
    const text = textOf(m.content);
    if (m.role === "system" || m.role === "developer") preamble.push(text);
    else turns.push({ role: m.role === "assistant" ? "CHATBOT" : "USER", message: text });
  }
  let lastUser = -1;
  for (let i = turns.length - 1; i >= 0; i--) {
    if (turns[i]!.role === "USER") {
      lastUser = i;
      break;
    }
  }
  const message = lastUser >= 0 ? turns[lastUser]!.message : "";
  const history = lastUser >= 0 ? [...turns.slice(0, lastUser), ...turns.slice(lastUser + 1)] : turns;
  const out: Record<string, unknown> = {
    model,
    message,
    ...pickFields(body, ["temperature", "max_tokens", "seed", "frequency_penalty", "presence_penalty"]),
  };
  if (history.length) out.chat_history = history;
  if (preamble.length) out.preamble = preamble.join("\n");
  if (typeof body.top_p === "number") out.p = body.top_p;
  if (body.stop !== undefined && body.stop !== null)
    out.stop_sequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (stream) out.stream = true;
  return out;
}

/** The gateway's rerank body → Cohere's (the same names; Cohere wants documents as strings or {text}). */
export function toCohereRerank(body: Record<string, unknown>, model: string): Record<string, unknown> {
  return { model, ...pickFields(body, ["query", "documents", "top_n", "return_documents", "max_chunks_per_doc"]) };
}
