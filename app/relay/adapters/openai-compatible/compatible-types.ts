import type { Adapter } from "../types";
import { createCompatibleAdapter, underPrefix } from "./compatible-adapter";
import { convertTokenMetaRerank } from "./token-meta-rerank";

/**
 * OpenAI-wire providers whose paths are not OpenAI's: VolcEngine Ark serves it under /api/v3,
 * Baidu Qianfan V2 under /v2, Perplexity at its root. Xinference answers rerank with token counts
 * in `meta.tokens`. (Types served at {base}/v1 like OpenAI need no entry: the registry's shared base.)
 */
const xinference = createCompatibleAdapter({ defaultBase: "" });

export const COMPATIBLE_ADAPTERS: ReadonlyMap<number, Adapter> = new Map<number, Adapter>([
  [27, createCompatibleAdapter({ defaultBase: "https://api.perplexity.ai", mapPath: underPrefix(""), modelsPath: null })],
  [45, createCompatibleAdapter({ defaultBase: "https://ark.cn-beijing.volces.com", mapPath: underPrefix("/api/v3"), modelsPath: null })],
  [46, createCompatibleAdapter({ defaultBase: "https://qianfan.baidubce.com", mapPath: underPrefix("/v2"), modelsPath: () => "/v2/models" })],
  [47, { ...xinference, convertResponse: (ctx, raw) => (ctx.mode === "rerank" ? { body: convertTokenMetaRerank(raw) } : xinference.convertResponse(ctx, raw)) }],
]);
