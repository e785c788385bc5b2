/**
 * A thinking budget in tokens (Anthropic's extended thinking, Gemini's thinkingConfig) → OpenAI's
 * reasoning effort. Budgets start at about a thousand tokens and the providers' examples run from
 * a few thousand to tens of thousands; OpenAI's efforts are coarse steps, so a budget under 4K
 * asks for little reasoning, under 16K for some, and more for much.
 */
const LOW_EFFORT_BELOW = 4_096;
const MEDIUM_EFFORT_BELOW = 16_384;

export type ReasoningEffort = "low" | "medium" | "high";

export function reasoningEffortFor(budget: number): ReasoningEffort {
  if (budget < LOW_EFFORT_BELOW) return "low";
  if (budget < MEDIUM_EFFORT_BELOW) return "medium";
  return "high";
}
