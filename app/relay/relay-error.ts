/**
 * An expected refusal or failure on the relay path, as a value: status, OpenAI-shaped fields,
 * and whether it came from the upstream (which decides retry and auto-disable).
 */
export type RelayFailure = {
  status: number;
  message: string;
  type: string;
  code: string | null;
  /** Set for upstream failures; local ones (auth, quota, bad request) are never retried. */
  upstream?: { channelId: number; retryable: boolean };
};

export function localFailure(status: number, message: string, code: string | null = null, type = "new_api_error"): RelayFailure {
  return { status, message, type, code };
}
