import { describe, expect, it } from "vitest";
import { sanitizeFooterHtml } from "~/utils/safe-html";

describe("footer HTML", () => {
  it("keeps the links, text formatting and entities operators put in a footer", () => {
    const html =
      '&copy; 2024 <a href="https://beian.miit.gov.cn/" target="_blank">京ICP备00000000号</a> · <strong>Gateway</strong><br/>';
    expect(sanitizeFooterHtml(html)).toBe(
      '&copy; 2024 <a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">京ICP备00000000号</a> · <strong>Gateway</strong><br>',
    );
  });

  it("drops script, event handlers, styles and unsafe URLs", () => {
    const out = sanitizeFooterHtml(
      `<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)" onclick="x()">a</a><a href="&#106;avascript:alert(4)">b</a><div style="position:fixed">c</div><iframe src="https://e.com"></iframe><svg onload=alert(5)>`,
    );
    expect(out).not.toMatch(/<script|onerror|onclick|javascript|style=|<iframe|<svg|&#106;/i);
    expect(out).toContain("alert(1)"); // only as text
    expect(out).toContain("<a>a</a>");
    expect(out).toContain("<div>c</div>");
  });

  it("escapes what is not a well-formed allowed tag", () => {
    // A malformed tag is shown as text, never half-parsed into an element.
    expect(sanitizeFooterHtml('<a href="https://x" title="a"b">x</a>')).toBe(
      '&lt;a href="https://x" title="a"b"&gt;x</a>',
    );
    expect(sanitizeFooterHtml("1 < 2 > 0 <b")).toBe("1 &lt; 2 &gt; 0 &lt;b");
    expect(sanitizeFooterHtml('<img src="https://x/a.png" alt="\\" onerror=1">')).toMatch(/^&lt;img/);
  });
});
