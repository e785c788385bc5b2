import { convertAnthropicResponse } from "../anthropic/anthropic-adapter";
import { toAnthropicRequest } from "../anthropic/convert-request";
import { createAnthropicStreamTranslator } from "../anthropic/convert-stream";
import { clientWantsUsage } from "../shared/client-usage";
import { ChannelConfigError, type Adapter, type UpstreamRequest } from "../types";
import { parseAwsKey } from "./credentials";
import { parseBedrockError } from "./errors";
import { createEventStreamDecoder } from "./event-stream-decoder";
import { bedrockModelId } from "./model-ids";
import { signAwsRequest } from "./sign-request";

export const BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31";

/** The Anthropic Messages body Bedrock takes: no `model` (in the URL), no `stream` (in the operation), `anthropic_version` added. */
export function bedrockBody(body: Record<string, unknown>): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = toAnthropicRequest({ ...body, stream: false }, "");
  return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
}

export function bedrockUrl(baseUrl: string, region: string, model: string, stream: boolean): string {
  const base = (baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, "");
  return `${base}/model/${encodeURIComponent(bedrockModelId(model))}/${stream ? "invoke-with-response-stream" : "invoke"}`;
}

/**
 * AWS Claude (type 33): Bedrock InvokeModel / InvokeModelWithResponseStream, signed with SigV4
 * from the channel's `Ak|Sk|Region`. The stream is AWS event-stream framing around Anthropic's
 * own events, so the Anthropic converters do the rest.
 */
export const awsAdapter: Adapter = {
  streamUsage: false,
  async buildRequest(ctx): Promise<UpstreamRequest> {
    if (ctx.mode !== "chat") throw new ChannelConfigError(`渠道 #${ctx.channel.id}（AWS Claude）只支持对话`);
    const credentials = parseAwsKey(ctx.key);
    const url = bedrockUrl(ctx.channel.base_url, credentials.region, ctx.upstreamModel, ctx.stream);
    const body = JSON.stringify(bedrockBody(ctx.body));
    const headers = await signAwsRequest(url, body, credentials, "bedrock", {
      "content-type": "application/json",
      accept: "application/json",
    });
    return { url, headers, body };
  },
  createStreamDecoder: () => createEventStreamDecoder(),
  convertResponse: convertAnthropicResponse,
  createStreamTranslator: (ctx) => createAnthropicStreamTranslator(ctx.requestModel, clientWantsUsage(ctx)),
  parseError: parseBedrockError,
};
