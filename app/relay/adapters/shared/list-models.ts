/** `{data:[{id}]}` (OpenAI's GET /v1/models) → sorted unique ids; anything else is no models. */
export function listOpenAiModels(raw: string): string[] {
  const body = JSON.parse(raw) as { data?: { id?: unknown }[] };
  const ids = (Array.isArray(body.data) ? body.data : [])
    .map((m) => m?.id)
    .filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 256);
  return [...new Set(ids)].sort();
}
