import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MJ_IMAGE_BYTES, startMjProxy, type MjProxyMock } from "../mocks/mj-proxy";
import { startServer, type StartedServer } from "../support/server";
import { call, eventually, signIn, sleep, type Node } from "../support/standalone";
import { balances, isRefund, logsOf, payer, setOptionOn, taskChannel, type Payer } from "../support/tasks";

/**
 * Midjourney: submit through the gateway → billed once → polled (or called back) to
 * SUCCESS with the image behind the gateway; FAILURE, timeouts and refused submits give the
 * charge back to the user and the token, exactly once, however many pollers and callbacks race.
 */
const kind = inject("dbKind");
const PRICE = 0.1 * 500_000; // mj_imagine
const SECRET = "mj-secret-123";
let server: StartedServer;
let mock: MjProxyMock;
let root: Node;
let channelId: number;

beforeAll(async () => {
  // A task is IN_PROGRESS for two steps: 800 ms, against the gateway's poll every 300 ms, so a
  // poll lands inside it even on a loaded machine (at 150 ms a step, one late poll missed it).
  mock = await startMjProxy({ secret: SECRET, stepMs: 400 });
  server = await startServer({ kind, env: { TASK_POLL_INTERVAL_MS: "300", MJ_TASK_TIMEOUT_SECONDS: "4" } });
  root = await signIn(server.baseUrl);
  await setOptionOn(root, "ServerAddress", server.baseUrl);
  channelId = await taskChannel(root, {
    type: 2,
    base_url: mock.url,
    key: SECRET,
    models: "mj_imagine,mj_upscale,mj_variation,mj_describe",
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

function submit(
  p: Payer,
  body: Record<string, unknown>,
  path = "/mj/submit/imagine",
  headers: Record<string, string> = { "mj-api-secret": p.key },
) {
  return call(server.baseUrl, path, { method: "POST", headers, body });
}

async function fetchTask(p: Payer, id: string) {
  return (await call(server.baseUrl, `/mj/task/${id}/fetch`, { headers: { Authorization: `Bearer ${p.key}` } })).json;
}

async function finished(p: Payer, id: string, timeoutMs = 10_000) {
  let task: any;
  const done = await eventually(
    async () => {
      task = await fetchTask(p, id);
      return task?.progress === "100%";
    },
    timeoutMs,
    100,
  );
  expect(done, JSON.stringify(task)).toBe(true);
  return task;
}

describe("Midjourney relay", () => {
  it("imagine: billed once at submit, polled to SUCCESS, image served by the gateway, listed in /api/mj/self", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, { prompt: "a cat --fast", state: "order-42" });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ code: 1, description: "提交成功" });
    const id = reply.json.result as string;
    expect(mock.tasks.get(id)?.prompt).toBe("a cat --fast");
    // The channel key, not the client's, reached the proxy.
    expect(mock.requests.find((r) => r.path === "/mj/submit/imagine")?.headers["mj-api-secret"]).toBe(SECRET);
    expect(await balances(p)).toMatchObject({
      quota: 1_000_000 - PRICE,
      token: 600_000 - PRICE,
      used: PRICE,
      tokenUsed: PRICE,
    });

    // On its way: IN_PROGRESS with a progress figure short of 100%.
    expect(await eventually(async () => (await fetchTask(p, id))?.status === "IN_PROGRESS", 5_000, 50)).toBe(true);
    const task = await finished(p, id);
    expect(task).toMatchObject({
      id,
      action: "IMAGINE",
      status: "SUCCESS",
      progress: "100%",
      prompt: "a cat --fast",
      promptEn: "a cat --fast (en)",
      state: "order-42",
      failReason: "",
    });
    expect(task.imageUrl).toBe(`${server.baseUrl}/mj/image/${id}`);
    expect(task.buttons).toHaveLength(8);

    const image = await fetch(task.imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(MJ_IMAGE_BYTES)).toBe(true);

    const listed = (await call(server.baseUrl, "/api/mj/self?p=0", { headers: p.user.auth })).json;
    expect(listed.success).toBe(true);
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({
      mj_id: id,
      action: "IMAGINE",
      status: "SUCCESS",
      progress: "100%",
      code: 1,
      quota: PRICE,
      image_url: `${server.baseUrl}/mj/image/${id}`,
    });
    expect(listed.data[0]).not.toHaveProperty("token_id");
    // The admin list has it too (filtered by channel); the user's by task id.
    const admin = (await call(server.baseUrl, `/api/mj/?channel_id=${channelId}&mj_id=${id}`, { headers: root.auth }))
      .json;
    expect(admin.data.map((t: any) => t.mj_id)).toEqual([id]);
    expect((await call(server.baseUrl, "/api/mj/", { headers: p.user.auth })).json.success).toBe(false);

    // Later passes change nothing: billed exactly once, one usage log row.
    await sleep(800);
    expect(await balances(p)).toMatchObject({ quota: 1_000_000 - PRICE, token: 600_000 - PRICE });
    const logs = await logsOf(p);
    expect(logs.filter((l) => l.type === 2)).toEqual([
      expect.objectContaining({ model_name: "mj_imagine", quota: PRICE, token_name: "tasks" }),
    ]);
    expect(logs.filter(isRefund)).toHaveLength(0);

    // list-by-condition answers from the gateway's records.
    const batch = await call(server.baseUrl, "/mj/task/list-by-condition", {
      method: "POST",
      headers: { Authorization: `Bearer ${p.key}` },
      body: { ids: [id, "nope"] },
    });
    expect(batch.json.map((t: any) => t.id)).toEqual([id]);
    // Another user cannot read it.
    const other = await payer(root, 100_000, 100_000);
    expect(
      (await call(server.baseUrl, `/mj/task/${id}/fetch`, { headers: { "mj-api-secret": other.key } })).status,
    ).toBe(404);
  });

  it("a task that fails upstream refunds the user and the token exactly, with a log row of the charge and of the refund", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, { prompt: "please fail" });
    expect(reply.json.code).toBe(1);
    expect(await balances(p)).toMatchObject({ quota: 1_000_000 - PRICE, token: 600_000 - PRICE });
    const task = await finished(p, reply.json.result);
    expect(task).toMatchObject({ status: "FAILURE", failReason: "Banned prompt detected by Discord" });
    await sleep(900);
    expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
    const logs = await logsOf(p);
    expect(logs.filter((l) => l.type === 2)).toEqual([
      expect.objectContaining({ model_name: "mj_imagine", quota: PRICE }),
    ]);
    expect(logs.filter(isRefund)).toEqual([
      expect.objectContaining({
        model_name: "mj_imagine",
        quota: PRICE,
        content: expect.stringContaining(`构图失败 ${reply.json.result}`),
      }),
    ]);
  });

  it("a submit the proxy refuses (code 24) costs nothing and shows as failed", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, { prompt: "something banned" });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ code: 24, description: "可能包含敏感词" });
    expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
    const listed = (await call(server.baseUrl, "/api/mj/self", { headers: p.user.auth })).json.data;
    expect(listed[0]).toMatchObject({
      code: 24,
      status: "FAILURE",
      progress: "100%",
      quota: 0,
      fail_reason: "可能包含敏感词",
    });
    expect((await logsOf(p)).filter((l) => l.type === 2 || isRefund(l))).toHaveLength(0);
  });

  it("a queued submit (code 22) is shown to the client as 1 and billed", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, { prompt: "queued cat" });
    expect(reply.json).toMatchObject({ code: 1, properties: { numberOfQueues: 1 } });
    expect((await balances(p)).quota).toBe(1_000_000 - PRICE);
  });

  it("a task unfinished past the timeout fails and is refunded", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const reply = await submit(p, { prompt: "stuck forever" });
    expect(reply.json.code).toBe(1);
    const task = await finished(p, reply.json.result, 12_000);
    expect(task).toMatchObject({ status: "FAILURE", failReason: "上游任务超时（超过4秒）" });
    await sleep(700);
    expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
    expect((await logsOf(p)).filter(isRefund)).toHaveLength(1);
  }, 30_000);

  it("duplicate callbacks racing the poller refund once; a forged callback is refused", async () => {
    await setOptionOn(root, "MjNotifyEnabled", "true");
    mock.notifyRepeat = 3;
    try {
      const p = await payer(root, 1_000_000, 600_000);
      const replies = await Promise.all([1, 2, 3].map(() => submit(p, { prompt: "fail with callbacks" })));
      expect(replies.map((r) => r.json.code)).toEqual([1, 1, 1]);
      const ids = replies.map((r) => r.json.result as string);
      const hook = mock.requests.find(
        (r) => r.path === "/mj/submit/imagine" && r.body.includes("fail with callbacks"),
      )!;
      expect(JSON.parse(hook.body).notifyHook).toMatch(
        new RegExp(`^${server.baseUrl}/mj/notify\\?channel=${channelId}&sig=[0-9a-f]{32}$`),
      );
      for (const id of ids) await finished(p, id);
      expect(
        await eventually(
          () => mock.notified.filter((n) => ids.includes(n.task) && n.status === "FAILURE").length >= 9,
          5_000,
        ),
      ).toBe(true);
      expect(mock.notified.filter((n) => ids.includes(n.task)).every((n) => n.reply === 200)).toBe(true);
      await sleep(700);
      expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
      expect((await logsOf(p)).filter(isRefund)).toHaveLength(3);

      // A callback without the channel's signature changes nothing.
      const forged = await call(server.baseUrl, `/mj/notify?channel=${channelId}&sig=${"0".repeat(32)}`, {
        method: "POST",
        body: { id: ids[0], status: "FAILURE", failReason: "x" },
      });
      expect(forged.status).toBe(401);
      // As many characters as a real signature but more bytes (é is two in UTF-8): refused, not a 500.
      for (const sig of [`%C3%A9${"a".repeat(31)}`, `%E2%82%AC${"a".repeat(31)}`]) {
        const multibyte = await call(server.baseUrl, `/mj/notify?channel=${channelId}&sig=${sig}`, {
          method: "POST",
          body: { id: ids[0], status: "FAILURE", failReason: "x" },
        });
        expect(multibyte.status).toBe(401);
        expect(multibyte.json).toMatchObject({ code: 4 });
      }
    } finally {
      mock.notifyRepeat = 1;
      await setOptionOn(root, "MjNotifyEnabled", "false");
    }
  });

  it("actions on a task need it finished (MjActionCheckSuccessEnabled) and go to its channel at the action's price", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const parent = (await submit(p, { prompt: "a dog" })).json.result as string;
    const early = await submit(p, { taskId: parent, action: "UPSCALE", index: 1 }, "/mj/submit/change");
    expect(early.status).toBe(400);
    expect(early.json).toMatchObject({ code: 4, description: "task_status_not_success" });
    await finished(p, parent);
    const up = await submit(p, { content: `${parent} U2` }, "/mj/submit/simple-change");
    expect(up.json.code).toBe(1);
    const upscale = 0.05 * 500_000;
    expect((await balances(p)).quota).toBe(1_000_000 - PRICE - upscale);
    expect((await call(server.baseUrl, "/api/mj/self", { headers: p.user.auth })).json.data[0]).toMatchObject({
      action: "UPSCALE",
      mj_id: up.json.result,
      quota: upscale,
    });
    const unknown = await submit(p, { taskId: "no-such-task", action: "VARIATION", index: 1 }, "/mj/submit/change");
    expect(unknown.json).toMatchObject({ code: 4, description: "task_not_found" });
  });

  it("mode prefixes: /fast/mj/… goes to the proxy's mode path; MjModeClearEnabled drops the mode and the prompt's flags", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    const fast = await submit(p, { prompt: "mode cat" }, "/fast/mj/submit/imagine", {
      Authorization: `Bearer ${p.key}`,
    });
    expect(fast.json.code).toBe(1);
    expect(mock.requests.some((r) => r.path === "/mj-fast/mj/submit/imagine" && r.body.includes("mode cat"))).toBe(
      true,
    );
    await setOptionOn(root, "MjModeClearEnabled", "true");
    try {
      const cleared = await submit(p, { prompt: "clear cat --relax --v 6" }, "/mj-relax/mj/submit/imagine");
      expect(cleared.json.code).toBe(1);
      const seen = mock.requests.find((r) => r.body.includes("clear cat"))!;
      expect(seen.path).toBe("/mj/submit/imagine");
      expect(JSON.parse(seen.body).prompt).toBe("clear cat --v 6");
    } finally {
      await setOptionOn(root, "MjModeClearEnabled", "false");
    }
  });

  it("refuses bad keys, unknown routes and malformed bodies without charging", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    expect((await submit(p, { prompt: "x" }, "/mj/submit/imagine", { "mj-api-secret": "sk-wrong" })).status).toBe(401);
    expect((await submit(p, { prompt: "" })).json).toMatchObject({ code: 4 });
    expect((await submit(p, { prompt: "x" }, "/mj/submit/nothing")).status).toBe(404);
    const raw = await fetch(`${server.baseUrl}/mj/submit/imagine`, {
      method: "POST",
      headers: { "mj-api-secret": p.key, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(raw.status).toBe(400);
    expect((await call(server.baseUrl, "/mj/image/does-not-exist")).status).toBe(404);
    expect(await balances(p)).toEqual({ quota: 1_000_000, used: 0, token: 600_000, tokenUsed: 0 });
  });

  it("the image proxy refuses an image address in link-local space", async () => {
    const p = await payer(root, 1_000_000, 600_000);
    // The proxy (compromised, say) reports an image on the cloud metadata address.
    mock.imageBase = "http://169.254.169.254";
    try {
      const id = (await submit(p, { prompt: "metadata cat" })).json.result as string;
      const task = await finished(p, id);
      expect(task.imageUrl).toBe(`${server.baseUrl}/mj/image/${id}`);
      const image = await call(server.baseUrl, `/mj/image/${id}`);
      expect(image.status).toBe(502);
      expect(image.text).toContain("图片地址不被允许");
    } finally {
      mock.imageBase = undefined;
    }
  });
});

describe("two processes polling one database", () => {
  it.skipIf(kind !== "postgres")(
    "refund failed tasks once, whichever process sees the failure first",
    async () => {
      const proxy = await startMjProxy({ secret: SECRET, stepMs: 100 });
      // No Redis: each process polls on its own timer, so both poll the same tasks at once.
      // One deployment: the processes share the secrets channel keys are sealed with.
      const shared = {
        REDIS_URL: "",
        TASK_POLL_INTERVAL_MS: "100",
        CRYPTO_SECRET: "two-pollers-crypto-secret",
        SESSION_SECRET: "two-pollers-session-secret",
      };
      const first = await startServer({ kind: "postgres", env: shared });
      let second: StartedServer | undefined;
      try {
        const admin = await signIn(first.baseUrl);
        await taskChannel(admin, { type: 2, base_url: proxy.url, key: SECRET, models: "mj_imagine" });
        const p = await payer(admin, 2_000_000, 1_500_000);
        // Started after the channel exists: without Redis a process learns of channels at start.
        second = await startServer({
          kind: "postgres",
          env: shared,
          storage: { dataDir: `${first.dataDir}-second`, databaseUrl: first.databaseUrl },
        });
        const ids: string[] = [];
        for (let i = 0; i < 6; i += 1) {
          const base = i % 2 === 0 ? first.baseUrl : second.baseUrl;
          const reply = await call(base, "/mj/submit/imagine", {
            method: "POST",
            headers: { "mj-api-secret": p.key },
            body: { prompt: `race ${i} fail` },
          });
          expect(reply.json.code, `${base}: ${reply.text}`).toBe(1);
          ids.push(reply.json.result);
        }
        expect(
          await eventually(
            async () => {
              const rows = (await call(first.baseUrl, "/api/mj/self", { headers: p.user.auth })).json.data as {
                progress: string;
              }[];
              return rows.length === 6 && rows.every((r) => r.progress === "100%");
            },
            15_000,
            100,
          ),
        ).toBe(true);
        await sleep(600);
        expect(await balances(p)).toEqual({ quota: 2_000_000, used: 0, token: 1_500_000, tokenUsed: 0 });
        const refunds = (await logsOf(p)).filter(isRefund);
        expect(refunds).toHaveLength(6);
        expect(new Set(refunds.map((l) => l.content.split(" ")[1])).size).toBe(6);
        // Both processes really polled.
        const polls = proxy.requests.filter((r) => r.path === "/mj/task/list-by-condition").length;
        expect(polls).toBeGreaterThan(4);
      } finally {
        await second?.stop();
        rmSync(`${first.dataDir}-second`, { recursive: true, force: true });
        await first.stop();
        await proxy.close();
      }
    },
    120_000,
  );
});
