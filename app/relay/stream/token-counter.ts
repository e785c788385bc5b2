import { countTokens } from "gpt-tokenizer";

/**
 * Completion tokens for streams whose upstream sends no usage: each delta is counted as it
 * passes (no whole-text buffer), so memory stays flat however long the reply.
 */
export function createTokenCounter() {
  let total = 0;
  return {
    add(text: string | undefined) {
      if (text) total += countTokens(text);
    },
    get total() {
      return total;
    },
  };
}

/** Prompt tokens of a request when the upstream reports none (message text only). */
export function countPromptTokens(body: Record<string, unknown>): number {
  let tokens = 0;
  const visit = (value: unknown) => {
    if (typeof value === "string") tokens += countTokens(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      const part = value as Record<string, unknown>;
      if (typeof part.text === "string") tokens += countTokens(part.text);
      else if (typeof part.content === "string" || Array.isArray(part.content)) visit(part.content);
    }
  };
  visit(body.messages ?? body.prompt ?? body.input ?? "");
  return tokens;
}

/** Completion tokens of a non-stream OpenAI reply that came without usage. */
export function countCompletionText(body: string): number {
  try {
    const reply = JSON.parse(body) as { choices?: { message?: { content?: unknown }; text?: unknown }[] };
    let tokens = 0;
    for (const choice of reply.choices ?? []) {
      const text = choice.message?.content ?? choice.text;
      if (typeof text === "string") tokens += countTokens(text);
    }
    return tokens;
  } catch {
    return 0;
  }
}
