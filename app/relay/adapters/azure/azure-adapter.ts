import type { Adapter, AdapterContext, UpstreamRequest } from "../types";
import { openAiPayload, usageOf } from "../shared/openai-payload";
import { clientWantsUsage } from "../shared/client-usage";
import { parseOpenAiError } from "../shared/openai-errors";
import { createOpenAiStreamTranslator } from "../shared/openai-stream";
import { channelBase } from "../shared/channel-base";

const DEFAULT_API_VERSION = "2023-06-01-preview";

/** `/v1/chat/completions` → `chat/completions`: the task part Azure appends after the deployment. */
function taskOf(path: string): string {
  return path.replace(/^\/v1\//, "").replace(/^engines\/[^/]+\//, "");
}

/**
 * Azure OpenAI: the deployment (the model name without dots, as the reference derives it) is
 * in the URL, the api-version from the channel's `other`, and the key goes in `api-key`.
 */
export const azureAdapter: Adapter = {
  streamUsage: true,
  buildRequest(ctx: AdapterContext): UpstreamRequest {
    // Azure has no default host: a channel without its resource URL is refused, not sent.
    const base = channelBase(ctx.channel, "");
    const deployment = ctx.upstreamModel.replaceAll(".", "");
    const version = ctx.channel.other.trim() || DEFAULT_API_VERSION;
    const url = `${base}/openai/deployments/${encodeURIComponent(deployment)}/${taskOf(ctx.path)}?api-version=${encodeURIComponent(version)}`;
    const headers: Record<string, string> = { "Content-Type": "application/json", "api-key": ctx.key };
    if (ctx.stream) headers.Accept = "text/event-stream";
    return { url, headers, body: openAiPayload(ctx, true) };
  },
  convertResponse(ctx, raw) {
    const text = raw.toString("utf8");
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      // Azure names the underlying model; clients asked for (and are billed under) their own name.
      return { body: JSON.stringify({ ...json, model: json.model || ctx.requestModel }), ...usageOf(json) };
    } catch {
      return { body: text };
    }
  },
  createStreamTranslator: (ctx) => createOpenAiStreamTranslator(clientWantsUsage(ctx)),
  parseError: parseOpenAiError,
};
