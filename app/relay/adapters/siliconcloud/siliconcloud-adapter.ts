import { createCompatibleAdapter } from "../openai-compatible/compatible-adapter";
import { convertTokenMetaRerank } from "../openai-compatible/token-meta-rerank";
import type { Adapter } from "../types";

const base = createCompatibleAdapter({ defaultBase: "https://api.siliconflow.cn" });

/** SiliconCloud (type 40): the OpenAI wire for chat, embeddings and images; rerank at /v1/rerank with its token counts moved to `usage`. */
export const siliconCloudAdapter: Adapter = {
  ...base,
  convertResponse: (ctx, raw) =>
    ctx.mode === "rerank" ? { body: convertTokenMetaRerank(raw) } : base.convertResponse(ctx, raw),
};
