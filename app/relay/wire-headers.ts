import type { IncomingHttpHeaders } from "node:http";

/**
 * The headers that cross the gateway besides the bodies, each way, by allow-list: only names
 * known to describe the reply (upstream → client) or the request (client → upstream) pass.
 * Everything else stays: hop-by-hop and framing headers are the gateway's own connection's,
 * cookies belong to the upstream's or the client's session, and an account header
 * (OpenAI-Organization, OpenAI-Project) must go with the channel's key, never the caller's.
 */

/** Reply headers an upstream sends that tell the client about its call: ids, timings, rate limits, backoff. */
const REPLY_NAMES = new Set([
  "x-request-id",
  "request-id",
  "apim-request-id",
  "x-ms-region",
  "openai-processing-ms",
  "openai-version",
  "retry-after",
  "retry-after-ms",
]);
const REPLY_PREFIXES = ["x-ratelimit-", "anthropic-ratelimit-"];

/** Request headers a client sends that belong to the request itself (beta features, a retry's identity). */
const REQUEST_NAMES = ["openai-beta", "idempotency-key"];

// An upstream's (or a client's) header is untrusted input: a value is passed only when short and
// made of visible ASCII (CR, LF or NUL would split or break the reply; node throws on them).
const MAX_VALUE_LENGTH = 256;
const MAX_REPLY_HEADERS = 32;
const SAFE_VALUE = /^[\x20-\x7e]*$/;

function safeValue(value: string | string[] | undefined): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_VALUE_LENGTH) return undefined;
  return SAFE_VALUE.test(value) ? value : undefined;
}

/** The upstream reply's informative headers, to pass to the client beside the gateway's own. */
export function informativeReplyHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const passed: Record<string, string> = {};
  let count = 0;
  for (const name in headers) {
    if (count >= MAX_REPLY_HEADERS) break;
    if (!REPLY_NAMES.has(name) && !REPLY_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const value = safeValue(headers[name]);
    if (value === undefined) continue;
    passed[name] = value;
    count += 1;
  }
  return passed;
}

/** The client's request headers that go upstream with its request (undefined: none). */
export function requestHeadersToForward(headers: IncomingHttpHeaders): Record<string, string> | undefined {
  let forwarded: Record<string, string> | undefined;
  for (const name of REQUEST_NAMES) {
    const value = safeValue(headers[name]);
    if (value !== undefined) (forwarded ??= {})[name] = value;
  }
  return forwarded;
}

/** Headers a browser shows a cross-origin page without being told (the CORS-safelisted reply headers). */
const SAFELISTED = new Set([
  "cache-control",
  "content-language",
  "content-length",
  "content-type",
  "expires",
  "last-modified",
  "pragma",
]);

/**
 * The reply's own header names a browser app may read (request ids, rate limits, retry-after):
 * a cross-origin fetch sees only safelisted headers unless the reply names the others in
 * Access-Control-Expose-Headers. Listed by name, not `*`, which older browsers ignore.
 */
export function exposedHeaderNames(headers: Record<string, string | number | readonly string[]>): string | undefined {
  let names: string | undefined;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (SAFELISTED.has(lower) || lower.startsWith("access-control-")) continue;
    names = names === undefined ? name : `${names}, ${name}`;
  }
  return names;
}
