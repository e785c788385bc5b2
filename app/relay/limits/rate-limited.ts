import type { WindowAnswer } from "~/utils/window-limits.server";
import type { RelayFailure } from "../relay-error";

/**
 * The 429s a limit gives, in the OpenAI error shape with the headers its clients back off by:
 * `Retry-After` (whole seconds) and the `x-ratelimit-*` set (limit, remaining, reset as OpenAI
 * writes durations: "59s", "1m30s", "120ms").
 */
function resetText(ms: number): string {
  if (ms < 1000) return `${Math.max(1, Math.ceil(ms))}ms`;
  const seconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${seconds % 60}s` : `${seconds}s`;
}

function limited(message: string, kind: "requests" | "tokens", limit: number, answer: WindowAnswer): RelayFailure {
  const seconds = Math.max(1, Math.ceil(answer.retryAfterMs / 1000));
  return {
    status: 429,
    message: `${message}，请 ${seconds} 秒后重试`,
    type: kind,
    code: "rate_limit_exceeded",
    headers: {
      "retry-after": String(seconds),
      [`x-ratelimit-limit-${kind}`]: String(limit),
      [`x-ratelimit-remaining-${kind}`]: String(Math.max(0, limit - answer.used)),
      [`x-ratelimit-reset-${kind}`]: resetText(answer.retryAfterMs),
    },
  };
}

export const rateLimited = {
  tokenRpm: (rpm: number, answer: WindowAnswer) =>
    limited(`该令牌已达到每分钟请求数限制（RPM ${rpm}）`, "requests", rpm, answer),
  tokenTpm: (tpm: number, answer: WindowAnswer) =>
    limited(`该令牌已达到每分钟 Token 数限制（TPM ${tpm}）`, "tokens", tpm, answer),
  userRequests: (minutes: number, count: number, answer: WindowAnswer) =>
    limited(
      `您已达到总请求数限制：${minutes}分钟内最多请求${count}次，包括失败次数，请检查您的请求是否正确`,
      "requests",
      count,
      answer,
    ),
  userSuccesses: (minutes: number, count: number, answer: WindowAnswer) =>
    limited(`您已达到请求数限制：${minutes}分钟内最多请求${count}次`, "requests", count, answer),
};
