import { describe, expect, it } from "vitest";
import { isFrameUrl, renderMarkdown } from "~/utils/markdown.server";

describe("operator markdown", () => {
  it("renders markdown but never raw HTML", () => {
    const html = renderMarkdown("# Hi\n<script>alert(1)</script> [x](https://example.com)");
    expect(html).toContain("<h1>Hi</h1>");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain('href="https://example.com"');
  });

  it("refuses javascript: links", () => {
    expect(renderMarkdown("[x](javascript:alert(1))")).not.toContain('href="javascript');
  });

  it("treats a bare URL as a page to frame", () => {
    expect(isFrameUrl("https://docs.example.com/home")).toBe(true);
    expect(isFrameUrl("see https://docs.example.com")).toBe(false);
  });
});
