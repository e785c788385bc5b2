import { describe, expect, it } from "vitest";
import { isAllowedLink } from "~/utils/safe-link";

describe("links an option may hold", () => {
  it("takes http(s) addresses, and a path of this site only where the option allows one", () => {
    for (const link of [
      "https://cdn.example.com/logo.png",
      "http://127.0.0.1:3000/x?y=1#z",
      "HTTPS://EXAMPLE.COM",
      'https://chat.example.com/#/?settings={"key":"{key}"}',
    ]) {
      expect(isAllowedLink(link), link).toBe(true);
      expect(isAllowedLink(link, true), link).toBe(true);
    }
    expect(isAllowedLink("/brand/logo.png", true)).toBe(true);
    expect(isAllowedLink("/brand/logo.png")).toBe(false);
  });

  it("refuses script, data and other schemes in every spelling, and paths that lead off-site", () => {
    for (const link of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "ftp://files.example/",
      "//evil.example/x.png",
      "/\\evil.example/x.png",
      "\\\\evil.example",
      "/ /evil.example",
      "/\t/evil.example",
      "logo.png",
      "",
    ]) {
      expect(isAllowedLink(link, true), JSON.stringify(link)).toBe(false);
    }
  });
});
