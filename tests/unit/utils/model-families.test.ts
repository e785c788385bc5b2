import { describe, expect, it } from "vitest";
import { groupModels, modelFamily } from "~/utils/model-families";

describe("model families for the model picker", () => {
  it("knows the makers of common model names, routed names by their last part", () => {
    expect(modelFamily("gpt-4o-mini")).toBe("OpenAI");
    expect(modelFamily("o3-mini")).toBe("OpenAI");
    expect(modelFamily("text-embedding-3-small")).toBe("OpenAI");
    expect(modelFamily("claude-3-5-sonnet-20241022")).toBe("Claude");
    expect(modelFamily("gemini-1.5-pro")).toBe("Gemini");
    expect(modelFamily("@cf/meta/llama-3.1-8b-instruct")).toBe("Llama");
    expect(modelFamily("openai/gpt-4o")).toBe("OpenAI");
    expect(modelFamily("qwen2.5:7b")).toBe("Qwen");
    expect(modelFamily("my-own-model")).toBe("其他");
  });

  it("groups in a fixed family order, 其他 last, each group keeping the list's order", () => {
    const groups = groupModels(["my-model", "qwen2.5:7b", "gpt-4o", "llama3.2:latest", "gpt-3.5-turbo"]);
    expect(groups).toEqual([
      { family: "OpenAI", models: ["gpt-4o", "gpt-3.5-turbo"] },
      { family: "Llama", models: ["llama3.2:latest"] },
      { family: "Qwen", models: ["qwen2.5:7b"] },
      { family: "其他", models: ["my-model"] },
    ]);
  });
});
