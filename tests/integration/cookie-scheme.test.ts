import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type StartedServer } from "../support/server";

/**
 * The session cookie's Secure attribute follows the scheme the browser used. These run
 * their own production servers without the suite's INSECURE_COOKIES, one behind a trusted proxy.
 */
let direct: StartedServer;
let proxied: StartedServer;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    startServer({ kind: "pglite", env: { INSECURE_COOKIES: "", TRUST_PROXY: "" } }),
    startServer({ kind: "pglite", env: { INSECURE_COOKIES: "", TRUST_PROXY: "1" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

async function apiLogin(server: StartedServer, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ username: "root", password: "123456" }),
  });
  return { json: (await res.json()) as { success: boolean }, cookie: res.headers.get("set-cookie") ?? "" };
}

describe("sign-in over plain HTTP keeps its cookie", () => {
  it("over plain http the session cookie is not Secure, and the console sign-in reaches /token", async () => {
    const api = await apiLogin(direct);
    expect(api.json.success).toBe(true);
    expect(api.cookie).toMatch(/^session=/);
    expect(api.cookie).not.toMatch(/;\s*Secure/i);

    const form = await fetch(`${direct.baseUrl}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "root", password: "123456", redirectTo: "/log" }),
      redirect: "manual",
    });
    expect(form.status).toBe(302);
    const setCookie = form.headers.get("set-cookie") ?? "";
    expect(setCookie).not.toMatch(/;\s*Secure/i);
    const hop = await fetch(new URL(form.headers.get("location")!, direct.baseUrl), {
      headers: { Cookie: setCookie.split(";")[0]! },
      redirect: "manual",
    });
    expect(hop.headers.get("location")).toBe("/log");
  });

  it("X-Forwarded-Proto: https makes it Secure only behind a trusted proxy", async () => {
    expect((await apiLogin(proxied, { "X-Forwarded-Proto": "https" })).cookie).toMatch(/;\s*Secure/i);
    expect((await apiLogin(proxied)).cookie).not.toMatch(/;\s*Secure/i);
    expect((await apiLogin(direct, { "X-Forwarded-Proto": "https" })).cookie).not.toMatch(/;\s*Secure/i);
  });

  it("a browser that dropped the cookie is told so on the login page", async () => {
    const form = await fetch(`${proxied.baseUrl}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Proto": "https" },
      body: new URLSearchParams({ username: "root", password: "123456" }),
      redirect: "manual",
    });
    expect(form.headers.get("set-cookie")).toMatch(/;\s*Secure/i);
    // A plain-http browser does not keep a Secure cookie: it comes back without one.
    const page = await fetch(new URL(form.headers.get("location")!, proxied.baseUrl), { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("浏览器没有保存登录 Cookie");
  });
});
