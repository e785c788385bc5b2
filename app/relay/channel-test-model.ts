/**
 * The model a channel test asks for when neither the request nor the channel names one. The
 * test sends a one-token chat completion, so the channel's first model is a poor default: a new
 * OpenAI channel's list is alphabetical and starts with dall-e-3, which no chat endpoint serves.
 */

/** Cheap chat models that answer the test's request, tried in this order when the channel serves them. */
const PREFERRED_TEST_MODELS = ["gpt-4o-mini", "gpt-3.5-turbo"];

/** Models a chat completion cannot test: images, audio, speech, embeddings, moderation. */
const NOT_CHAT =
  /dall-e|image|audio|tts|whisper|embedding|moderation|realtime|transcribe|speech|midjourney|^mj_|^swap_face|^suno|^flux|stable-diffusion/i;

export function isChatModel(model: string): boolean {
  return !NOT_CHAT.test(model);
}

/** A preferred model the channel serves, else its first chat model, else its first model, else gpt-3.5-turbo. */
export function defaultTestModel(channelModels: string): string {
  const models = channelModels
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  return (
    PREFERRED_TEST_MODELS.find((m) => models.includes(m)) ?? models.find(isChatModel) ?? models[0] ?? "gpt-3.5-turbo"
  );
}
