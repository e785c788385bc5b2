import { describe, expect, it } from "vitest";
import type { Channel } from "../../../db/schema";
import { CHANNEL_TYPE_TABLE } from "~/domain/channels/catalog-data";
import { testModelFor } from "~/relay/channel-test.server";
import { defaultTestModel } from "~/relay/channel-test-model";

const channel = (models: string, test_model: string | null = "") => ({ models, test_model }) as unknown as Channel;

describe("the channel test's model", () => {
  it("tests a new OpenAI channel (alphabetical defaults, dall-e-3 first) with a chat model, not dall-e-3", () => {
    const openai = CHANNEL_TYPE_TABLE.find((t) => t.type === 1)!;
    const models = [...openai.defaultModels].sort().join(",");
    expect(models.startsWith("dall-e-3")).toBe(true);
    expect(testModelFor(channel(models))).toBe("gpt-4o-mini");
    expect(testModelFor(channel(models, null))).toBe("gpt-4o-mini");
  });

  it("prefers gpt-4o-mini, then gpt-3.5-turbo, when the channel serves them", () => {
    expect(defaultTestModel("dall-e-3,gpt-3.5-turbo,gpt-4o,gpt-4o-mini")).toBe("gpt-4o-mini");
    expect(defaultTestModel("dall-e-3,gpt-3.5-turbo,gpt-4o")).toBe("gpt-3.5-turbo");
  });

  it("else takes the first model that is not an image, audio, embedding, moderation, tts or whisper model", () => {
    expect(
      defaultTestModel(
        "dall-e-3, text-embedding-3-small,tts-1,whisper-1,omni-moderation-latest,gpt-image-1,claude-3-haiku-20240307",
      ),
    ).toBe("claude-3-haiku-20240307");
    expect(defaultTestModel("text-embedding-004,gemini-2.5-flash")).toBe("gemini-2.5-flash");
  });

  it("else the first model, else gpt-3.5-turbo", () => {
    expect(defaultTestModel("dall-e-3,whisper-1")).toBe("dall-e-3");
    expect(defaultTestModel("")).toBe("gpt-3.5-turbo");
  });

  it("keeps an explicit ?model= and the channel's own test model first", () => {
    expect(testModelFor(channel("dall-e-3,gpt-4o-mini", "gpt-4o"), "o3-mini")).toBe("o3-mini");
    expect(testModelFor(channel("dall-e-3,gpt-4o-mini", " gpt-4o "))).toBe("gpt-4o");
  });
});
