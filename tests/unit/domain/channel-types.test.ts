import { describe, expect, it } from "vitest";
import { CHANNEL_TYPE_TABLE } from "~/domain/channels/catalog-data";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

describe("channel type names", () => {
  it("name every type of the catalogue, and only those", () => {
    const named = Object.values(CHANNEL_TYPE).sort((a, b) => a - b);
    const catalogued = CHANNEL_TYPE_TABLE.map((t) => t.type).sort((a, b) => a - b);
    expect(named).toEqual(catalogued);
  });

  it("keep the reference's numbers for the types the relay treats specially", () => {
    expect(CHANNEL_TYPE_TABLE.find((t) => t.type === CHANNEL_TYPE.anthropic)?.name).toBe("Anthropic Claude");
    expect(CHANNEL_TYPE_TABLE.find((t) => t.type === CHANNEL_TYPE.gemini)?.name).toBe("Google Gemini");
    expect(CHANNEL_TYPE_TABLE.find((t) => t.type === CHANNEL_TYPE.vertexAi)?.name).toBe("Vertex AI");
    expect(CHANNEL_TYPE_TABLE.find((t) => t.type === CHANNEL_TYPE.custom)?.name).toBe("自定义渠道");
  });
});
