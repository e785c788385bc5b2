import { clientWantsUsage } from "../shared/client-usage";
import { sendHttp } from "../shared/transport";
import { ChannelConfigError, type Adapter, type AdapterContext, type UpstreamRequest } from "../types";
import { parseAliError } from "./ali-errors";
import { runWanxTask } from "./ali-image-task";
import {
  createDashScopeStreamTranslator,
  fromDashScopeChat,
  fromDashScopeEmbeddings,
  toDashScopeChat,
  toDashScopeEmbeddings,
  toWanxTask,
} from "./ali-convert";

const DEFAULT_BASE = "https://dashscope.aliyuncs.com";
const PATHS: Record<string, string> = {
  chat: "/api/v1/services/aigc/text-generation/generation",
  embeddings: "/api/v1/services/embeddings/text-embedding/text-embedding",
  images: "/api/v1/services/aigc/text2image/image-synthesis",
};

// Image submissions are tasks to poll: the transport needs the base URL they were built from.
const imageTasks = new WeakMap<UpstreamRequest, string>();

function bodyFor(ctx: AdapterContext): Record<string, unknown> {
  if (ctx.mode === "embeddings") return toDashScopeEmbeddings(ctx.body, ctx.upstreamModel);
  if (ctx.mode === "images") return toWanxTask(ctx.body, ctx.upstreamModel);
  return toDashScopeChat(ctx.body, ctx.upstreamModel, ctx.stream);
}

/**
 * Ali DashScope (type 17): chat, embeddings and wanx images, Bearer key; the channel's `other`
 * is the plugin parameter (X-DashScope-Plugin). Errors come with their HTTP status.
 */
export const aliAdapter: Adapter = {
  streamUsage: false,
  buildRequest(ctx) {
    const path = PATHS[ctx.mode];
    if (!path) throw new ChannelConfigError(`通义千问渠道不支持 ${ctx.path}`);
    const base = (ctx.channel.base_url || DEFAULT_BASE).replace(/\/+$/, "");
    const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${ctx.key}` };
    if (ctx.stream) {
      headers.Accept = "text/event-stream";
      headers["X-DashScope-SSE"] = "enable";
    }
    if (ctx.mode === "images") headers["X-DashScope-Async"] = "enable";
    const plugin = ctx.channel.other.trim();
    if (plugin && ctx.mode === "chat") headers["X-DashScope-Plugin"] = plugin;
    const request: UpstreamRequest = { url: `${base}${path}`, headers, body: JSON.stringify(bodyFor(ctx)) };
    if (ctx.mode === "images") imageTasks.set(request, base);
    return request;
  },
  send(request, init) {
    const base = imageTasks.get(request);
    return base === undefined ? sendHttp(request, init) : runWanxTask(request, base, init);
  },
  convertResponse(ctx, raw) {
    if (ctx.mode === "embeddings") return fromDashScopeEmbeddings(raw, ctx.requestModel, ctx.body.encoding_format);
    // The task transport already answered in OpenAI's images shape.
    if (ctx.mode === "images") return { body: raw };
    return fromDashScopeChat(raw, ctx.requestModel);
  },
  createStreamTranslator: (ctx) => createDashScopeStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseAliError,
};
