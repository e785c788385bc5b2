import { contextLengthIn } from "~/domain/billing/context-lengths";
import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import type { UsageBounds } from "./usage-parse";

const NONE: Record<string, number> = Object.freeze({}) as Record<string, number>;

/**
 * The most one call of `model` can be billed for: no side past the model's context window
 * (the ModelContextLength option, by exact name or family), and the reply no longer than the
 * request allowed (`max_tokens` × `n` choices) — an upstream cannot have produced more. Models
 * nobody listed fall back to RELAY_USAGE_CEILING per side.
 */
export function usageBounds(model: string, maxTokens: number | undefined, choices = 1): UsageBounds {
  const context = contextLengthIn(options.json<Record<string, number>>("ModelContextLength") ?? NONE, model);
  const window = Math.min(context ?? env.RELAY_USAGE_CEILING, env.RELAY_USAGE_CEILING);
  const reply = maxTokens === undefined ? window : Math.min(window, maxTokens * Math.max(1, choices));
  return { prompt_tokens: window, completion_tokens: reply };
}
