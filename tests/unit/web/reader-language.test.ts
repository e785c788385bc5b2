import { data, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { answerInReadersLanguage } from "~/web/reader-language.server";

/** A build of one route whose loader and action run `run`. */
function buildOf(run: () => unknown): ServerBuild {
  const route = {
    id: "routes/x",
    parentId: "root",
    path: "x",
    index: undefined,
    caseSensitive: undefined,
    module: { default: () => null, loader: run, action: run },
  };
  return { routes: { "routes/x": route } } as unknown as ServerBuild;
}

const EN = { "Accept-Language": "en" };

async function run(
  result: () => unknown,
  url: string,
  kind: "loader" | "action",
  headers: Record<string, string> = EN,
): Promise<unknown> {
  const handler = answerInReadersLanguage(buildOf(result)).routes["routes/x"]!.module[kind]!;
  try {
    return await handler({ request: new Request(url, { headers }), params: {}, context: {} });
  } catch (thrown) {
    return thrown;
  }
}

describe("answers in the reader's language", () => {
  it("translates the /api envelope's message and keeps status and data", async () => {
    const res = (await run(
      () => Response.json({ success: false, message: "令牌不存在", data: { name: "我的令牌" } }, { status: 404 }),
      "http://x/api/token/9",
      "loader",
    )) as Response;
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      success: false,
      message: "The token does not exist",
      data: { name: "我的令牌" },
    });
  });

  it("passes a Chinese reader's answer through as the very same object", async () => {
    const original = Response.json({ success: false, message: "令牌不存在" });
    expect(await run(() => original, "http://x/api/token/9", "loader", { "Accept-Language": "zh-CN" })).toBe(original);
    expect(await run(() => original, "http://x/api/token/9", "loader", {})).toBe(original);
  });

  it("translates a thrown refusal too", async () => {
    const thrown = (await run(
      () => {
        throw Response.json({ success: false, message: "无权进行此操作，权限不足" }, { status: 403 });
      },
      "http://x/api/user/",
      "loader",
    )) as Response;
    expect(thrown.status).toBe(403);
    expect((await thrown.json()).message).toBe("You are not allowed to do this: insufficient permissions");
  });

  it("translates a console action's form errors but never what the reader typed", async () => {
    const reply = {
      status: "error",
      initialValue: { name: "令牌不存在" },
      error: { "": ["令牌不存在"], name: ["请输入名称"] },
    };
    const answered = (await run(() => data({ result: reply }, { status: 400 }), "http://x/token/add", "action")) as {
      data: unknown;
      init: { status: number };
    };
    expect(answered.init.status).toBe(400);
    expect(answered.data).toEqual({
      result: {
        status: "error",
        initialValue: { name: "令牌不存在" },
        error: { "": ["The token does not exist"], name: ["Please enter a name"] },
      },
    });
  });

  it("translates an action's notices of success (a code sent, nothing changed) but not the option key it asks to confirm", async () => {
    const answered = (await run(
      () =>
        data({
          intent: "email-code",
          email: "a@b.c",
          success: "验证码发送成功，请检查你的邮箱！",
          info: "你似乎并没有修改什么",
          confirm: "PasswordLoginEnabled",
        }),
      "http://x/setting",
      "action",
    )) as { data: unknown };
    expect(answered.data).toEqual({
      intent: "email-code",
      email: "a@b.c",
      success: "Verification code sent, please check your mailbox!",
      info: expect.not.stringMatching(/[\u4e00-\u9fff]/),
      confirm: "PasswordLoginEnabled",
    });
  });

  it("leaves a page loader's data to the pages", async () => {
    expect(await run(() => ({ title: "令牌不存在" }), "http://x/token", "loader")).toEqual({ title: "令牌不存在" });
  });
});

describe("what is not a message", () => {
  it("leaves a plain-text download alone and reads a plain-text refusal", async () => {
    const download = new Response("令牌不存在", { headers: { "Content-Type": "text/plain; charset=utf-8" } });
    expect(await run(() => download, "http://x/redemption/download", "loader")).toBe(download);
    const refusal = (await run(
      () => {
        throw new Response("无效的表单数据", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      },
      "http://x/token/add",
      "action",
    )) as Response;
    expect(await refusal.text()).toBe("Invalid form data");
  });
});
