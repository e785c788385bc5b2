import { readAll, sendUpstream } from "../../upstream-client.server";
import { parseGoogleError } from "./errors";
import { GEMINI_DEFAULT_BASE, geminiApiVersion } from "./gemini-adapter";

export type GeminiModelsResult = { ok: true; value: string[] } | { ok: false; message: string };

const MAX_PAGES = 10;

/**
 * The models a Gemini key may call (`GET /{version}/models`, paged), as OpenAI-style ids
 * (`models/` stripped), sorted. Goes through the upstream client (SSRF guard, no redirects) with
 * the key in `x-goog-api-key`; the whole listing is bounded by `timeoutMs`.
 */
export async function fetchGeminiModels(input: { baseUrl: string; key: string; other: string; timeoutMs?: number; connectTimeoutMs?: number }): Promise<GeminiModelsResult> {
  const signal = AbortSignal.timeout(input.timeoutMs ?? 10_000);
  const names = new Set<string>();
  try {
    const root = `${(input.baseUrl || GEMINI_DEFAULT_BASE).replace(/\/+$/, "")}/${geminiApiVersion(input.other)}/models?pageSize=1000`;
    let pageToken = "";
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = pageToken ? `${root}&pageToken=${encodeURIComponent(pageToken)}` : root;
      const response = await sendUpstream(url, { method: "GET", headers: { "x-goog-api-key": input.key }, signal, connectTimeoutMs: input.connectTimeoutMs ?? 5_000 });
      const text = (await readAll(response)).toString("utf8");
      if (response.statusCode !== 200) return { ok: false, message: `获取模型列表失败：上游返回 ${response.statusCode}（${parseGoogleError(response.statusCode ?? 0, text).message}）` };
      const body = JSON.parse(text) as { models?: { name?: unknown }[]; nextPageToken?: unknown };
      for (const model of Array.isArray(body.models) ? body.models : []) {
        if (typeof model?.name === "string" && model.name) names.add(model.name.replace(/^models\//, ""));
      }
      if (typeof body.nextPageToken !== "string" || !body.nextPageToken) break;
      pageToken = body.nextPageToken;
    }
    return { ok: true, value: [...names].sort() };
  } catch (error) {
    return { ok: false, message: `获取模型列表失败：${(error as Error).message}` };
  }
}
