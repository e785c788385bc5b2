import type { Adapter } from "../types";
import { createCompatibleAdapter, underPrefix } from "./compatible-adapter";
import { convertTokenMetaRerank } from "./token-meta-rerank";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/**
 * OpenAI-wire providers whose paths are not OpenAI's: VolcEngine Ark serves it under /api/v3,
 * Baidu Qianfan V2 under /v2, Perplexity at its root. Xinference answers rerank with token counts
 * in `meta.tokens`. (Types served at {base}/v1 like OpenAI need no entry: the registry's shared base.)
 */
const xinference = createCompatibleAdapter({ defaultBase: "" });

export const COMPATIBLE_ADAPTERS: ReadonlyMap<number, Adapter> = new Map<number, Adapter>([
  [
    CHANNEL_TYPE.perplexity,
    createCompatibleAdapter({ defaultBase: "https://api.perplexity.ai", mapPath: underPrefix(""), modelsPath: null }),
  ],
  [
    CHANNEL_TYPE.volcEngine,
    createCompatibleAdapter({
      defaultBase: "https://ark.cn-beijing.volces.com",
      mapPath: underPrefix("/api/v3"),
      modelsPath: null,
    }),
  ],
  [
    CHANNEL_TYPE.baiduV2,
    createCompatibleAdapter({
      defaultBase: "https://qianfan.baidubce.com",
      mapPath: underPrefix("/v2"),
      modelsPath: () => "/v2/models",
    }),
  ],
  [
    CHANNEL_TYPE.xinference,
    {
      ...xinference,
      convertResponse: (ctx, raw) =>
        ctx.mode === "rerank" ? { body: convertTokenMetaRerank(raw) } : xinference.convertResponse(ctx, raw),
    },
  ],
]);
