import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, request, type ApiSession } from "../support/api";
import { startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

let root: ApiSession;
let upstream: MockUpstream;
const model = uniqueModel("pg");

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock();
  await mergeOption(root, "ModelRatio", { [model]: 1 });
  await createChannel(root, { base_url: upstream.url, models: model });
});
afterAll(async () => upstream.close());

describe("POST /pg/chat/completions", () => {
  it("streams for the signed-in user, bills the user's quota with no token", async () => {
    const { user } = await userWithToken(100_000);
    const res = await fetch(`${(await import("../support/api")).baseUrl()}/pg/chat/completions`, {
      method: "POST",
      headers: { Cookie: user.cookie, "New-Api-User": String(user.userId), "Content-Type": "application/json" },
      body: JSON.stringify({ model, group: "default", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    expect(text).toContain('"content":"Hi"');
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
    // (9 + 3×1) × 1 = 12
    expect((await quotaOf(user)).used_quota).toBe(12);
  });

  it("refuses access tokens, missing headers, unusable groups and a user without quota", async () => {
    const { user } = await userWithToken(0);
    const token = (await user.call("GET", "/api/user/token")).json.data as string;
    const viaToken = await request(
      "POST",
      "/pg/chat/completions",
      { model, messages: [{ role: "user", content: "hi" }] },
      { Authorization: token },
    );
    expect(viaToken.status).toBe(401);
    expect(viaToken.json.error.message).toContain("access token");
    const noHeader = await request(
      "POST",
      "/pg/chat/completions",
      { model, messages: [{ role: "user", content: "hi" }] },
      { Cookie: user.cookie },
    );
    expect(noHeader.status).toBe(401);
    const badGroup = await user.call("POST", "/pg/chat/completions", {
      model,
      group: "svip-nope",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(badGroup.status).toBe(403);
    const poor = await user.call("POST", "/pg/chat/completions", {
      model,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(poor.status).toBe(403);
    expect(poor.json.error.code).toBe("insufficient_user_quota");
  });
});

describe("POST /pg/chat/completions, the client leaving", () => {
  it("stops the call upstream when the page stops reading (its 停止)", async () => {
    const { user } = await userWithToken(100_000);
    const abortedBefore = upstream.aborted;
    upstream.fault = { kind: "slow-stream", gapMs: 1000 };
    try {
      const stop = new AbortController();
      const res = await fetch(`${baseUrl()}/pg/chat/completions`, {
        method: "POST",
        headers: { Cookie: user.cookie, "New-Api-User": String(user.userId), "Content-Type": "application/json" },
        body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hi" }] }),
        signal: stop.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      await reader.read();
      stop.abort();
      await expect.poll(() => upstream.aborted, { timeout: 5000 }).toBeGreaterThan(abortedBefore);
    } finally {
      upstream.fault = undefined;
    }
  });
});

/** The page's form posted as a browser without JavaScript posts it. */
async function postForm(cookie: string, fields: Record<string, string>) {
  const res = await fetch(`${baseUrl()}/playground`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, html: await res.text() };
}

/** The conversation the page shows, bubble by bubble. */
function bubbles(html: string): string[] {
  return [...html.matchAll(/<li[^>]*data-role="(user|assistant)"[^>]*>([^<]*)<\/li>/g)].map(
    ([, role, text]) => `${role}: ${text}`,
  );
}

describe("POST /playground without JavaScript", () => {
  it("runs the chat on the server with the conversation so far and answers with the page, the choices kept", async () => {
    const { user } = await userWithToken(100_000);
    const history = JSON.stringify([
      { role: "user", content: "first" },
      { role: "assistant", content: "one" },
    ]);
    const page = await postForm(user.cookie, {
      group: "default",
      model,
      temperature: "0.5",
      max_tokens: "64",
      system: "Be brief.",
      history,
      message: "second",
      intent: "send",
    });
    expect(page.status).toBe(200);
    expect(bubbles(page.html)).toEqual(["user: first", "assistant: one", "user: second", "assistant: Hello there."]);
    const asked = JSON.parse(upstream.requests.at(-1)!.body) as Record<string, unknown>;
    expect(asked).toMatchObject({
      model,
      stream: false,
      max_tokens: 64,
      temperature: 0.5,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "first" },
        { role: "assistant", content: "one" },
        { role: "user", content: "second" },
      ],
    });
    // The next post carries the whole conversation, and the side panel shows what was chosen.
    expect(page.html).toContain(`value="${model}" selected=""`);
    expect(page.html).toMatch(/name="max_tokens"[^>]*value="64"/);
    const carried = /name="history" value="([^"]*)"/.exec(page.html)![1]!.replaceAll("&quot;", '"');
    expect(JSON.parse(carried)).toHaveLength(4);
    expect((await quotaOf(user)).used_quota).toBeGreaterThan(0);
  });

  it("says what is wrong in the page for an empty message, bad numbers or a mangled history, without a call", async () => {
    const { user } = await userWithToken(100_000);
    const calls = upstream.requests.length;
    const base = {
      group: "default",
      model,
      temperature: "0.5",
      max_tokens: "0",
      system: "",
      history: "[]",
      message: "hi",
      intent: "send",
    };
    const cases: [Record<string, string>, string][] = [
      [{ message: "   " }, "请输入消息"],
      [{ temperature: "hot" }, "温度必须是 0 到 2 之间的数"],
      [{ max_tokens: "-1" }, "最大 Tokens 必须是 0 或正整数"],
      [{ history: "{not json" }, "对话记录无效，请清除上下文后重试"],
      [{ history: JSON.stringify([{ role: "system", content: "x" }]) }, "对话记录无效，请清除上下文后重试"],
    ];
    for (const [change, message] of cases) {
      const page = await postForm(user.cookie, { ...base, ...change });
      expect(page.status, JSON.stringify(change)).toBe(400);
      expect(page.html, JSON.stringify(change)).toContain(message);
    }
    expect(upstream.requests.length).toBe(calls);
  });

  it("clears the conversation", async () => {
    const { user } = await userWithToken(100_000);
    const page = await postForm(user.cookie, {
      history: JSON.stringify([{ role: "user", content: "first" }]),
      intent: "clear",
    });
    expect(page.status).toBe(200);
    expect(bubbles(page.html)).toEqual([]);
  });
});
