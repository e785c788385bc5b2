import { countTokens } from "gpt-tokenizer";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, loginRoot, type ApiSession } from "../support/api";
import { fixture, SPEECH_BYTES, startOpenAiMock, type MockUpstream } from "../mocks/openai-upstream";
import { createChannel, mergeOption, quotaOf, uniqueModel, userWithToken } from "../support/relay";

/**
 * The non-chat endpoints through the official client: images, audio (speech, transcriptions,
 * translations), moderations and rerank — relayed in their own wire formats and billed by what
 * each reply reports (or, when it reports nothing, by counting).
 */
let root: ApiSession;
let upstream: MockUpstream;
const models = {
  image: uniqueModel("img"),
  dalle2: uniqueModel("dall-e-2"),
  dalle3: uniqueModel("dall-e-3"),
  ratioDalle3: uniqueModel("dall-e-3"),
  ratioImage: uniqueModel("img-ratio"),
  whisper: uniqueModel("asr"),
  speech: uniqueModel("tts"),
  moderation: uniqueModel("mod"),
  rerank: uniqueModel("rr"),
};
const TRANSCRIPT = (JSON.parse(fixture("transcription.json")) as { text: string }).text;

beforeAll(async () => {
  root = await loginRoot();
  upstream = await startOpenAiMock({ apiKey: "sk-upstream" });
  await mergeOption(root, "ModelPrice", { [models.image]: 0.04, [models.dalle2]: 0.02, [models.dalle3]: 0.04 });
  await mergeOption(root, "ModelRatio", {
    [models.ratioDalle3]: 20,
    [models.ratioImage]: 5,
    [models.whisper]: 2,
    "gpt-4o-transcribe": 2,
    [models.speech]: 1,
    [models.moderation]: 1,
    [models.rerank]: 0.5,
  });
  await mergeOption(root, "CompletionRatio", { [models.whisper]: 1, "gpt-4o-transcribe": 3 });
  await createChannel(root, {
    base_url: upstream.url,
    models: [...Object.values(models), "gpt-4o-transcribe"].join(","),
  });
});
afterAll(async () => upstream.close());

const spent = async (user: ApiSession, start: number) => start - (await quotaOf(user)).quota;

/** Generates images and returns what each call cost the user (in quota, or in dollars given quota per dollar). */
function imageMeter(user: ApiSession, client: OpenAI, start: number, perUnit = 1) {
  let before = start;
  return async (request: Parameters<OpenAI["images"]["generate"]>[0]) => {
    await client.images.generate(request);
    const now = (await quotaOf(user)).quota;
    const cost = before - now;
    before = now;
    return cost / perUnit;
  };
}

describe("images, audio, moderations and rerank", () => {
  it("generates n images and charges the fixed price once per image", async () => {
    const { user, client } = await userWithToken(100_000);
    const images = await client.images.generate({ model: models.image, prompt: "a red boat", n: 2 });
    expect(images.data).toHaveLength(2);
    expect(images.data?.[0]?.url).toBe("https://files.example/img-1.png");
    expect(JSON.parse(upstream.requests.at(-1)!.body)).toMatchObject({
      model: models.image,
      prompt: "a red boat",
      n: 2,
    });
    expect(await spent(user, 100_000)).toBe(2 * 0.04 * 500_000);
  });

  it("prices DALL·E images by size and quality, as OpenAI does, from the standard 1024×1024 price", async () => {
    const { user, client } = await userWithToken(1_000_000);
    const charge = imageMeter(user, client, 1_000_000, 500_000);
    expect(await charge({ model: models.dalle3, prompt: "boat" })).toBeCloseTo(0.04, 6);
    expect(await charge({ model: models.dalle3, prompt: "boat", size: "1792x1024" })).toBeCloseTo(0.08, 6);
    expect(await charge({ model: models.dalle3, prompt: "boat", quality: "hd" })).toBeCloseTo(0.08, 6);
    expect(await charge({ model: models.dalle3, prompt: "boat", quality: "hd", size: "1024x1792", n: 2 })).toBeCloseTo(
      0.24,
      6,
    );
    expect(await charge({ model: models.dalle2, prompt: "boat", size: "256x256", n: 3 })).toBeCloseTo(0.048, 6);
    expect(await charge({ model: models.dalle2, prompt: "boat", size: "512x512" })).toBeCloseTo(0.018, 6);
    const logs = (await user.call("GET", "/api/log/self?type=2")).json.data.items as {
      quota: number;
      content: string;
      other: string;
    }[];
    expect(logs.map((l) => l.quota).reduce((a, b) => a + b, 0)).toBe(1_000_000 - (await quotaOf(user)).quota);
    // The log says why a call cost more than the listed price.
    const hd = logs.find((l) => l.quota === 0.24 * 500_000)!;
    expect(hd.content).toBe("模型价格 0.04，分组倍率 1，图片倍率 3");
    expect(JSON.parse(hd.other)).toMatchObject({ model_price: 0.04, image_ratio: 3 });
  });

  it("bills a ratio-priced image model that reports no usage as 1000 tokens per standard image, not as its prompt", async () => {
    const { user, client } = await userWithToken(1_000_000);
    const charge = imageMeter(user, client, 1_000_000);
    // Ratio 20: 20 000 quota ($0.04) for a standard dall-e-3 image, whatever the prompt's length.
    expect(await charge({ model: models.ratioDalle3, prompt: "a boat" })).toBe(20 * 1000);
    expect(
      await charge({ model: models.ratioDalle3, prompt: "a much longer prompt about a boat on a lake at dawn" }),
    ).toBe(20 * 1000);
    expect(await charge({ model: models.ratioDalle3, prompt: "boat", quality: "hd", size: "1792x1024", n: 2 })).toBe(
      2 * 3 * 20 * 1000,
    );
    expect(await charge({ model: models.ratioImage, prompt: "boat", n: 3 })).toBe(3 * 5 * 1000);
    const logs = (await user.call("GET", "/api/log/self?type=2")).json.data.items as {
      quota: number;
      prompt_tokens: number;
    }[];
    expect(logs.map((l) => l.quota).reduce((a, b) => a + b, 0)).toBe(1_000_000 - (await quotaOf(user)).quota);
  });

  it("relays a transcription upload intact and bills the transcript's tokens", async () => {
    const { user, client } = await userWithToken(100_000);
    const audio = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const transcript = await client.audio.transcriptions.create({
      model: models.whisper,
      file: await toFile(audio, "clip.mp3", { type: "audio/mpeg" }),
    });
    expect(transcript.text).toBe(TRANSCRIPT);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe("/v1/audio/transcriptions");
    expect(sent.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain('filename="clip.mp3"');
    expect(Number(sent.headers["content-length"])).toBeGreaterThan(audio.length);
    expect(await spent(user, 100_000)).toBe(countTokens(TRANSCRIPT) * 2);
  });

  it("bills a plain-text translation and a transcription that reports token usage", async () => {
    const { user, client } = await userWithToken(100_000);
    const text = await client.audio.translations.create({
      model: models.whisper,
      file: await toFile(Buffer.from("RIFF0000WAVE"), "clip.wav"),
      response_format: "text",
    });
    expect(String(text).trim()).toBe(TRANSCRIPT);
    expect(await spent(user, 100_000)).toBe(countTokens(`${TRANSCRIPT}\n`) * 2);

    const other = await userWithToken(100_000);
    await other.client.audio.transcriptions.create({
      model: "gpt-4o-transcribe",
      file: await toFile(Buffer.from("ID3"), "a.mp3"),
    });
    expect(await spent(other.user, 100_000)).toBe((14 + 13 * 3) * 2);
  });

  it("streams speech audio bytes back unchanged and bills each character of the input", async () => {
    const { user, client } = await userWithToken(100_000);
    const input = "Read this sentence aloud, please — 谢谢.";
    const speech = await client.audio.speech.create({ model: models.speech, voice: "alloy", input });
    expect(speech.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await speech.arrayBuffer()).equals(SPEECH_BYTES)).toBe(true);
    // Ratio 1: one quota unit per character (38 of them), as OpenAI prices speech per character.
    expect(await spent(user, 100_000)).toBe([...input].length);
    expect([...input].length).toBe(38);
  });

  it("relays moderations and bills the input's tokens", async () => {
    const { user, client } = await userWithToken(100_000);
    const input = "I want to check this text.";
    const result = await client.moderations.create({ model: models.moderation, input });
    expect(result.results[0]?.flagged).toBe(false);
    expect(result.results[0]?.categories["self-harm/intent"]).toBe(false);
    expect(await spent(user, 100_000)).toBe(countTokens(input));
  });

  it("relays rerank and bills the total_tokens it reports as input", async () => {
    const { user, key } = await userWithToken(100_000);
    const res = await fetch(`${baseUrl()}/v1/rerank`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: models.rerank, query: "boats", documents: ["a car", "a red boat"], top_n: 2 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { index: number; relevance_score: number }[] };
    expect(body.results.map((r) => r.index)).toEqual([1, 0]);
    expect(await spent(user, 100_000)).toBe(Math.round(38 * 0.5));
  });
});
