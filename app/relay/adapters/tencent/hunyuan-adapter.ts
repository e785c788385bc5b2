import { clientWantsUsage } from "../shared/client-usage";
import { sendLiftingErrors } from "../shared/transport";
import { ChannelConfigError, type Adapter, type AdapterContext } from "../types";
import { tc3Headers } from "./tc3-sign";
import { createHunyuanStreamTranslator, fromHunyuanResponse, toHunyuanRequest } from "./hunyuan-convert";
import { hunyuanErrorStatus, parseHunyuanError } from "./hunyuan-errors";

const DEFAULT_BASE = "https://hunyuan.tencentcloudapi.com";
export const HUNYUAN_ACTION = "ChatCompletions";
export const HUNYUAN_VERSION = "2023-09-01";

export function parseHunyuanKey(key: string): { appId: string; secretId: string; secretKey: string } {
  const [appId, secretId, secretKey, ...rest] = key.split("|").map((p) => p.trim());
  if (!appId || !secretId || !secretKey || rest.length)
    throw new ChannelConfigError("腾讯混元密钥格式错误，应为 AppId|SecretId|SecretKey");
  return { appId, secretId, secretKey };
}

/**
 * Tencent Hunyuan (type 23): one signed POST to "/" (TC3-HMAC-SHA256 over content-type and host;
 * the host signed is the one the request goes to). Errors under status 200 are lifted.
 */
export const hunyuanAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx: AdapterContext) {
    if (ctx.mode !== "chat") throw new ChannelConfigError(`腾讯混元渠道不支持 ${ctx.path}`);
    const { secretId, secretKey } = parseHunyuanKey(ctx.key);
    const base = (ctx.channel.base_url || DEFAULT_BASE).replace(/\/+$/, "");
    const payload = JSON.stringify(toHunyuanRequest(ctx.body, ctx.upstreamModel, ctx.stream));
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = tc3Headers({
      secretId,
      secretKey,
      host: new URL(base).host,
      service: "hunyuan",
      action: HUNYUAN_ACTION,
      version: HUNYUAN_VERSION,
      timestamp,
      payload,
    });
    if (ctx.stream) headers.Accept = "text/event-stream";
    return { url: `${base}/`, headers, body: payload };
  },
  send: (request, init) => sendLiftingErrors(request, init, hunyuanErrorStatus),
  convertResponse: (ctx, raw) => fromHunyuanResponse(raw, ctx.requestModel),
  createStreamTranslator: (ctx) => createHunyuanStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseHunyuanError,
};
