import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { writeFragmented } from "./fragmented-writer";

/** Gemini-format replies shared by the Gemini and Vertex mocks (the same bodies, other hosts and auth). */
export const geminiFixture = (name: string) =>
  readFileSync(new URL(`../fixtures/upstream/gemini/${name}`, import.meta.url), "utf8");

export function googleError(res: ServerResponse, status: number, message: string, code: string): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ error: { code: status, message, status: code } }));
}

type GenerateRequest = {
  contents?: { role?: string; parts?: Record<string, unknown>[] }[];
  tools?: unknown[];
  requests?: unknown[];
};

/** Answers `:generateContent`, `:streamGenerateContent?alt=sse` and `:batchEmbedContents` as Google does. */
export async function answerGemini(
  res: ServerResponse,
  method: string,
  query: URLSearchParams,
  body: string,
): Promise<void> {
  let request: GenerateRequest;
  try {
    request = JSON.parse(body) as GenerateRequest;
  } catch {
    return googleError(res, 400, "Invalid JSON payload received.", "INVALID_ARGUMENT");
  }
  if (method === "batchEmbedContents") {
    if (!Array.isArray(request.requests) || request.requests.length !== 2)
      return googleError(res, 400, "the mock answers two inputs", "INVALID_ARGUMENT");
    res.writeHead(200, { "Content-Type": "application/json" });
    return void res.end(geminiFixture("embed.json"));
  }
  if (!Array.isArray(request.contents) || request.contents.some((c) => c.role !== "user" && c.role !== "model")) {
    return googleError(res, 400, "Please use a valid role: user, model.", "INVALID_ARGUMENT");
  }
  const asked = JSON.stringify(request.contents);
  const blocked = asked.includes("forbidden topic");
  if (method === "streamGenerateContent") {
    if (query.get("alt") !== "sse") return googleError(res, 400, "the mock streams SSE only", "INVALID_ARGUMENT");
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    const sse = blocked
      ? `data: ${geminiFixture("generate-blocked.json").trim()}\n\n`
      : geminiFixture(request.tools ? "stream-tool.sse" : "stream-text.sse");
    return writeFragmented(res, sse);
  }
  if (method !== "generateContent") return googleError(res, 404, `Method ${method} not found`, "NOT_FOUND");
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(
    geminiFixture(blocked ? "generate-blocked.json" : request.tools ? "generate-tool.json" : "generate-text.json"),
  );
}
