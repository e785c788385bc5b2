import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { resolveLocale } from "~/i18n/locale";
import { translateText } from "~/i18n/translate";
import { withCors } from "./http.server";
import type { RelayFailure } from "./relay-error";

/** Request ids like the reference's: time to the second plus random characters. */
// Request ids: the reference's shape (a second-resolution stamp, then 12 hex digits). The hex part
// is a random per-process prefix plus a counter — unique without a syscall per request.
const processPrefix = randomBytes(3).toString("hex");
let sequence = Math.floor(Math.random() * 0xffffff);
let stampSecond = 0;
let stampText = "";

export function newRequestId(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stampText = new Date(second * 1000)
      .toISOString()
      .replace(/[-:TZ.]/g, "")
      .slice(0, 14);
  }
  sequence = (sequence + 1) & 0xffffff;
  return `${stampText}${processPrefix}${sequence.toString(16).padStart(6, "0")}`;
}

/**
 * A refusal in the language of the caller the reply goes to (the `lang` cookie, else
 * `Accept-Language`, else Chinese). Error writers only: a successful call never pays for it.
 */
export function inCallersLanguage(res: ServerResponse, message: string): string {
  const headers = res.req?.headers;
  if (!headers) return message;
  return translateText(resolveLocale({ cookie: headers.cookie, acceptLanguage: headers["accept-language"] }), message);
}

/**
 * Writes an OpenAI-shaped error, `{error:{message,type,param,code}}`, in the upstream's own words
 * when it came from one. The request id goes in `X-Oneapi-Request-Id`, not the message
 * (decision 034); the upstream's informative headers (its `x-request-id`, `retry-after`…) beside it.
 * The gateway's own refusals are read in the caller's language (docs/decisions/045): only here,
 * on the error path; an upstream's words are not in the catalog and pass as they are.
 */
export function sendRelayError(res: ServerResponse, failure: RelayFailure, requestId: string): void {
  const body = JSON.stringify({
    error: {
      message: inCallersLanguage(res, failure.message),
      type: failure.type || "new_api_error",
      param: failure.param ?? null,
      code: failure.code ?? null,
    },
  });
  res.writeHead(
    failure.status,
    withCors({
      ...failure.headers,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "X-Oneapi-Request-Id": requestId,
    }),
  );
  res.end(body);
}
