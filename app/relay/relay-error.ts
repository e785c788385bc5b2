/**
 * An expected refusal or failure on the relay path, as a value: status, OpenAI-shaped fields,
 * and whether it came from the upstream (which decides retry and auto-disable).
 */
export type RelayFailure = {
  status: number;
  message: string;
  type: string;
  code: string | null;
  /** The request field an upstream refused (an OpenAI error's `param`). */
  param?: string | null;
  /** The upstream's informative reply headers (ids, rate limits, retry-after), sent beside the gateway's. */
  headers?: Record<string, string>;
  /** Set for upstream failures; local ones (auth, quota, bad request) are never retried. */
  upstream?: { channelId: number; retryable: boolean };
};

export function localFailure(
  status: number,
  message: string,
  code: string | null = null,
  type = "new_api_error",
): RelayFailure {
  return { status, message, type, code };
}
