import { clientWantsUsage } from "../shared/client-usage";
import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { signedSparkUrl } from "./spark-sign";
import { createSparkStreamTranslator, fromSparkFrames, sparkVersion, toSparkFrame } from "./spark-convert";
import { parseSparkError } from "./spark-errors";
import { sendOverSparkSocket, type SparkFraming } from "./spark-transport";

// A whole reply is read as one JSON array of frames (channel tests read it as JSON too); a stream as SSE.
const framingOf = new WeakMap<UpstreamRequest, SparkFraming>();

const DEFAULT_BASE = "wss://spark-api.xf-yun.com";

export function parseSparkKey(key: string): { appId: string; apiSecret: string; apiKey: string } {
  const [appId, apiSecret, apiKey, ...rest] = key.split("|").map((p) => p.trim());
  if (!appId || !apiSecret || !apiKey || rest.length)
    throw new ChannelConfigError("讯飞星火密钥格式错误，应为 APPID|APISecret|APIKey");
  return { appId, apiSecret, apiKey };
}

/**
 * iFlytek Spark (type 18): a WebSocket per call to {base}/{version}/chat with the HMAC-signed
 * URL; the channel's base URL (ws(s)://, or http(s):// read as ws(s)://) replaces the host. The transport turns frames
 * into SSE events; the translator turns those into OpenAI chunks.
 */
export const sparkAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx: AdapterContext) {
    if (ctx.mode !== "chat") throw new ChannelConfigError(`讯飞星火渠道不支持 ${ctx.path}`);
    const { appId, apiSecret, apiKey } = parseSparkKey(ctx.key);
    // Channel base URLs are saved as http(s):// (the form's rule); the socket speaks ws(s):// to the same host.
    const base = (ctx.channel.base_url || DEFAULT_BASE).replace(/\/+$/, "").replace(/^http(s?):\/\//i, "ws$1://");
    if (!/^wss?:\/\//i.test(base))
      throw new ChannelConfigError(`渠道 #${ctx.channel.id} 的 Base URL 应以 ws(s):// 或 http(s):// 开头`);
    const version = sparkVersion(ctx.channel.other, ctx.upstreamModel);
    const url = signedSparkUrl(base, `/${version}/chat`, apiKey, apiSecret);
    const request: UpstreamRequest = {
      url,
      method: "GET",
      headers: {},
      body: JSON.stringify(toSparkFrame(ctx.body, appId, version)),
    };
    framingOf.set(request, ctx.stream ? "sse" : "json");
    return request;
  },
  send: (request, init) => sendOverSparkSocket(request, init, framingOf.get(request) ?? "sse"),
  convertResponse: (ctx, raw) => fromSparkFrames(raw, ctx.requestModel),
  createStreamTranslator: (ctx) => createSparkStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseSparkError,
};
