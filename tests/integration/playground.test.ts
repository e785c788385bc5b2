import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRoot, request, type ApiSession } from "../support/api";
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
    const viaToken = await request("POST", "/pg/chat/completions", { model, messages: [{ role: "user", content: "hi" }] }, { Authorization: token });
    expect(viaToken.status).toBe(401);
    expect(viaToken.json.error.message).toContain("access token");
    const noHeader = await request("POST", "/pg/chat/completions", { model, messages: [{ role: "user", content: "hi" }] }, { Cookie: user.cookie });
    expect(noHeader.status).toBe(401);
    const badGroup = await user.call("POST", "/pg/chat/completions", { model, group: "svip-nope", messages: [{ role: "user", content: "hi" }] });
    expect(badGroup.status).toBe(403);
    const poor = await user.call("POST", "/pg/chat/completions", { model, messages: [{ role: "user", content: "hi" }] });
    expect(poor.status).toBe(403);
    expect(poor.json.error.code).toBe("insufficient_user_quota");
  });
});
