import type { z } from "zod";
import type { User } from "../../db/schema";
import { findUserByAccessToken } from "~/domain/users/users.server";
import { USER_STATUS_BANNED } from "~/domain/users/roles";
import { findJsonProblem, messagesOf, readId } from "~/utils/edge-input";
import { env } from "~/utils/env.server";
import { isDatabaseUnavailable } from "~/utils/db-errors";
import { apiOutageResponse, reportDatabaseUnavailable } from "./database-outage.server";
import { getSessionUser } from "./session-cookie.server";

/** Thrown inside /api handlers for expected refusals; apiRoute turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}

export function apiOk(data?: unknown, message = "", extra?: Record<string, unknown>): Response {
  return Response.json({ success: true, message, ...(data === undefined ? {} : { data }), ...extra });
}

export function apiFail(message: string, status = 200): Response {
  return Response.json({ success: false, message }, { status });
}

/**
 * Runs a handler and shapes every outcome as `{success,message,data}`: expected refusals keep
 * their status, anything unexpected is logged and answered without leaking internals.
 */
export async function apiRoute(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    if (error instanceof ApiError) return apiFail(error.message, error.status);
    if (isDatabaseUnavailable(error)) {
      reportDatabaseUnavailable("api", error);
      return apiOutageResponse();
    }
    console.error("[api] unexpected error", error);
    return apiFail("服务器内部错误，请联系管理员", 500);
  }
}

function bodyTooLarge(): Response {
  return Response.json({ success: false, message: "请求体过大" }, { status: 413 });
}

/** Bytes of an oversized body read and thrown away at most, so its 413 reaches the client. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * Reads the rest of an oversized body in the background and throws it away. Cancelling the
 * stream (or closing the connection) while the client is still sending makes the kernel answer
 * with a reset, and the client never sees its 413; a client sending far more loses the connection.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    let discarded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > MAX_DISCARDED_BYTES) return void (await reader.cancel());
    }
  })().catch(() => undefined);
}

/** The body as text, read no further than the cap (a chunked body declares no length up front). */
async function readCapped(request: Request, cap: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      discardRest(reader);
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads a JSON body with a size cap and validates it; every failure is a clear ApiError. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > env.MAX_JSON_BODY_BYTES) throw bodyTooLarge();
  const text = await readCapped(request, env.MAX_JSON_BODY_BYTES);
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError("无效的参数：请求体不是合法的 JSON", 400);
  }
  // Checked before the schema, which sees only the fields it names: NUL cannot reach the
  // database from any of them, and no nesting can exhaust a later recursive walk.
  const problem = findJsonProblem(parsed);
  if (problem) throw new ApiError(problem, 400);
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    // A body that does not have its types is a 400 (docs/decisions/011); business refusals
    // further in keep the reference's 200 + success:false.
    throw new ApiError(`无效的参数：${where}${issue?.message ?? "格式错误"}`, 400);
  }
  return result.data;
}

/**
 * The reference's auth for /api: a session cookie must come with `New-Api-User: <id>` equal to
 * the session's user (this doubles as CSRF protection), or a system access token in
 * Authorization. Role and status are always the user's current ones.
 */
export async function requireApiUser(request: Request, minRole: number): Promise<User> {
  let user: User | undefined;
  const sessionUser = await getSessionUser(request);
  if (sessionUser) {
    const header = request.headers.get("New-Api-User");
    if (!header) throw new ApiError("无权进行此操作，请刷新页面或清空缓存后重试", 401);
    if (header !== String(sessionUser.id))
      throw new ApiError("无权进行此操作，New-Api-User 与登录用户不匹配，请重新登录", 401);
    user = sessionUser;
  } else {
    const authorization = request.headers
      .get("Authorization")
      ?.replace(/^Bearer\s+/i, "")
      .trim();
    if (!authorization) throw new ApiError("无权进行此操作，未登录且未提供 access token", 401);
    user = await findUserByAccessToken(authorization);
    if (!user) throw new ApiError("无权进行此操作，access token 无效");
  }
  if (user.status === USER_STATUS_BANNED) throw new ApiError("用户已被封禁");
  if (user.role < minRole) throw new ApiError("无权进行此操作，权限不足");
  return user;
}

/** A positive int4 id from a path segment, or a 400 (ids above 2³¹−1 name no row and would fail in the database). */
export function parseId(raw: string | undefined): number {
  const id = readId(raw);
  if (id === undefined) throw new ApiError(messagesOf.id, 400);
  return id;
}
