import type { UpstreamError } from "./adapters/types";
import { CHANNEL_TYPE } from "~/domain/channels/channel-types";

/**
 * The reference's retry rule: retry 429, 307 and 5xx except 504/524; a 400 only from Anthropic
 * (type 14, where it often means a transient overload); never 408 or 2xx; any other status
 * (401, 403, 404…) is a channel problem, so another channel may succeed.
 */
export function isRetryableStatus(status: number, channelType: number): boolean {
  if (status >= 200 && status < 300) return false;
  if (status === 408 || status === 504 || status === 524) return false;
  if (status === 400) return channelType === CHANNEL_TYPE.anthropic;
  return true;
}

/** A channel's status_code_mapping (`{"400":"500"}`) applied to the status the client sees. */
export function mapStatusCode(mappingJson: string, status: number): number {
  if (!mappingJson.trim()) return status;
  try {
    const mapping = JSON.parse(mappingJson) as Record<string, unknown>;
    const mapped = Number(mapping[String(status)]);
    return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status;
  } catch {
    return status;
  }
}

const DISABLE_CODES = new Set(["invalid_api_key", "account_deactivated", "billing_not_active"]);
const DISABLE_TYPES = new Set([
  "insufficient_quota",
  "insufficient_user_quota",
  "authentication_error",
  "permission_error",
  "forbidden",
]);
const DISABLE_PREFIXES = [
  "Your credit balance is too low",
  "This organization has been disabled.",
  "You exceeded your current quota",
  "Permission denied",
];
const DISABLE_FRAGMENTS = [
  "The security token included in the request is invalid",
  "Operation not allowed",
  "Your account is not authorized",
];

/** The reference's auto-disable rule: the upstream says this key will not work again. */
export function shouldDisableChannel(status: number, error: UpstreamError, channelType: number): boolean {
  if (status === 401) return true;
  if (status === 403 && channelType === CHANNEL_TYPE.gemini) return true;
  if (error.code && DISABLE_CODES.has(error.code)) return true;
  if (DISABLE_TYPES.has(error.type)) return true;
  if (DISABLE_PREFIXES.some((p) => error.message.startsWith(p))) return true;
  return DISABLE_FRAGMENTS.some((f) => error.message.includes(f));
}
