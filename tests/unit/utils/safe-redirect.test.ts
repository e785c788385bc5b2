import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/safe-redirect";

const ORIGIN = "http://127.0.0.1:3000";

describe("redirect targets stay on this origin", () => {
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
    for (const value of offSite)
      expect(safeRedirectPath(value, ORIGIN, "/fallback"), JSON.stringify(value)).toBe("/fallback");
    expect(safeRedirectPath(null, ORIGIN, "/fallback")).toBe("/fallback");
    expect(safeRedirectPath(["/token"], ORIGIN, "/fallback")).toBe("/fallback");
  });
});

describe("a redirect target never becomes another host's address", () => {
  // Each of these resolves, once dot segments are removed or escapes decoded (by the browser, a
  // proxy or the router), to a path starting with two slashes: a protocol-relative URL.
  const hostile = [
    "/.//evil.example/x",
    "/./\t/evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E/%2Fevil.example",
    "/.%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%252F%252Fevil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/.%5Cevil.example",
    "/%09/evil.example",
    "/%0d%0a/evil.example",
    "/\\evil.example",
    "/.\\/evil.example",
    "///evil.example",
    "/%",
  ];

  it("falls back for every path that normalises or decodes to //host or /\\host", () => {
    for (const value of hostile)
      expect(safeRedirectPath(value, ORIGIN, "/fallback"), JSON.stringify(value)).toBe("/fallback");
  });

  it("never answers anything a browser would read as another origin", () => {
    for (const value of hostile) {
      const result = safeRedirectPath(value, ORIGIN, "/fallback");
      expect(result, JSON.stringify(value)).toMatch(/^\/(?![/\\])/);
      expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
    }
  });

  it("still keeps ordinary paths, with dot segments resolved and escapes in the query left alone", () => {
    expect(safeRedirectPath("/log/./detail", ORIGIN)).toBe("/log/detail");
    expect(safeRedirectPath("/a/../token", ORIGIN)).toBe("/token");
    expect(safeRedirectPath("/log?keyword=%2F%2Fx%5C", ORIGIN)).toBe("/log?keyword=%2F%2Fx%5C");
    expect(safeRedirectPath("/log?next=//evil.example", ORIGIN)).toBe("/log?next=//evil.example");
    expect(safeRedirectPath("/channel/edit/3#%2F%2F", ORIGIN)).toBe("/channel/edit/3#%2F%2F");
    expect(safeRedirectPath("/%E4%BB%A4%E7%89%8C", ORIGIN)).toBe("/%E4%BB%A4%E7%89%8C");
  });
});
