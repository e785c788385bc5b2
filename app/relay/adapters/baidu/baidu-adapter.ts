import { clientWantsUsage } from "../shared/client-usage";
import { replyOf, sendLiftingErrors } from "../shared/transport";
import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { chatEndpoint, embeddingEndpoint } from "./baidu-endpoints";
import { baiduErrorStatus, baiduErrorCode, parseBaiduError, TOKEN_REJECTED_CODES } from "./baidu-errors";
import {
  baiduAccessToken,
  BaiduTokenRefused,
  forgetBaiduAccessToken,
  parseBaiduKey,
  type BaiduCredential,
} from "./baidu-token";
import {
  createErnieStreamTranslator,
  fromErnieEmbeddings,
  fromErnieResponse,
  toErnieEmbeddingRequest,
  toErnieRequest,
} from "./baidu-convert";
import { readAll } from "../../upstream-client.server";

const DEFAULT_BASE = "https://aip.baidubce.com";
const API_ROOT = "/rpc/2.0/ai_custom/v1/wenxinworkshop";

/** What the transport needs beyond the request: the credential (to renew a rejected token) or the exchange's refusal. */
type Pending = { credential: BaiduCredential; token: string; path: string } | { refused: BaiduTokenRefused };
const pending = new WeakMap<UpstreamRequest, Pending>();

function credentialOf(ctx: AdapterContext): BaiduCredential {
  const base = (ctx.channel.base_url || DEFAULT_BASE).replace(/\/+$/, "");
  return { base, ...parseBaiduKey(ctx.key) };
}

function pathOf(ctx: AdapterContext): string {
  if (ctx.mode === "chat") return `${API_ROOT}/chat/${chatEndpoint(ctx.upstreamModel)}`;
  if (ctx.mode === "embeddings") return `${API_ROOT}/embeddings/${embeddingEndpoint(ctx.upstreamModel)}`;
  throw new ChannelConfigError(`百度渠道不支持 ${ctx.path}`);
}

const urlWith = (credential: BaiduCredential, path: string, token: string) =>
  `${credential.base}${path}?access_token=${encodeURIComponent(token)}`;

/**
 * Baidu ERNIE (type 15): the access token exchanged from `APIKey|SecretKey` rides in the URL.
 * Errors arrive with status 200 and are lifted to the status they mean; a token Baidu calls
 * invalid or expired (110/111) is renewed once and the call repeated.
 */
export const baiduAdapter: Adapter = {
  streamUsage: false,
  async buildRequest(ctx) {
    const credential = credentialOf(ctx);
    const path = pathOf(ctx);
    const body = JSON.stringify(
      ctx.mode === "embeddings" ? toErnieEmbeddingRequest(ctx.body) : toErnieRequest(ctx.body, ctx.stream),
    );
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (ctx.stream) headers.Accept = "text/event-stream";
    try {
      const token = await baiduAccessToken(credential);
      const request: UpstreamRequest = { url: urlWith(credential, path, token), headers, body };
      pending.set(request, { credential, token, path });
      return request;
    } catch (error) {
      if (!(error instanceof BaiduTokenRefused)) throw error;
      // The refusal is the upstream's answer (e.g. 401 invalid_client): the transport hands it on as such.
      const request: UpstreamRequest = { url: `${credential.base}${path}`, headers, body };
      pending.set(request, { refused: error });
      return request;
    }
  },
  async send(request, init) {
    const state = pending.get(request);
    if (state && "refused" in state) return replyOf(state.refused.status, state.refused.body);
    const reply = await sendLiftingErrors(request, init, baiduErrorStatus);
    if (!state || reply.statusCode === 200) return reply;
    const body = await readAll(reply);
    const code = baiduErrorCode(body);
    if (code === undefined || !TOKEN_REJECTED_CODES.has(code))
      return replyOf(reply.statusCode ?? 502, body, reply.headers);
    forgetBaiduAccessToken(state.credential, state.token);
    let token: string;
    try {
      token = await baiduAccessToken(state.credential);
    } catch (error) {
      if (error instanceof BaiduTokenRefused) return replyOf(error.status, error.body);
      throw error;
    }
    return sendLiftingErrors({ ...request, url: urlWith(state.credential, state.path, token) }, init, baiduErrorStatus);
  },
  convertResponse(ctx, raw) {
    return ctx.mode === "embeddings"
      ? fromErnieEmbeddings(raw, ctx.requestModel, ctx.body.encoding_format)
      : fromErnieResponse(raw, ctx.requestModel);
  },
  createStreamTranslator: (ctx) => createErnieStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseBaiduError,
};
