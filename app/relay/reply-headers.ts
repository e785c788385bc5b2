import type { IncomingHttpHeaders } from "node:http";

// A reply that repeats one of these keeps its first, as node's IncomingMessage does; any other
// repeated header is joined into one value.
const FIRST_ONLY = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
]);

/**
 * An upstream reply's headers in the shape the relay reads everywhere (node's): one string per
 * name, set-cookie always a list. undici gives a repeated header as a list and a single
 * set-cookie as a string; the object is reshaped in place.
 */
export function nodeShapedHeaders(headers: Record<string, string | string[] | undefined>): IncomingHttpHeaders {
  for (const name in headers) {
    const value = headers[name];
    if (name === "set-cookie") {
      if (typeof value === "string") headers[name] = [value];
    } else if (Array.isArray(value)) {
      headers[name] = FIRST_ONLY.has(name) ? value[0] : value.join(name === "cookie" ? "; " : ", ");
    }
  }
  return headers as IncomingHttpHeaders;
}
