import { STREAM_IDLE_TIMEOUT, STREAM_INTERRUPTED, type UpstreamError } from "../adapters/types";

/**
 * Why a stream stopped short of its end, as the usage log's `other.stream_cut` records it:
 *  - connection_lost: the upstream's connection broke (reset, or closed mid-body);
 *  - ended_early: the upstream's body closed cleanly before the protocol's last event;
 *  - idle_timeout: the upstream sent nothing for STREAMING_TIMEOUT;
 *  - upstream_error: the upstream reported an error mid-stream.
 */
export type StreamCut = "connection_lost" | "ended_early" | "idle_timeout" | "upstream_error";

const INTERRUPTED_MESSAGES = {
  connection_lost: "上游连接在回复中途断开，回复不完整",
  ended_early: "上游在回复结束前关闭了流式响应，回复不完整",
} as const;

/** What the client is told when the upstream's connection or body ended mid-reply. */
export function interruptedError(cut: keyof typeof INTERRUPTED_MESSAGES): UpstreamError {
  return { message: INTERRUPTED_MESSAGES[cut], type: "upstream_error", code: STREAM_INTERRUPTED };
}

/** What the client is told when the upstream went quiet mid-reply. */
export function idleTimeoutError(idleTimeoutMs: number): UpstreamError {
  return {
    message: `上游流式响应超时（${Math.round(idleTimeoutMs / 1000)} 秒无数据）`,
    type: "upstream_error",
    code: STREAM_IDLE_TIMEOUT,
  };
}
