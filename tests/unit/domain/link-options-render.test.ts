import { describe, expect, it, vi } from "vitest";
import type { User } from "../../../db/schema";

// The options table as an operator left it before link options were checked.
const storedRows = [
  { key: "Logo", value: "javascript:alert(document.cookie)" },
  { key: "TopUpLink", value: "JaVaScRiPt:alert(1)" },
  { key: "SystemName", value: "My Gateway" },
];

let onBroadcast: ((message: string) => void) | undefined;
vi.mock("~/utils/db.server", () => ({
  getDb: async () => ({ selectFrom: () => ({ select: () => ({ execute: async () => storedRows }) }) }),
}));
vi.mock("~/utils/redis.server", () => ({
  subscribe: async (_channel: string, handler: (message: string) => void) => {
    onBroadcast = handler;
  },
  publish: async () => undefined,
  onResubscribed: () => undefined,
}));

/** What another node sends when it saved an option: one running code from before the check sends anything. */
function broadcast(key: string, value: string) {
  onBroadcast!(JSON.stringify({ key, value }));
}

describe("a stored script link never reaches a page", () => {
  it("values saved before the check are not served; the status, wallet and sign-in page drop ones broadcast by an older node", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { loadOptions, options } = await import("~/domain/options/store.server");
    const { buildPublicStatus } = await import("~/domain/site/status.server");
    const { walletSummary } = await import("~/domain/wallet/wallet.server");
    const { thirdPartyMethods } = await import("~/web/oauth.server");
    await loadOptions();
    expect(buildPublicStatus()).toMatchObject({ logo: "", top_up_link: "", system_name: "My Gateway" });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("Logo"));
    warn.mockRestore();

    broadcast("Logo", "javascript:alert(1)");
    broadcast("WeChatAccountQRCodeImageURL", " javascript:alert(1)");
    broadcast("TopUpLink", "java\tscript:alert(1)");
    broadcast("ChatLink", "javascript:alert('{key}')");
    broadcast("ChatLink2", "data:text/html,<script>alert(1)</script>");
    broadcast(
      "Chats",
      JSON.stringify([
        { 坏: "javascript:alert('{key}')" },
        { 好: "https://chat.example.com/?k={key}", 也坏: "vbscript:x" },
      ]),
    );
    expect(options.string("Logo")).toBe("javascript:alert(1)"); // stored as sent: the rendering side is what refuses it
    const status = buildPublicStatus();
    expect(status).toMatchObject({ logo: "", wechat_qrcode: "", top_up_link: "", chat_link: "", chat_link2: "" });
    expect(status.chats).toEqual([{ 好: "https://chat.example.com/?k={key}" }]);
    expect(walletSummary({ quota: 0, used_quota: 0, request_count: 0 } as User).topUpLink).toBeUndefined();
    broadcast("WeChatAuthEnabled", "true");
    expect(thirdPartyMethods().wechat).toEqual({ qrCode: "" });

    // What the options accept is served as it is.
    broadcast("Logo", "/brand/logo.png");
    broadcast("TopUpLink", "https://shop.example.com/buy");
    expect(buildPublicStatus()).toMatchObject({ logo: "/brand/logo.png", top_up_link: "https://shop.example.com/buy" });
    expect(walletSummary({ quota: 0, used_quota: 0, request_count: 0 } as User).topUpLink).toBe(
      "https://shop.example.com/buy",
    );
  });
});
