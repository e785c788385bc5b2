import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { relayAdmitted } from "./admission/run.server";
import { adapterFor } from "./adapters/registry";
import type { RelayMode } from "./adapters/types";
import { attemptChannel, type AttemptResult, type ClientWatch, type RelayTimeouts } from "./attempt.server";
import type { TokenContext } from "./auth/token-auth.server";
import { holdFor, imagePriceFactor, quotaFor, reservationFor, type Usage } from "./billing/pricing";
import { clampUsage, type UsageNote } from "./billing/usage-parse";
import { usageBounds } from "./billing/usage-bounds.server";
import type { RelayFailure } from "./relay-error";
import type { ReplySink } from "./reply-sink";
import type { Ingress } from "./ingress/types";
import { callCount, estimatePromptTokens, maxTokensOf, requestModel } from "./request-parse";
import { countPromptTokens } from "./stream/token-counter";

export type RelayRequest = {
  token: TokenContext;
  mode: RelayMode;
  path: string;
  body: Record<string, unknown>;
  rawBody?: Buffer;
  contentType?: string;
  requestId: string;
  /** The client's headers that describe the request, forwarded upstream (wire-headers). */
  clientHeaders?: Record<string, string>;
  startedAt: number;
  /**
   * A native client surface (Anthropic Messages, Gemini, Responses; decision 026): `body` is then
   * the OpenAI chat form of the client's request (routing, pricing, counting), and the ingress
   * picks each attempt's adapter — a pass-through where the channel speaks the client's protocol,
   * else the channel's own adapter wrapped to convert its reply back.
   */
  ingress?: Ingress;
};

/**
 * A ratio-priced image model whose upstream reports no usage (DALL·E does not) bills each
 * standard image as this many tokens at its ratio, as one-api did (ratio 20 = $0.04 a dall-e-3
 * image); counting only the prompt's tokens made such images all but free.
 */
const TOKENS_PER_IMAGE = 1000;

type AttemptSuccess = Omit<Extract<AttemptResult, { ok: true }>, "ok">;

/**
 * The usage to bill: the upstream's when given (and believed: usage-parse), else counted (prompt
 * from the request, completion from what passed); either way no side above what the model can
 * take or the request allowed (usage-bounds). The
 * note says what the log's `other` must record about it (a usage ignored, a count clamped).
 */
function billableUsage(
  result: AttemptSuccess,
  request: RelayRequest,
  model: string,
  images: number,
): { usage: Usage; usageNote?: UsageNote } {
  const choices = request.mode === "chat" || request.mode === "completions" ? Number(request.body.n) || 1 : 1;
  const clamped = clampUsage(
    measuredUsage(result, request, images),
    usageBounds(model, maxTokensOf(request.body), Math.min(128, choices)),
  );
  if (!result.usageNote) return clamped;
  return { usage: clamped.usage, usageNote: { ...result.usageNote, ...clamped.usageNote } };
}

function measuredUsage(result: AttemptSuccess, request: RelayRequest, images: number): Usage {
  if (result.usage) return result.usage;
  if (request.mode === "images") return { prompt_tokens: Math.round(images * TOKENS_PER_IMAGE), completion_tokens: 0 };
  return { prompt_tokens: countPromptTokens(request.body), completion_tokens: result.countedCompletion };
}

const TIMEOUTS: RelayTimeouts = {
  connectMs: env.RELAY_CONNECT_TIMEOUT * 1000,
  responseMs: env.RELAY_TIMEOUT * 1000,
  streamIdleMs: env.STREAMING_TIMEOUT * 1000,
};

/**
 * One OpenAI-surface (or native-ingress) call through the admission module: this surface's own
 * parts are how the hold is estimated from the request, how one channel is tried (the adapter,
 * the reply written or streamed), and what usage is billed for the reply.
 * Returns a failure for the caller to send when nothing was written to the client.
 */
export function relay(request: RelayRequest, sink: ReplySink): Promise<RelayFailure | undefined> {
  const { token, body } = request;
  const model = requestModel(request.mode, body) ?? "";
  const stream = body.stream === true && (request.mode === "chat" || request.mode === "completions");
  // An image request for n images is n standard images, each weighted by its size and quality;
  // a fixed price is per such image, a ratio bills them as tokens (billableUsage).
  const imageFactor = request.mode === "images" && model ? imagePriceFactor(model, body) : 1;
  const images = request.mode === "images" ? callCount(request.mode, body) * imageFactor : 0;
  let calls = 1;
  const watch: ClientWatch = { gone: false, upstream: undefined };
  return relayAdmitted<AttemptSuccess>({
    token,
    model,
    requestId: request.requestId,
    startedAt: request.startedAt,
    hold(priced) {
      const { pricing, quotaPerUnit } = priced;
      calls = pricing.kind === "price" && request.mode === "images" ? images : 1;
      const promptEstimate =
        request.mode === "images" && pricing.kind === "ratio"
          ? images * TOKENS_PER_IMAGE
          : estimatePromptTokens(body, request.mode);
      const maxTokens = maxTokensOf(body);
      const preConsumed = options.int("PreConsumedQuota");
      const estimate = Math.ceil(calls * reservationFor(pricing, promptEstimate, maxTokens, preConsumed, quotaPerUnit));
      // Watching the client starts with the hold: from here a client that leaves stops the attempts.
      sink.onClientGone(() => {
        watch.gone = true;
        watch.upstream?.abort();
      });
      return {
        estimate,
        hold: Math.max(
          estimate,
          Math.ceil(calls * holdFor(pricing, promptEstimate, maxTokens, preConsumed, quotaPerUnit)),
        ),
      };
    },
    attempt: (channel) =>
      attemptChannel(
        {
          channel,
          adapter: request.ingress ? request.ingress.adapterFor(channel.type) : adapterFor(channel.type),
          mode: request.mode,
          path: request.path,
          body,
          rawBody: request.rawBody,
          contentType: request.contentType,
          requestModel: model,
          stream,
          requestId: request.requestId,
          clientHeaders: request.clientHeaders,
          watch,
          timeouts: TIMEOUTS,
        },
        sink,
      ),
    clientGone: () => watch.gone,
    async served(result, settlement, channel) {
      const { usage, usageNote } = billableUsage(result, request, model, images);
      if (usageNote?.usage_warning)
        console.warn(`[relay] ${request.requestId} channel #${channel.id}: ${usageNote.usage_warning}`);
      if (usageNote?.usage_clamped)
        console.warn(
          `[relay] ${request.requestId} channel #${channel.id}: reported usage past what ${model} can take was clamped ${JSON.stringify(usageNote.usage_clamped)}`,
        );
      const priced = settlement.priced;
      const quota = Math.round(calls * quotaFor(priced.pricing, usage, priced.quotaPerUnit));
      // The reply goes out once its charge is in the local journal (written with the other
      // charges of this turn); the database write follows behind it.
      try {
        const settling = settlement.settle({
          quota,
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          isStream: stream,
          content: imageFactor === 1 ? undefined : `${priced.logContent}，图片倍率 ${imageFactor}`,
          other: {
            ...(imageFactor === 1 ? undefined : { image_ratio: imageFactor }),
            frt: stream ? result.frtMs : -1000,
          },
          note: usageNote,
          usageParts: usage,
        });
        if (settling instanceof Promise) await settling;
        const journaled = settlement.durable("journal");
        if (journaled) await journaled;
      } finally {
        result.deliver(usage);
      }
    },
  });
}
