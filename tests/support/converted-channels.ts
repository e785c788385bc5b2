import { loginRoot } from "./api";
import { createChannel, mergeOption, userWithToken } from "./relay";

type Upstream = { url: string; close: () => Promise<void> };

/** Two upstreams behind the converted surfaces' tests, with a user's key that reaches both. */
export type ConvertedChannels<U extends Upstream> = {
  /** Behind an OpenAI channel (type 1) serving `model`. */
  openai: U;
  /** Behind a custom OpenAI-compatible channel (type 8) serving `compatibleModel`. */
  compatible: U;
  key: string;
  /** Closes both upstreams. */
  close: () => Promise<void>;
};

/**
 * Starts two upstreams with `startUpstream`, prices both models, points a channel at each and
 * makes a user with a token: the setup shared by the tests of the Anthropic and Gemini surfaces
 * served by OpenAI channels. On failure it closes whatever upstream it had started.
 */
export async function setUpConvertedChannels<U extends Upstream>(
  startUpstream: () => Promise<U>,
  model: string,
  compatibleModel: string,
): Promise<ConvertedChannels<U>> {
  const started: U[] = [];
  const close = async () => {
    for (const upstream of started) await upstream.close();
  };
  try {
    const root = await loginRoot();
    const openai = await startUpstream();
    started.push(openai);
    const compatible = await startUpstream();
    started.push(compatible);
    await mergeOption(root, "ModelRatio", { [model]: 1, [compatibleModel]: 1 });
    await createChannel(root, { type: 1, base_url: openai.url, models: model });
    // Type 8: a custom OpenAI-compatible server (vLLM and the like), which takes top_k.
    await createChannel(root, { type: 8, base_url: compatible.url, models: compatibleModel });
    const { key } = await userWithToken(10_000_000);
    return { openai, compatible, key, close };
  } catch (error) {
    await close();
    throw error;
  }
}
