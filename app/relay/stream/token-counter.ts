import { createRequire } from "node:module";

// The BPE tables cost ~70 MB of memory and are only needed when an upstream reports no usage,
// so they are loaded on first use instead of at start.
let tokenizer: ((text: string) => number) | undefined;

/**
 * BPE merging is quadratic in the length of one unbroken word: 100 000 "x" took 19 s of the
 * event loop (found by the input fuzzer). A word longer than 256 characters (base64,
 * a pasted hash, a hostile run) is counted in 256-character pieces: within a few tokens of the
 * exact count, in linear time. Ordinary text never has such words and counts exactly as before.
 */
const LONG_RUN = /(\S{256})/;

function countTokens(text: string): number {
  tokenizer ??= (createRequire(import.meta.url)("gpt-tokenizer") as { countTokens: (text: string) => number })
    .countTokens;
  if (text.length < 256 || !LONG_RUN.test(text)) return tokenizer(text);
  let tokens = 0;
  for (const piece of text.split(LONG_RUN)) if (piece) tokens += tokenizer(piece);
  return tokens;
}

/** Text held back before counting: a reply whose usage arrives at its end is never tokenized. */
const PENDING_LIMIT = 16 * 1024;

/**
 * Completion tokens for streams whose upstream may send no usage. Deltas are held (up to 16 KB)
 * and counted in slices, so memory stays flat however long the reply, and the common case — the
 * usage chunk arrives at the end — costs no tokenizing at all.
 */
export function createTokenCounter() {
  let counted = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = () => {
    if (pending.length > 0) counted += countTokens(pending.join(""));
    pending = [];
    pendingLength = 0;
  };
  return {
    add(text: string | undefined) {
      if (!text) return;
      pending.push(text);
      pendingLength += text.length;
      if (pendingLength >= PENDING_LIMIT) flush();
    },
    get total() {
      flush();
      return counted;
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
  // Legacy edits: the instruction is read as well as the input.
  if (typeof body.instruction === "string") visit(body.instruction);
  // Rerank: the query and every document are read by the model.
  if (typeof body.query === "string") visit(body.query);
  if (Array.isArray(body.documents)) visit(body.documents);
  return tokens;
}

/** Tokens of a plain text (a transcript, a subtitle file). */
export function countText(text: string): number {
  return text ? countTokens(text) : 0;
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
