/** Reads an OpenAI SSE reply from the playground endpoint, calling `onDelta` per content piece. */
export async function streamChat(userId: number, body: Record<string, unknown>, onDelta: (text: string) => void, signal?: AbortSignal): Promise<void> {
  const response = await fetch("/pg/chat/completions", {
    method: "POST",
    headers: { "Content-Type": "application/json", "New-Api-User": String(userId) },
    body: JSON.stringify({ ...body, stream: true }),
    signal,
  });
  if (!response.ok || !response.body) {
    const error = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new Error(error.error?.message ?? `HTTP ${response.status}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = event.split("\n").find((l) => l.startsWith("data: "))?.slice(6);
      if (!data || data === "[DONE]") continue;
      const chunk = JSON.parse(data) as { error?: { message?: string }; choices?: { delta?: { content?: string } }[] };
      if (chunk.error) throw new Error(chunk.error.message ?? "upstream error");
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) onDelta(text);
    }
  }
}
