import { getChannelType } from "~/domain/channels/catalog";
import { aliAdapter } from "./ali/ali-adapter";
import { anthropicAdapter } from "./anthropic/anthropic-adapter";
import { awsAdapter } from "./aws/aws-adapter";
import { azureAdapter } from "./azure/azure-adapter";
import { baiduAdapter } from "./baidu/baidu-adapter";
import { sparkAdapter } from "./spark/spark-adapter";
import { hunyuanAdapter } from "./tencent/hunyuan-adapter";
import { zhipuV3Adapter, zhipuV4Adapter } from "./zhipu/zhipu-adapter";
import { geminiAdapter } from "./gemini/gemini-adapter";
import { createOpenAiAdapter } from "./openai/openai-adapter";
import { palmAdapter } from "./palm/palm-adapter";
import { cloudflareAdapter } from "./cloudflare/cloudflare-adapter";
import { cohereAdapter } from "./cohere/cohere-adapter";
import { difyAdapter } from "./dify/dify-adapter";
import { jinaAdapter } from "./jina/jina-adapter";
import { minimaxAdapter } from "./minimax/minimax-adapter";
import { ollamaAdapter } from "./ollama/ollama-adapter";
import { COMPATIBLE_ADAPTERS } from "./openai-compatible/compatible-types";
import { siliconCloudAdapter } from "./siliconcloud/siliconcloud-adapter";
import type { Adapter } from "./types";
import { vertexAdapter } from "./vertex/vertex-adapter";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/**
 * Channel type → adapter. Providers with their own protocol register here; every other type
 * speaks the OpenAI wire through the shared base with its catalogue default URL.
 */
const dedicated = new Map<number, Adapter>([
  [CHANNEL_TYPE.azure, azureAdapter],
  [CHANNEL_TYPE.ollama, ollamaAdapter],
  [CHANNEL_TYPE.palm, palmAdapter],
  [CHANNEL_TYPE.anthropic, anthropicAdapter],
  [CHANNEL_TYPE.baidu, baiduAdapter],
  [CHANNEL_TYPE.zhipu, zhipuV3Adapter],
  [CHANNEL_TYPE.ali, aliAdapter],
  [CHANNEL_TYPE.xunfei, sparkAdapter],
  [CHANNEL_TYPE.tencent, hunyuanAdapter],
  [CHANNEL_TYPE.gemini, geminiAdapter],
  [CHANNEL_TYPE.zhipuV4, zhipuV4Adapter],
  [CHANNEL_TYPE.aws, awsAdapter],
  [CHANNEL_TYPE.cohere, cohereAdapter],
  [CHANNEL_TYPE.minimax, minimaxAdapter],
  [CHANNEL_TYPE.dify, difyAdapter],
  [CHANNEL_TYPE.jina, jinaAdapter],
  [CHANNEL_TYPE.cloudflare, cloudflareAdapter],
  [CHANNEL_TYPE.siliconCloud, siliconCloudAdapter],
  [CHANNEL_TYPE.vertexAi, vertexAdapter],
  ...COMPATIBLE_ADAPTERS,
]);
const openAiCompatible = new Map<number, Adapter>();

export function adapterFor(type: number): Adapter {
  const own = dedicated.get(type);
  if (own) return own;
  let shared = openAiCompatible.get(type);
  if (!shared) {
    // No default host for a type means none: a channel without its own base URL is refused
    // (ChannelConfigError), never sent with its key to another provider's host.
    shared = createOpenAiAdapter(getChannelType(type)?.defaultBaseUrl ?? "");
    openAiCompatible.set(type, shared);
  }
  return shared;
}
