import type { ServerBuild } from "@remix-run/node";
import { requestLocale, type Locale } from "~/i18n/locale";
import { translateText } from "~/i18n/translate";
import { wrapRouteHandlers } from "./route-handlers.server";

/**
 * Every message a loader or action sends out, in the reader's language (docs/decisions/045):
 * the /api envelope's `message`, the log lines of /api/log, and a console form's errors. The
 * domain and the routes keep writing the product's Chinese; this one place at the edge reads it
 * back in English when the reader asked for English, so a route added later is covered without
 * knowing. A Chinese reader's answer passes through untouched (not even re-serialized).
 * The relay's node:http path never comes here.
 */

type Json = unknown;

/** Paths whose `data` carries stored log rows, whose `content` is read in the reader's language. */
const LOG_PATHS = /^\/api\/log(\/|$)/;

function translateLogRows(locale: Locale, data: Json): Json {
  const rows = Array.isArray(data)
    ? data
    : data && typeof data === "object" && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : undefined;
  if (!rows) return data;
  const translated = rows.map((row: Json) => {
    if (!row || typeof row !== "object" || typeof (row as { content?: unknown }).content !== "string") return row;
    return { ...row, content: translateText(locale, (row as { content: string }).content) };
  });
  return Array.isArray(data) ? translated : { ...(data as object), items: translated };
}

/** The /api envelope `{success, message, data}` with its message (and log lines) translated. */
function translateEnvelope(locale: Locale, body: Json, pathname: string): Json {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const envelope = { ...(body as Record<string, Json>) };
  if (typeof envelope.message === "string") envelope.message = translateText(locale, envelope.message);
  if (LOG_PATHS.test(pathname) && "data" in envelope) envelope.data = translateLogRows(locale, envelope.data);
  return envelope;
}

/** Fields of an action's answer that hold messages (refusals, and notices that something was done): a string, a list, or lists by field. */
const MESSAGE_FIELDS = new Set([
  "message",
  "error",
  "errors",
  "formErrors",
  "fieldErrors",
  "success",
  "info",
  "notice",
  "sent",
]);
/** Fields that hold what the reader typed: never translated. */
const USER_FIELDS = new Set(["initialValue", "email", "username", "value"]);

function translateMessages(locale: Locale, value: Json): Json {
  if (typeof value === "string") return translateText(locale, value);
  if (Array.isArray(value)) return value.map((item) => translateMessages(locale, item));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, translateMessages(locale, item)]));
  return value;
}

/**
 * A console action's answer: conform's reply (`error: { field: [messages] }`, possibly under
 * `result`), or a route's own `{ error }`, `{ fieldErrors }`, `{ message }`.
 */
export function translateActionData(locale: Locale, value: Json, depth = 0): Json {
  if (!value || typeof value !== "object" || Array.isArray(value) || depth > 3) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (MESSAGE_FIELDS.has(key)) return [key, translateMessages(locale, item)];
      if (USER_FIELDS.has(key)) return [key, item];
      return [key, translateActionData(locale, item, depth + 1)];
    }),
  );
}

/** Plain-text refusals (a malformed form, a database outage on a page) are one message each. */
async function translatePlainText(locale: Locale, response: Response): Promise<Response> {
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(translateText(locale, text), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

async function translateResponse(locale: Locale, response: Response, pathname: string): Promise<Response> {
  const type = response.headers.get("Content-Type") ?? "";
  if (response.bodyUsed || !response.body) return response;
  // Plain text is a message only as a refusal; a 200 text body is a download (metrics, code lists).
  if (type.startsWith("text/plain")) return response.status >= 400 ? translatePlainText(locale, response) : response;
  if (!type.includes("application/json")) return response;
  const text = await response.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const translated = pathname.startsWith("/api/")
    ? translateEnvelope(locale, body, pathname)
    : translateActionData(locale, body);
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(JSON.stringify(translated), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

async function translateResult(locale: Locale, result: Json, pathname: string, isAction: boolean): Promise<Json> {
  if (result instanceof Response) return translateResponse(locale, result, pathname);
  if (!isAction) return result; // page loaders' data is page markup, translated with the pages
  if (result && typeof result === "object" && (result as { type?: unknown }).type === "DataWithResponseInit") {
    const wrapped = result as { data: Json };
    wrapped.data = translateActionData(locale, wrapped.data);
    return wrapped;
  }
  return translateActionData(locale, result);
}

function inReadersLanguage<A extends { request: Request }, R>(
  handler: (args: A) => R,
  isAction: boolean,
): (args: A) => Promise<R> {
  return async (args) => {
    const locale = requestLocale(args.request);
    if (locale === "zh") return (await handler(args)) as R;
    const { pathname } = new URL(args.request.url);
    try {
      return (await translateResult(locale, await handler(args), pathname, isAction)) as R;
    } catch (thrown) {
      if (thrown instanceof Response) throw await translateResponse(locale, thrown, pathname);
      throw thrown;
    }
  };
}

const translated = new WeakMap<ServerBuild, ServerBuild>();

/** The build with every loader and action answering in the reader's language; once per build. */
export function answerInReadersLanguage(build: ServerBuild): ServerBuild {
  return wrapRouteHandlers(build, translated, (handler, isAction) => inReadersLanguage(handler, isAction));
}
