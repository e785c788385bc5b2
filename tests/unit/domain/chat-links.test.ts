import { describe, expect, it } from "vitest";
import { chatLinkKind, chatLinkTemplate, fillChatLink, lookupChatTemplate } from "~/domain/chats/chat-links";

describe("chat links", () => {
  it("picks a preset by index, ChatLink for /chat, and the first preset when ChatLink is unset", () => {
    const chats = [{ A: "https://a.example/{key}" }, { B: "https://b.example/{key}" }];
    expect(lookupChatTemplate(chats, "", 1)).toEqual({
      ok: true,
      preset: { name: "B", template: "https://b.example/{key}" },
    });
    expect(lookupChatTemplate(chats, "", undefined)).toMatchObject({ ok: true, preset: { name: "A" } });
    expect(lookupChatTemplate(chats, "https://next.example", undefined)).toMatchObject({
      ok: true,
      preset: { template: 'https://next.example/#/?settings={"key":"{key}","url":"{address}"}' },
    });
    expect(lookupChatTemplate(chats, "", 2)).toEqual({ ok: false, reason: "not-found" });
  });

  it("tells a missing configuration from a broken one", () => {
    expect(lookupChatTemplate([], "", 0)).toEqual({ ok: false, reason: "missing" });
    expect(lookupChatTemplate([1], "", 0)).toEqual({ ok: false, reason: "invalid" });
    expect(lookupChatTemplate({ A: "x" }, "", 0)).toEqual({ ok: false, reason: "invalid" });
    expect(lookupChatTemplate([{ A: 3 }], "", 0)).toEqual({ ok: false, reason: "invalid" });
  });

  it("keeps a ChatLink that has its own markers as it is", () => {
    expect(chatLinkTemplate("https://c.example/?k={key}")).toBe("https://c.example/?k={key}");
    expect(fillChatLink(chatLinkTemplate("https://c.example/"), "sk-1", "https://gw.example")).toBe(
      'https://c.example/#/?settings={"key":"sk-1","url":"https%3A%2F%2Fgw.example"}',
    );
  });

  it("frames web pages, links app schemes and refuses script schemes", () => {
    expect(chatLinkKind("https://chat.example/#/x")).toBe("frame");
    expect(chatLinkKind("opencat://team/join?token=sk-1")).toBe("app");
    expect(chatLinkKind("JavaScript:alert(1)")).toBe("refused");
    expect(chatLinkKind("data:text/html,hi")).toBe("refused");
    expect(chatLinkKind("not a url")).toBe("refused");
  });
});
