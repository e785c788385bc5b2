import { describe, expect, it } from "vitest";
import { langCookie, localeFromAcceptLanguage, requestLocale, resolveLocale } from "~/i18n/locale";

describe("the reader's language", () => {
  it("is Chinese when nothing says otherwise", () => {
    expect(resolveLocale({})).toBe("zh");
    expect(resolveLocale({ acceptLanguage: "fr-FR, de;q=0.8" })).toBe("zh");
    expect(resolveLocale({ cookie: "lang=xx", acceptLanguage: "" })).toBe("zh");
  });

  it("follows Accept-Language by q-value, the first of our languages winning", () => {
    expect(localeFromAcceptLanguage("en-US,en;q=0.9")).toBe("en");
    expect(localeFromAcceptLanguage("zh-CN,zh;q=0.9,en;q=0.8")).toBe("zh");
    expect(localeFromAcceptLanguage("fr;q=1, zh-TW;q=0.4, en-GB;q=0.7")).toBe("en");
    expect(localeFromAcceptLanguage("en;q=0, zh;q=0.1")).toBe("zh");
    expect(localeFromAcceptLanguage("EN")).toBe("en");
  });

  it("lets the lang cookie win over the browser's languages", () => {
    expect(resolveLocale({ cookie: "theme=dark; lang=en", acceptLanguage: "zh-CN" })).toBe("en");
    expect(resolveLocale({ cookie: "lang=zh", acceptLanguage: "en" })).toBe("zh");
    expect(requestLocale(new Request("http://x/", { headers: { Cookie: "lang=en", "Accept-Language": "zh" } }))).toBe(
      "en",
    );
  });

  it("keeps the choice a year, for the whole site, not sent cross-site", () => {
    expect(langCookie("en")).toBe("lang=en; Path=/; Max-Age=31536000; SameSite=Lax");
  });
});
