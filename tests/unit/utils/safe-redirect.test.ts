import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/safe-redirect";

const ORIGIN = "http://127.0.0.1:3000";

describe("item 13: redirect targets stay on this origin", () => {
  it("keeps same-origin paths with their query and fragment", () => {
    expect(safeRedirectPath("/token", ORIGIN)).toBe("/token");
    expect(safeRedirectPath("/log?p=2&type=2#top", ORIGIN)).toBe("/log?p=2&type=2#top");
    expect(safeRedirectPath("/channel/edit/3", ORIGIN, "/x")).toBe("/channel/edit/3");
  });

  it("refuses the tab trick and every other way off-site", () => {
    const offSite = [
      "/\t/127.0.0.1:18190/", // Chromium drops the tab: //127.0.0.1:18190/
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\v/evil.example",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\\\evil.example",
      "https://evil.example/",
      "http://127.0.0.1:3000/token", // absolute, even our own: not a path
      "javascript:alert(1)",
      " /token",
      "",
      "token",
    ];
    for (const value of offSite) expect(safeRedirectPath(value, ORIGIN, "/fallback"), JSON.stringify(value)).toBe("/fallback");
    expect(safeRedirectPath(null, ORIGIN, "/fallback")).toBe("/fallback");
    expect(safeRedirectPath(["/token"], ORIGIN, "/fallback")).toBe("/fallback");
  });
});
