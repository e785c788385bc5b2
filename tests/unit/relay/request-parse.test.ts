import { describe, expect, it } from "vitest";
import { estimatePromptTokens } from "~/relay/request-parse";

describe("estimatePromptTokens (the hold taken before a call)", () => {
  it("counts the UTF-8 bytes of every text in the messages, at three bytes a token", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "be brief" },
        {
          role: "user",
          content: [
            { type: "text", text: "你好" },
            { type: "image_url", image_url: { url: "https://x/y.png" } },
          ],
        },
      ],
    };
    // "system" 6 + "be brief" 8 + "user" 4 + "text" 4 + "你好" 6 + "image_url" 9 + "https://x/y.png" 15 = 52 bytes
    expect(estimatePromptTokens(body)).toBe(Math.ceil(52 / 3));
  });

  it("reads prompt, input and documents when there are no messages, and numbers count nothing", () => {
    expect(estimatePromptTokens({ prompt: "abcdef" })).toBe(2);
    expect(estimatePromptTokens({ input: ["abc", "abc", 12345] })).toBe(2);
    expect(estimatePromptTokens({ query: "q", documents: ["d"] })).toBe(1);
    expect(estimatePromptTokens({ model: "m" })).toBe(0);
  });
});
