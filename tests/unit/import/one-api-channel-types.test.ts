import { describe, expect, it } from "vitest";
import { getChannelType } from "../../../app/domain/channels/catalog";
import { mapOneApiType, ONE_API_TYPE_NAMES } from "../../../app/import/steps/one-api-channel-types";
import { otherFromOneApiConfig } from "../../../app/import/steps/one-api-channel-config";

describe("one-api channel types in Switchyard's numbering", () => {
  it("every one-api type maps to a type Switchyard has, or to none (imported disabled)", () => {
    for (let type = 0; type <= 51; type++) {
      const mapping = mapOneApiType(type);
      if (mapping) expect(getChannelType(mapping.type), `one-api ${type} → ${mapping.type}`).toBeDefined();
    }
  });

  it("numbers that mean something else in one-api are mapped, not copied", () => {
    expect(mapOneApiType(2)).toMatchObject({ type: 1, baseUrl: "https://oa.api2d.net" }); // API2D, not Midjourney
    expect(mapOneApiType(4)?.type).toBe(1); // CloseAI, not Ollama
    expect(mapOneApiType(30)?.type).toBe(4); // Ollama
    expect(mapOneApiType(36)?.type).toBe(43); // DeepSeek, not Suno
    expect(mapOneApiType(42)?.type).toBe(41); // Vertex AI, not Mistral
    for (const none of [34, 38, 43, 46]) expect(mapOneApiType(none), ONE_API_TYPE_NAMES[none]).toBeUndefined();
  });

  it("one-api's config JSON becomes other, or the key where Switchyard keeps it", () => {
    expect(otherFromOneApiConfig(3, JSON.stringify({ api_version: "2024-02-01" }), "k")).toMatchObject({
      other: "2024-02-01",
    });
    expect(otherFromOneApiConfig(33, JSON.stringify({ ak: "AK", sk: "SK", region: "us-west-2" }), "")).toMatchObject({
      key: "AK|SK|us-west-2",
    });
    expect(
      otherFromOneApiConfig(
        41,
        JSON.stringify({ region: "us-central1", vertex_ai_adc: '{"type":"service_account"}' }),
        "",
      ),
    ).toMatchObject({ key: '{"type":"service_account"}', other: '{"default":"us-central1"}' });
    expect(otherFromOneApiConfig(1, "not json", "k").notes).toEqual(["config is not JSON: ignored"]);
  });
});
