import type { z } from "zod";
import type { User } from "../../db/schema";
import { getSessionUser } from "~/domain/auth/sessions.server";
import { findUserByAccessToken } from "~/domain/users/users.server";
import { USER_STATUS_BANNED } from "~/domain/users/roles";
import { findJsonProblem, messagesOf, readId } from "./edge-input";
import { env } from "./env.server";

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
    console.error("[api] unexpected error", error);
    return apiFail("服务器内部错误，请联系管理员", 500);
  }
}

// The unread rest of an oversized body would stall a kept-alive connection: close it instead.
function bodyTooLarge(): Response {
  return Response.json({ success: false, message: "请求体过大" }, { status: 413, headers: { Connection: "close" } });
}

/** Reads a JSON body with a size cap and validates it; every failure is a clear ApiError. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > env.MAX_JSON_BODY_BYTES) throw bodyTooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > env.MAX_JSON_BODY_BYTES) throw bodyTooLarge();
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError("无效的参数：请求体不是合法的 JSON");
  }
  // Checked before the schema, which sees only the fields it names: NUL cannot reach the
  // database from any of them, and no nesting can exhaust a later recursive walk.
  const problem = findJsonProblem(parsed);
  if (problem) throw new ApiError(problem, 400);
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new ApiError(`无效的参数：${where}${issue?.message ?? "格式错误"}`);
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
    if (header !== String(sessionUser.id)) throw new ApiError("无权进行此操作，New-Api-User 与登录用户不匹配，请重新登录", 401);
    user = sessionUser;
  } else {
    const authorization = request.headers.get("Authorization")?.replace(/^Bearer\s+/i, "").trim();
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

