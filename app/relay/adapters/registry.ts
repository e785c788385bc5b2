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

/**
 * Channel type → adapter. Providers with their own protocol register here; every other type
 * speaks the OpenAI wire through the shared base with its catalogue default URL.
 */
const dedicated = new Map<number, Adapter>([
  [3, azureAdapter],
  [4, ollamaAdapter],
  [11, palmAdapter],
  [14, anthropicAdapter],
  [15, baiduAdapter],
  [16, zhipuV3Adapter],
  [17, aliAdapter],
  [18, sparkAdapter],
  [23, hunyuanAdapter],
  [24, geminiAdapter],
  [26, zhipuV4Adapter],
  [33, awsAdapter],
  [34, cohereAdapter],
  [35, minimaxAdapter],
  [37, difyAdapter],
  [38, jinaAdapter],
  [39, cloudflareAdapter],
  [40, siliconCloudAdapter],
  [41, vertexAdapter],
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
