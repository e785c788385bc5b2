import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSunoApi, type SunoApiMock } from "../mocks/suno-api";
import { startServer, type StartedServer } from "../support/server";
import { call, eventually, signIn, sleep, type Node } from "../support/standalone";
import { balances, isRefund, logsOf, payer, taskChannel, type Payer } from "../support/tasks";

/**
 * Suno: `/suno/submit/:action` billed at the action's fixed price, polled through the
 * API's `POST /suno/fetch` until SUCCESS (clips kept) or FAILURE (refunded to the user and the
 * token exactly once), listed in /api/task/self.
 */
const kind = inject("dbKind");
const MUSIC = 0.1 * 500_000;
const LYRICS = 0.01 * 500_000;
const KEY = "suno-key-456";
let server: StartedServer;
let mock: SunoApiMock;
let root: Node;
let channelId: number;

beforeAll(async () => {
  mock = await startSunoApi({ key: KEY, stepMs: 150 });
  server = await startServer({ kind, env: { TASK_POLL_INTERVAL_MS: "300" } });
  root = await signIn(server.baseUrl);
  channelId = await taskChannel(root, { type: 36, base_url: mock.url, key: KEY, models: "suno_music,suno_lyrics" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

const submit = (p: Payer, action: string, body: unknown) =>
  call(server.baseUrl, `/suno/submit/${action}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${p.key}` },
    body,
  });

async function finished(p: Payer, id: string) {
  let task: any;
  const done = await eventually(
    async () => {
      task = (await call(server.baseUrl, `/suno/fetch/${id}`, { headers: { Authorization: `Bearer ${p.key}` } })).json
        ?.data;
      return task?.progress === "100%";
    },
    10_000,
    100,
  );
  expect(done, JSON.stringify(task)).toBe(true);
  return task;
}

describe("Suno relay", () => {
  it("music: billed once, polled to SUCCESS with its clips, listed in /api/task/self and /api/task/", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, "music", {
      gpt_description_prompt: "a calm piano song about rain",
      make_instrumental: false,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ code: "success", data: expect.any(String) });
    const id = reply.json.data as string;
    // Sent upper-cased with the channel key, mv defaulted.
    const sent = mock.requests.find((r) => r.path === "/suno/submit/MUSIC")!;
    expect(sent.auth).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(sent.body)).toMatchObject({
      mv: "chirp-v3-0",
      gpt_description_prompt: "a calm piano song about rain",
    });
    expect(await balances(p)).toMatchObject({ quota: 1_000_000 - MUSIC, token: 600_000 - MUSIC });

    const task = await finished(p, id);
    expect(task).toMatchObject({ task_id: id, action: "MUSIC", status: "SUCCESS", fail_reason: "" });
    expect(task.data).toHaveLength(2);
    expect(task.data[0].audio_url).toMatch(/\.mp3$/);
    const batch = await call(server.baseUrl, "/suno/fetch", {
      method: "POST",
      headers: { Authorization: `Bearer ${p.key}` },
      body: { ids: [id] },
    });
    expect(batch.json).toMatchObject({ code: "success", data: [{ task_id: id, status: "SUCCESS" }] });

    const listed = (await call(server.baseUrl, "/api/task/self?p=0", { headers: p.user.auth })).json;
    expect(listed.data).toEqual([
      expect.objectContaining({
        task_id: id,
        platform: "suno",
        action: "MUSIC",
        status: "SUCCESS",
        progress: "100%",
        quota: MUSIC,
        channel_id: channelId,
      }),
    ]);
    expect(listed.data[0].properties).toEqual({ input: "a calm piano song about rain" });
    const admin = (
      await call(server.baseUrl, `/api/task/?task_id=${id}&channel_id=${channelId}`, { headers: root.auth })
    ).json;
    expect(admin.data.map((t: any) => t.task_id)).toEqual([id]);
    expect((await call(server.baseUrl, "/api/task/", { headers: p.user.auth })).json.success).toBe(false);

    await sleep(700);
    expect(await balances(p)).toMatchObject({ quota: 1_000_000 - MUSIC, token: 600_000 - MUSIC });
    expect((await logsOf(p)).filter((l) => l.type === 2)).toEqual([
      expect.objectContaining({ model_name: "suno_music", quota: MUSIC }),
    ]);
  });

  it("a failed task is refunded to the user and the token exactly once, with both log rows", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, "LYRICS", { prompt: "this should fail" });
    expect(reply.json.code).toBe("success");
    expect(await balances(p)).toMatchObject({ quota: 1_000_000 - LYRICS, token: 600_000 - LYRICS });
    const task = await finished(p, reply.json.data);
    expect(task).toMatchObject({ status: "FAILURE", fail_reason: "Unable to generate: content moderation" });
    await sleep(900);
    expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
    const logs = await logsOf(p);
    expect(logs.filter((l) => l.type === 2)).toEqual([
      expect.objectContaining({ model_name: "suno_lyrics", quota: LYRICS }),
    ]);
    expect(logs.filter(isRefund)).toEqual([
      expect.objectContaining({
        model_name: "suno_lyrics",
        quota: LYRICS,
        content: expect.stringContaining(`异步任务执行失败 ${reply.json.data}`),
      }),
    ]);
  });

  it("refuses what the API would refuse, and unknown actions, without charging", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const empty = await submit(p, "lyrics", { prompt: "" });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ code: "prompt_empty", data: null });
    expect((await submit(p, "video", { prompt: "x" })).status).toBe(404);
    const orphan = await submit(p, "music", { prompt: "x", continue_clip_id: "clip-1" });
    expect(orphan.status).toBe(400);
    expect(
      (await call(server.baseUrl, "/suno/fetch/none", { headers: { Authorization: `Bearer ${p.key}` } })).status,
    ).toBe(404);
    expect((await call(server.baseUrl, "/suno/submit/music", { method: "POST", body: { prompt: "x" } })).status).toBe(
      401,
    );
    expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
  });

  it("a user without enough quota is refused before the upstream is asked", async () => {
    const p = await payer(root, MUSIC - 1, 600_000);
    const before = mock.requests.length;
    const reply = await submit(p, "music", { prompt: "x" });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: "insufficient_user_quota", message: "用户额度不足" });
    expect(mock.requests.length).toBe(before);
  });

  it("another user's tasks are not visible", async () => {
    const owner = await payer(root, 1_000_000, 600_000);
    const id = (await submit(owner, "lyrics", { prompt: "mine" })).json.data as string;
    const other = await payer(root, 1_000_000, 600_000);
    expect(
      (await call(server.baseUrl, `/suno/fetch/${id}`, { headers: { Authorization: `Bearer ${other.key}` } })).status,
    ).toBe(404);
    expect((await call(server.baseUrl, "/api/task/self", { headers: other.user.auth })).json.data).toEqual([]);
  });
});
