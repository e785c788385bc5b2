import { describe, expect, it } from "vitest";
import { chatFormSchema, HISTORY_LIMIT, readHistory } from "~/components/playground/chat-form";

describe("the playground form's history field", () => {
  it("keeps the last turns of a long conversation and only roles and text", () => {
    const long = Array.from({ length: HISTORY_LIMIT + 5 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `m${i}`,
      state: "complete",
    }));
    const kept = readHistory(JSON.stringify(long))!;
    expect(kept).toHaveLength(HISTORY_LIMIT);
    expect(kept[0]).toEqual({ role: "assistant", content: "m5" });
  });

  it("reads an empty field as no conversation and refuses anything but user and assistant turns", () => {
    expect(readHistory("")).toEqual([]);
    expect(readHistory("{")).toBeUndefined();
    expect(readHistory('{"role":"user"}')).toBeUndefined();
    expect(readHistory('[{"role":"system","content":"x"}]')).toBeUndefined();
    expect(readHistory('[{"role":"user","content":1}]')).toBeUndefined();
  });
});

describe("the playground form's numbers", () => {
  it("leaves empty numbers to the upstream and refuses what the controls cannot produce", () => {
    expect(chatFormSchema.parse({ temperature: "", max_tokens: "" })).toMatchObject({
      intent: "send",
      temperature: 0,
      max_tokens: 0,
      message: "",
    });
    expect(chatFormSchema.parse({ temperature: "0.7", max_tokens: "256", intent: "clear" })).toMatchObject({
      temperature: 0.7,
      max_tokens: 256,
      intent: "clear",
    });
    for (const bad of [
      { temperature: "3" },
      { temperature: "x" },
      { max_tokens: "1.5" },
      { max_tokens: "-2" },
      { max_tokens: "99999999999" },
    ]) {
      expect(chatFormSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
