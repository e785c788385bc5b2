import { describe, expect, it } from "vitest";
import { baseUrl, fakeIp } from "../support/api";

/** A plain HTML form post to a console route, as a browser without JavaScript sends it. */
function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(baseUrl() + path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": fakeIp(), ...headers },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

// Each one becomes //evil.example (another host) once the browser, a proxy or the router removes
// dot segments, decodes escapes or reads a backslash as a slash.
const HOSTILE = [
  "/.//evil.example/x",
  "/a/..//evil.example",
  "/%2e%2e//evil.example",
  "/.%2F%2Fevil.example",
  "/%2F%2Fevil.example",
  "/%252F%252Fevil.example",
  "/\\evil.example",
  "/%5Cevil.example",
  "/.%5C/evil.example",
  "//evil.example",
  "https://evil.example/",
];

describe("redirects built from a submitted redirectTo stay on this site", () => {
  it("the theme switch answers / for every hostile target, and the page itself for an ordinary one", async () => {
    for (const redirectTo of HOSTILE) {
      const res = await formPost("/theme", { theme: "dark", redirectTo });
      expect(res.status, redirectTo).toBe(302);
      expect(res.headers.get("location"), redirectTo).toBe("/");
    }
    const ordinary = await formPost("/theme", { theme: "light", redirectTo: "/log/./?p=2" });
    expect(ordinary.headers.get("location")).toBe("/log/?p=2");
  });

  it("sign-in never carries a hostile target, not even encoded in its cookie-check hop", async () => {
    for (const redirectTo of HOSTILE) {
      const res = await formPost("/login", { username: "root", password: "123456", redirectTo });
      expect(res.status, redirectTo).toBe(302);
      const location = res.headers.get("location") ?? "";
      expect(location.toLowerCase(), redirectTo).not.toContain("evil.example");
      const hop = new URL(location, baseUrl());
      expect(hop.origin, redirectTo).toBe(baseUrl());
      expect(hop.searchParams.get("redirectTo"), redirectTo).toBe("/token");
      const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
      const next = await fetch(hop, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(next.headers.get("location"), redirectTo).toBe("/token");
    }
  });

  it("a signed-in visit to /login?redirectTo=<hostile> goes to /token", async () => {
    const signIn = await formPost("/login", { username: "root", password: "123456" });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    for (const redirectTo of HOSTILE) {
      const res = await fetch(`${baseUrl()}/login?${new URLSearchParams({ redirectTo })}`, {
        headers: { Cookie: cookie },
        redirect: "manual",
      });
      expect(res.status, redirectTo).toBe(302);
      expect(res.headers.get("location"), redirectTo).toBe("/token");
    }
  });
});
