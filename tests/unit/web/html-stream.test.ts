import { createElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { dropRenderPadding } from "~/web/html-stream.server";

/** Renders through React's streaming renderer into the transform and collects the bytes. */
function streamed(element: ReturnType<typeof createElement>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = dropRenderPadding();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    out.on("end", () => resolve(Buffer.concat(chunks)));
    out.on("error", reject);
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(out), onError: reject });
  });
}

describe("streamed HTML", () => {
  it("a Chinese character across React's 2 KB view boundary arrives whole, with no NUL before it", async () => {
    // Short text nodes go through React's 2 KB view (long ones bypass it); shifting the text by a
    // byte at a time puts a three-byte character across the view's end at some offset.
    const filler = Array.from({ length: 80 }, (_, i) => createElement("span", { key: i }, "abcdefghij"));
    for (let pad = 0; pad < 400; pad += 1) {
      const element = createElement(
        "div",
        null,
        ...filler,
        createElement("b", null, "a".repeat(pad)),
        createElement("i", null, "操练场"),
        createElement("i", null, "关键字"),
      );
      const bytes = await streamed(element);
      expect(bytes.includes(0), `pad ${pad}`).toBe(false);
      expect(bytes.toString("utf8")).toBe(renderToString(element));
    }
  });

  it("leaves chunks without padding as they are", async () => {
    const out = dropRenderPadding();
    const seen: Buffer[] = [];
    out.on("data", (c: Buffer) => seen.push(c));
    out.end(Buffer.from("<p>你好</p>"));
    await new Promise((r) => out.on("end", r));
    expect(Buffer.concat(seen).toString()).toBe("<p>你好</p>");
  });
});
