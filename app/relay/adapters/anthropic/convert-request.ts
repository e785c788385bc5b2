/**
 * OpenAI chat request → Anthropic Messages request: system and
 * developer turns become `system`, images become image blocks, tools and tool calls and tool
 * results become their Anthropic blocks, consecutive same-role turns are merged.
 */
type Part = { type?: string; text?: string; image_url?: { url?: string } | string };
type OpenAiMessage = {
  role?: string;
  content?: string | Part[] | null;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
};
type Block = Record<string, unknown>;

export const DEFAULT_MAX_TOKENS = 4096;

/**
 * OpenAI's reasoning effort → an extended-thinking budget. Anthropic's smallest budget is 1,024
 * tokens and the budget must stay below max_tokens; OpenAI's max_completion_tokens counts the
 * reasoning too, so the budget is fitted inside the client's limit instead of raising it (the
 * bill is bounded by that limit). "minimal", or a limit too small for the smallest budget, asks
 * for no thinking. A forced tool choice cannot be combined with thinking: the tool wins.
 */
const THINKING_BUDGET: Record<string, number> = { low: 1_024, medium: 8_192, high: 24_576 };
const MIN_THINKING_BUDGET = 1_024;
const MIN_TOP_P_WITH_THINKING = 0.95;

function thinkingFor(
  body: Record<string, unknown>,
  maxTokens: number,
): { type: "enabled"; budget_tokens: number } | undefined {
  const wanted = typeof body.reasoning_effort === "string" ? THINKING_BUDGET[body.reasoning_effort] : undefined;
  if (wanted === undefined) return undefined;
  const forced = body.tool_choice === "required" || (typeof body.tool_choice === "object" && body.tool_choice !== null);
  if (forced) return undefined;
  const budget = Math.min(wanted, maxTokens - 1);
  return budget >= MIN_THINKING_BUDGET ? { type: "enabled", budget_tokens: budget } : undefined;
}

function textOf(content: OpenAiMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");
}

function imageBlock(url: string): Block {
  const data = /^data:([^;]+);base64,(.*)$/s.exec(url);
  if (data) return { type: "image", source: { type: "base64", media_type: data[1], data: data[2] } };
  return { type: "image", source: { type: "url", url } };
}

function contentBlocks(content: OpenAiMessage["content"]): Block[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  const blocks: Block[] = [];
  for (const part of content ?? []) {
    if (part.type === "text" && part.text) blocks.push({ type: "text", text: part.text });
    if (part.type === "image_url") {
      const url = typeof part.image_url === "string" ? part.image_url : part.image_url?.url;
      if (url) blocks.push(imageBlock(url));
    }
  }
  return blocks;
}

function parseArguments(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

function toolChoice(choice: unknown, parallel: unknown): Block | undefined {
  let mapped: Block | undefined;
  if (choice === "auto") mapped = { type: "auto" };
  else if (choice === "required") mapped = { type: "any" };
  else if (choice === "none") mapped = { type: "none" };
  else if (choice && typeof choice === "object") {
    const name = (choice as { function?: { name?: string } }).function?.name;
    if (name) mapped = { type: "tool", name };
  }
  if (parallel === false) mapped = { ...(mapped ?? { type: "auto" }), disable_parallel_tool_use: true };
  return mapped;
}

export function toAnthropicRequest(body: Record<string, unknown>, upstreamModel: string): Record<string, unknown> {
  const system: string[] = [];
  const messages: { role: "user" | "assistant"; content: Block[] }[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: [...blocks] });
  };
  for (const message of (body.messages as OpenAiMessage[] | undefined) ?? []) {
    if (message.role === "system" || message.role === "developer") system.push(textOf(message.content));
    else if (message.role === "tool")
      push("user", [
        { type: "tool_result", tool_use_id: message.tool_call_id ?? "", content: textOf(message.content) },
      ]);
    else if (message.role === "assistant") {
      const blocks = contentBlocks(message.content);
      for (const call of message.tool_calls ?? [])
        blocks.push({
          type: "tool_use",
          id: call.id ?? "",
          name: call.function?.name ?? "",
          input: parseArguments(call.function?.arguments),
        });
      push("assistant", blocks);
    } else push("user", contentBlocks(message.content));
  }
  const request: Record<string, unknown> = {
    model: upstreamModel,
    max_tokens: Number(body.max_completion_tokens ?? body.max_tokens) || DEFAULT_MAX_TOKENS,
    messages,
  };
  if (system.length) request.system = system.join("\n");
  const thinking = thinkingFor(body, request.max_tokens as number);
  if (thinking) {
    // Extended thinking takes no temperature or top_k, and top_p only from 0.95 up.
    request.thinking = thinking;
    if (typeof body.top_p === "number" && body.top_p >= MIN_TOP_P_WITH_THINKING) request.top_p = body.top_p;
  } else {
    if (typeof body.temperature === "number") request.temperature = Math.min(1, body.temperature);
    if (typeof body.top_p === "number") request.top_p = body.top_p;
    if (typeof body.top_k === "number") request.top_k = body.top_k;
  }
  if (body.stop) request.stop_sequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (body.stream === true) request.stream = true;
  if (typeof body.user === "string") request.metadata = { user_id: body.user };
  const tools = body.tools as
    { type?: string; function?: { name?: string; description?: string; parameters?: unknown } }[] | undefined;
  if (tools?.length) {
    request.tools = tools
      .filter((t) => t.function?.name)
      .map((t) => ({
        name: t.function!.name,
        ...(t.function!.description ? { description: t.function!.description } : {}),
        input_schema: t.function!.parameters ?? { type: "object", properties: {} },
      }));
  }
  const choice = toolChoice(body.tool_choice, body.parallel_tool_calls);
  if (choice && tools?.length) request.tool_choice = choice;
  return request;
}
