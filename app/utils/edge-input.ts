import { z } from "zod";

/**
 * The one parsing layer at the edge: every id, page number, text field and
 * number that arrives from outside goes through these before it reaches a domain function. Bad
 * input is a clear refusal here, not a database error (a 500) further down. Pure: usable by the
 * server and by form schemas shared with the browser.
 */

/** Ids are PostgreSQL `integer` columns: anything above 2³¹−1 cannot name a row. */
export const MAX_ID = 2_147_483_647;

/**
 * NUL can never be stored (PostgreSQL text refuses it), so it is refused everywhere at the edge.
 * Other control characters are legitimate in some text (Notice markdown, chat content) and are
 * judged by the schema of the field that holds them.
 */
export const NUL = "\u0000";

export const messagesOf = {
  id: "无效的参数：id 必须是 1 到 2147483647 之间的整数",
  nul: "无效的参数：文本中不能包含 NUL 字符",
  depth: "无效的参数：JSON 嵌套层数过深",
} as const;

/** A positive int4 id written as plain digits ("12"), or undefined: "1e3", "0x10", " 1", "1.0" are not ids. */
export function readId(raw: unknown): number | undefined {
  const text = typeof raw === "number" ? String(raw) : raw;
  if (typeof text !== "string" || !/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_ID ? id : undefined;
}

/** For JSON bodies, where clients send ids as numbers or numeric strings (the reference's console does both). */
export const idSchema = z.union([z.number(), z.string()], { error: messagesOf.id }).transform((value, ctx) => {
  const id = readId(typeof value === "string" ? value.trim() : value);
  if (id === undefined) {
    ctx.addIssue({ code: "custom", message: messagesOf.id });
    return z.NEVER;
  }
  return id;
});

/** An integer that fits a PostgreSQL `integer` column (priority, weight, counts). */
export function int4Schema(message: string) {
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(-MAX_ID - 1, message)
    .max(MAX_ID, message);
}

export function hasNul(text: string): boolean {
  return text.includes(NUL);
}

/**
 * The first problem of a parsed JSON value: a string holding NUL anywhere, or nesting deeper
 * than `maxDepth`. Iterative, so a hostile body cannot exhaust the stack while being checked.
 */
export function findJsonProblem(value: unknown, maxDepth = 64): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === "string") {
      if (hasNul(item)) return messagesOf.nul;
      continue;
    }
    if (!item || typeof item !== "object") continue;
    if (depth >= maxDepth) return messagesOf.depth;
    if (Array.isArray(item)) for (const child of item) stack.push([child, depth + 1]);
    else
      for (const key in item) {
        if (hasNul(key)) return messagesOf.nul;
        stack.push([(item as Record<string, unknown>)[key], depth + 1]);
      }
  }
  return undefined;
}

/**
 * Whether raw JSON text nests deeper than `maxDepth`, counted on the bytes before parsing (so a
 * 100 000-level `[[[…` is refused without building it). Brackets inside strings do not count.
 */
export function jsonNestsDeeperThan(raw: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!;
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

/** The first form value holding NUL (which no field can store), by field name. */
export function findNulField(form: FormData): string | undefined {
  for (const [name, value] of form.entries()) {
    if (hasNul(name) || (typeof value === "string" && hasNul(value))) return name;
  }
  return undefined;
}

/**
 * A request URL's path and query, checked once at the server edge: undefined when fine, else
 * why not. Bad %-escapes in the path and NUL anywhere cannot mean anything to any route.
 */
export function checkRequestTarget(target: string): string | undefined {
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    return "无效的请求路径：错误的 % 转义";
  }
  if (hasNul(decodedPath)) return "无效的请求路径：不能包含 NUL 字符";
  if (query >= 0) {
    const search = target.slice(query + 1);
    // URLSearchParams keeps a bad escape literally, so only NUL needs catching here.
    for (const [name, value] of new URLSearchParams(search)) {
      if (hasNul(name) || hasNul(value)) return messagesOf.nul;
      // Remix v1's data requests. This app uses single fetch (`.data` URLs); Remix v2 still runs
      // the old path for them, and some answers there fail inside Remix (a 500).
      if (name === "_data") return "不支持 ?_data= 请求：本站的数据请求使用 .data 地址";
    }
  }
  return undefined;
}

/**
 * A console action's form, or a 400 (the error page shows the message): unreadable bodies and
 * NUL in any field stop here instead of failing in the database.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Response("无效的表单数据", { status: 400 });
  }
  const field = findNulField(form);
  if (field !== undefined) throw new Response(`${messagesOf.nul}（${field}）`, { status: 400 });
  return form;
}

/** A console page's id from the URL, or a 404 like any other id that names nothing. */
export function requirePathId(raw: string | undefined): number {
  const id = readId(raw);
  if (id === undefined) throw new Response("Not Found", { status: 404 });
  return id;
}
