import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, fakeIp, loginRoot, request, type ApiSession } from "../support/api";

/**
 * Options that hold a link (rendered as an href or an image, or called by the server) take only
 * http(s) addresses, and a path of this site where one makes sense (a logo). A `javascript:`
 * link would run script on the console's origin for whoever clicks it.
 */
let root: ApiSession;
const saved = new Map<string, string>();

async function optionsOf(): Promise<Record<string, string>> {
  const res = await root.call("GET", "/api/option/");
  return Object.fromEntries((res.json.data as { key: string; value: string }[]).map((o) => [o.key, o.value]));
}

const LINK_OPTIONS = [
  "Logo",
  "WeChatAccountQRCodeImageURL",
  "TopUpLink",
  "ChatLink",
  "ChatLink2",
  "ServerAddress",
  "WorkerUrl",
  "PayAddress",
  "CustomCallbackAddress",
  "WeChatServerAddress",
];
const SITE_PATH_OPTIONS = ["Logo", "WeChatAccountQRCodeImageURL"];

const SCRIPT_LINKS = [
  "javascript:alert(document.cookie)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "javascript://%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//evil.example/x.png",
  "/\\evil.example/x.png",
  "ftp://files.example/",
];

beforeAll(async () => {
  root = await loginRoot();
  const now = await optionsOf();
  for (const key of [...LINK_OPTIONS, "Chats"]) saved.set(key, now[key] ?? "");
});

afterAll(async () => {
  // GET shows the effective ServerAddress; the default it shows for "unset" is put back as unset.
  for (const [key, value] of saved)
    await root.call("PUT", "/api/option/", {
      key,
      value: key === "ServerAddress" && /^http:\/\/localhost:\d+$/.test(value) ? "" : value,
    });
});

describe("link-valued options take only http(s) (or a site path where it makes sense)", () => {
  it("PUT /api/option/ refuses script and off-site links with a clear message, and stores nothing", async () => {
    const before = await optionsOf();
    for (const key of LINK_OPTIONS) {
      for (const value of SCRIPT_LINKS) {
        const res = await root.call("PUT", "/api/option/", { key, value });
        expect(res.json, `${key}=${JSON.stringify(value)}`).toMatchObject({
          success: false,
          message: expect.stringContaining("必须是 http(s) 地址"),
        });
      }
    }
    expect(await optionsOf()).toEqual(before);
  });

  it("accepts http(s) addresses everywhere, a path of this site only for images, and empty to unset", async () => {
    for (const key of LINK_OPTIONS) {
      const value = key === "ServerAddress" ? "https://gw.example.com" : "https://cdn.example.com/a?b=1";
      expect((await root.call("PUT", "/api/option/", { key, value })).json, key).toMatchObject({ success: true });
    }
    for (const key of SITE_PATH_OPTIONS) {
      expect((await root.call("PUT", "/api/option/", { key, value: "/brand/logo.png" })).json, key).toMatchObject({
        success: true,
      });
      expect((await root.call("PUT", "/api/option/", { key, value: "" })).json, key).toMatchObject({ success: true });
    }
    const path = await root.call("PUT", "/api/option/", { key: "TopUpLink", value: "/topup" });
    expect(path.json).toMatchObject({ success: false, message: expect.stringContaining("必须是 http(s) 地址") });
    // A chat link is a template: its {key} and {address} markers survive the check.
    const template = 'https://chat.example.com/#/?settings={"key":"{key}","url":"{address}"}';
    expect((await root.call("PUT", "/api/option/", { key: "ChatLink", value: template })).json).toMatchObject({
      success: true,
    });
    expect((await optionsOf()).ChatLink).toBe(template);
    const status = await request("GET", "/api/status");
    expect(status.json.data.chat_link).toBe(template);
  });

  it("a chat preset whose link would run script is refused; app links (ama://) stay allowed", async () => {
    const refused = await root.call("PUT", "/api/option/", {
      key: "Chats",
      value: JSON.stringify([{ 坏: "javascript:alert('{key}')" }]),
    });
    expect(refused.json).toMatchObject({ success: false, message: expect.stringContaining("坏") });
    const ok = await root.call("PUT", "/api/option/", {
      key: "Chats",
      value: JSON.stringify([
        { Web: "https://chat.example.com/?k={key}" },
        { AMA: "ama://set-api-key?server={address}&key={key}" },
      ]),
    });
    expect(ok.json).toMatchObject({ success: true });
  });

  it("the console's Logo form is held to the same rule", async () => {
    const before = (await optionsOf()).Logo;
    const res = await fetch(`${baseUrl()}/setting?tab=other`, {
      method: "POST",
      headers: {
        Cookie: root.cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-For": fakeIp(),
      },
      body: new URLSearchParams({ intent: "logo", Logo: "javascript:alert(1)" }),
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("必须是 http(s) 地址");
    expect((await optionsOf()).Logo).toBe(before);
  });
});
