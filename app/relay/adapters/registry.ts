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
import type { Adapter } from "./types";
import { vertexAdapter } from "./vertex/vertex-adapter";

/**
 * Channel type → adapter. Providers with their own protocol register here; every other type
 * speaks the OpenAI wire through the shared base with its catalogue default URL.
 */
const dedicated = new Map<number, Adapter>([
  [3, azureAdapter],
  [11, palmAdapter],
  [14, anthropicAdapter],
  [15, baiduAdapter],
  [16, zhipuV3Adapter],
  [17, aliAdapter],
  [18, sparkAdapter],
  [23, hunyuanAdapter],
  [26, zhipuV4Adapter],
  [24, geminiAdapter],
  [33, awsAdapter],
  [41, vertexAdapter],
]);
const openAiCompatible = new Map<number, Adapter>();

export function registerAdapter(type: number, adapter: Adapter): void {
  dedicated.set(type, adapter);
}

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
