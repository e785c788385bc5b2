import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * One cause, one status, on every surface: a call refused at admission gets the same HTTP status
 * and code on the OpenAI, Anthropic, Gemini, Responses and Realtime surfaces and on the
 * Midjourney and Suno task relays, each in its own wire shape (decision 033's table), and costs
 * nothing.
 */
let root: ApiSession;
const group = `lonely${Math.random().toString(36).slice(2, 7)}`;
const unrouted = uniqueModel("noch");
const unpriced = uniqueModel("nopr");

type Answer = { status: number; json: any };

async function post(path: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

/** The plain HTTP answer to a refused Realtime upgrade. */
function realtime(key: string, model: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl().replace(/^http/, "ws")}/v1/realtime?model=${encodeURIComponent(model)}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    ws.once("open", () => {
      ws.close();
      reject(new Error("upgraded"));
    });
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) }));
    });
    ws.once("error", reject);
  });
}

/** Every model surface asked for `model` with `key`; the code each shape carries, read out. */
async function everySurface(key: string, model: string): Promise<Record<string, { status: number; code: unknown }>> {
  const bearer = { Authorization: `Bearer ${key}` };
  const chat = await post("/v1/chat/completions", bearer, { model, messages: [{ role: "user", content: "hi" }] });
  const messages = await post(
    "/v1/messages",
    { "x-api-key": key, "anthropic-version": "2023-06-01" },
    { model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] },
  );
  const gemini = await post(
    `/v1beta/models/${model}:generateContent`,
    { "x-goog-api-key": key },
    { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
  );
  const responses = await post("/v1/responses", bearer, { model, input: "hi" });
  const socket = await realtime(key, model);
  return {
    chat: { status: chat.status, code: chat.json.error?.code },
    messages: { status: messages.status, code: messages.json.type === "error" ? messages.json.error?.type : undefined },
    gemini: { status: gemini.status, code: gemini.json.error?.code },
    responses: { status: responses.status, code: responses.json.error?.code },
    realtime: { status: socket.status, code: socket.json.error?.code },
  };
}

/** The same status on every surface, with the code each shape carries (Anthropic's error type is its own; Gemini's code is the status). */
function everywhere(status: number, code: string) {
  const openAi = { status, code };
  return {
    chat: openAi,
    messages: { status, code: expect.any(String) },
    gemini: { status, code: status },
    responses: openAi,
    realtime: openAi,
  };
}

beforeAll(async () => {
  root = await loginRoot();
  await mergeOption(root, "GroupRatio", { [group]: 1 });
  await mergeOption(root, "ModelRatio", { [unrouted]: 1 });
  await mergeOption(root, "ModelPrice", { mj_imagine: 0.1, suno_music: 0.1 });
  // The group's only channel serves the unpriced model; nothing serves the priced one.
  await createChannel(root, { type: 1, key: "sk-x", base_url: "http://127.0.0.1:9", models: unpriced, group });
}, 60_000);

async function payerInGroup() {
  const payer = await userWithToken(1_000_000);
  const moved = await root.call("PUT", "/api/user/", { id: payer.user.userId, group });
  expect(moved.json.success).toBe(true);
  return payer;
}

describe("admission refusals are the same on every surface", () => {
  it("no channel for the model in the group: 503 model_not_available everywhere, the task relays included; nothing charged", async () => {
    const { user, key } = await payerInGroup();
    const answers = await everySurface(key, unrouted);
    expect(answers).toEqual(everywhere(503, "model_not_available"));
    const mj = await post("/mj/submit/imagine", { Authorization: `Bearer ${key}` }, { prompt: "a cat" });
    expect(mj.status).toBe(503);
    expect(mj.json).toMatchObject({ code: 5, description: expect.stringContaining("无可用渠道") });
    const suno = await post("/suno/submit/music", { Authorization: `Bearer ${key}` }, { prompt: "a song" });
    expect(suno.status).toBe(503);
    expect(suno.json).toMatchObject({ code: "model_not_available" });
    expect((await quotaOf(user)).used_quota).toBe(0);
  });

  it("a model with no price: 400 model_price_error everywhere; nothing charged and no upstream asked", async () => {
    const { user, key } = await payerInGroup();
    const answers = await everySurface(key, unpriced);
    expect(answers).toEqual(everywhere(400, "model_price_error"));
    expect((await quotaOf(user)).used_quota).toBe(0);
  });
});
