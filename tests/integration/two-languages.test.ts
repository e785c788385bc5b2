import { describe, expect, it } from "vitest";
import { baseUrl, fakeIp, loginRoot, newUser, request } from "../support/api";
import { userWithToken } from "../support/relay";

/**
 * The reader's language on the /api surface: English when the browser asks for it or the `lang`
 * cookie says so (the cookie winning), the product's exact Chinese otherwise.
 */
const EN = { "Accept-Language": "en-US,en;q=0.9" };
const ZH = { "Accept-Language": "zh-CN,zh;q=0.9" };

async function badLogin(headers: Record<string, string>) {
  return (await request("POST", "/api/user/login", { username: "nobody-here", password: "wrong-password" }, headers))
    .json;
}

describe("/api messages in the reader's language", () => {
  it("a failing sign-in: English by Accept-Language or by the lang cookie over a Chinese browser, else the exact Chinese", async () => {
    const english = { success: false, message: "Wrong username or password, or the user is banned" };
    expect(await badLogin(EN)).toMatchObject(english);
    expect(await badLogin({ ...ZH, Cookie: "lang=en" })).toMatchObject(english);
    expect(await badLogin({})).toMatchObject({ success: false, message: "用户名或密码错误，或用户已被封禁" });
    expect(await badLogin(ZH)).toMatchObject({ success: false, message: "用户名或密码错误，或用户已被封禁" });
    expect(await badLogin({ "Accept-Language": "en", Cookie: "lang=zh" })).toMatchObject({
      success: false,
      message: "用户名或密码错误，或用户已被封禁",
    });
  });

  it("a failing token create, with the value the message carries", async () => {
    const user = await newUser();
    const body = { name: "t", remain_quota: 1, expired_time: -1, allow_ips: "not-an-ip" };
    expect((await user.call("POST", "/api/token/", body, EN)).json).toEqual({
      success: false,
      message: "Malformed IP allow-list entry: not-an-ip",
    });
    expect((await user.call("POST", "/api/token/", body, { Cookie: `${user.cookie}; lang=en`, ...ZH })).json).toEqual({
      success: false,
      message: "Malformed IP allow-list entry: not-an-ip",
    });
    expect((await user.call("POST", "/api/token/", body)).json).toEqual({
      success: false,
      message: "IP 白名单格式错误：not-an-ip",
    });
    const badType = await user.call("POST", "/api/token/", { ...body, remain_quota: "lots" }, EN);
    expect(badType.status).toBe(400);
    expect(badType.json.message).toMatch(/^Invalid parameter: remain_quota: /);
  });

  it("a permission error", async () => {
    const user = await newUser();
    expect((await user.call("GET", "/api/user/", undefined, EN)).json).toEqual({
      success: false,
      message: "You are not allowed to do this: insufficient permissions",
    });
    expect((await user.call("GET", "/api/user/")).json).toEqual({
      success: false,
      message: "无权进行此操作，权限不足",
    });
    expect((await request("GET", "/api/user/self", undefined, EN)).json).toEqual({
      success: false,
      message: "You are not allowed to do this: not signed in and no access token given",
    });
  });

  it("a quota refusal with its amount", async () => {
    const user = await newUser();
    expect((await user.call("POST", "/api/user/aff_transfer", { quota: 1 }, EN)).json).toEqual({
      success: false,
      message: "The smallest transfer is $1.00",
    });
    expect((await user.call("POST", "/api/user/aff_transfer", { quota: 1 })).json).toEqual({
      success: false,
      message: "划转金额最低为 $1.00",
    });
  });

  it("log lines read in English for an English reader, the stored Chinese for everyone else", async () => {
    const root = await loginRoot();
    const user = await newUser();
    await root.call("PUT", "/api/user/", { id: user.userId, quota: 1234 });
    const path = `/api/log/?p=1&page_size=10&type=3&username=${user.username}`;
    const contents = async (headers: Record<string, string> = {}) =>
      ((await root.call("GET", path, undefined, headers)).json.data.items as { content: string }[]).map(
        (l) => l.content,
      );
    expect(await contents(EN)).toEqual(["An administrator changed the user's quota from 0 to 1234"]);
    expect(await contents()).toEqual(["管理员将用户额度从 0 修改为 1234"]);
  });
});

describe("the /lang switch", () => {
  const get = (query: string) =>
    fetch(`${baseUrl()}/lang?${query}`, { redirect: "manual", headers: { "X-Forwarded-For": fakeIp() } });

  it("keeps the choice in a year-long cookie and goes back to the page it came from", async () => {
    const res = await get("to=en&back=%2Ftoken%3Fp%3D2");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/token?p=2");
    expect(res.headers.get("Set-Cookie")).toBe("lang=en; Path=/; Max-Age=31536000; SameSite=Lax");
    const back = await get("to=zh&back=/");
    expect(back.headers.get("Set-Cookie")).toMatch(/^lang=zh;/);
  });

  it("refuses an off-site back and ignores an unknown language", async () => {
    for (const back of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "/%2F%2Fevil.example"]) {
      const res = await get(`to=en&back=${encodeURIComponent(back)}`);
      expect(res.headers.get("Location"), back).toBe("/");
    }
    const unknown = await get("to=fr&back=/token");
    expect(unknown.headers.get("Location")).toBe("/token");
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });

  it("switches from a form post on this site", async () => {
    const res = await fetch(`${baseUrl()}/lang`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl(), "X-Forwarded-For": fakeIp() },
      body: new URLSearchParams({ to: "en", back: "/log" }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/log");
    expect(res.headers.get("Set-Cookie")).toMatch(/^lang=en; Path=\/; Max-Age=31536000; SameSite=Lax/);
  });
});

describe("console form errors and notices in the reader's language", () => {
  const postLogin = (username: string, password: string, headers: Record<string, string>) =>
    fetch(`${baseUrl()}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": fakeIp(), ...headers },
      body: new URLSearchParams({ username, password }),
    });

  it("a refused sign-in form says why in English, and in the exact Chinese without a preference", async () => {
    const english = await (await postLogin("nobody-here", "wrong-password", EN)).text();
    expect(english).toContain("Wrong username or password, or the user is banned");
    expect(english).not.toContain("用户名或密码错误，或用户已被封禁");
    expect(await (await postLogin("nobody-here", "wrong-password", {})).text()).toContain(
      "用户名或密码错误，或用户已被封禁",
    );
  });

  it("the notice after a redirect is read in the reader's language", async () => {
    const user = await newUser();
    const signedIn = await postLogin(user.username, "password123", { Cookie: "lang=en" });
    expect(signedIn.status).toBe(302);
    // The sign-in redirects to a cookie check, which sets the notice and sends the reader on.
    const session = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const check = await fetch(new URL(signedIn.headers.get("Location") ?? "/", baseUrl()), {
      redirect: "manual",
      headers: { Cookie: `${session}; lang=en`, "X-Forwarded-For": fakeIp() },
    });
    const flash = check.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const page = await fetch(new URL(check.headers.get("Location") ?? "/", baseUrl()), {
      redirect: "manual",
      headers: { Cookie: `${session}; ${flash}; lang=en`, "X-Forwarded-For": fakeIp() },
    });
    const html = await page.text();
    expect(html).toContain("Signed in!");
    expect(html).not.toContain("登录成功！");
  });
});

describe("the relay's own refusals on /v1", () => {
  const chat = (headers: Record<string, string>) =>
    request(
      "POST",
      "/v1/chat/completions",
      { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
      { Authorization: `Bearer sk-${"x".repeat(48)}`, ...headers },
    );

  it("are read in the caller's language, in the OpenAI error shape", async () => {
    const english = await chat(EN);
    expect(english.status).toBe(401);
    expect(english.json.error).toMatchObject({ message: "Invalid token", type: "new_api_error" });
    expect((await chat({ Cookie: "lang=en" })).json.error.message).toBe("Invalid token");
    expect((await chat({})).json.error.message).toBe("无效的令牌");
  });

  it("keep the Anthropic and Gemini error shapes in English too", async () => {
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${baseUrl()}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Forwarded-For": fakeIp(), ...headers },
        body: "{}",
      });
    const anthropic = await post("/v1/messages", { "x-api-key": "sk-not-a-key", ...EN });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({
      type: "error",
      error: { type: "authentication_error", message: "Invalid token" },
    });
    const gemini = await post("/v1beta/models/gemini-pro:generateContent?key=sk-nope", EN);
    expect(gemini.status).toBe(401);
    expect(await gemini.json()).toMatchObject({
      error: { code: 401, status: "UNAUTHENTICATED", message: "Invalid token" },
    });
    expect(await (await post("/v1/messages", { "x-api-key": "sk-not-a-key" })).json()).toMatchObject({
      error: { message: "无效的令牌" },
    });
  });
});

describe("the task surfaces' refusals", () => {
  const send = (path: string, key: string, headers: Record<string, string>, body = "[1, 2]") =>
    fetch(`${baseUrl()}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        Authorization: `Bearer ${key}`,
        "X-Forwarded-For": fakeIp(),
        ...headers,
      },
      body,
    });

  it("keep the Midjourney and Suno envelopes, in the caller's language", async () => {
    const { key } = await userWithToken(0);
    const mj = await send("/mj/submit/imagine", key, EN);
    expect(mj.status).toBe(400);
    expect(await mj.json()).toMatchObject({
      code: 4,
      description: "invalid_request: The request body must be a JSON object",
      result: null,
    });
    const suno = await send("/suno/submit/music", key, { Cookie: "lang=en" });
    expect(suno.status).toBe(400);
    expect(await suno.json()).toMatchObject({
      code: "invalid_request",
      message: "The request body must be a JSON object",
      data: null,
    });
    expect(await (await send("/suno/submit/music", key, ZH)).json()).toMatchObject({
      message: "请求体必须是 JSON 对象",
    });
    const forged = await send("/mj/notify?channel=1&sig=forged", "", EN, "{}");
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: 4, description: "Invalid callback signature" });
  });
});
