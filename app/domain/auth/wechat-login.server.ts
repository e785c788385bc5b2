import { options } from "~/domain/options/store.server";
import { env } from "~/utils/env.server";
import { guardedHttp } from "~/utils/guarded-http.server";
import { upstreamUrlRefusal } from "~/utils/upstream-address";
import { ProviderError } from "./provider-error";

/**
 * The WeChat login server protocol of the reference (songquanpeng/wechat-server):
 * the user gets a short code from the official account and types it here; we ask
 * `GET {WeChatServerAddress}/api/wechat/user?code=` with the raw WeChatServerToken in
 * Authorization and get `{success, message, data: "<openid>"}`. An unknown or expired code comes
 * back as success with empty data.
 *
 * The address is the operator's, and the token rides along: it goes only to that address, over the
 * SSRF-guarded client (no link-local or metadata address, by name or by resolution — the reference
 * fault OA #2409 leaked the token that way), with no redirect followed (a 3xx would carry the
 * token's answer elsewhere) and a deadline.
 */
export function wechatServerUrl(code: string): string | undefined {
  const base = options.string("WeChatServerAddress").trim().replace(/\/+$/, "");
  if (!/^https?:\/\//i.test(base)) return undefined;
  return `${base}/api/wechat/user?${new URLSearchParams({ code })}`;
}

export async function fetchWeChatOpenId(code: string): Promise<string> {
  const trimmed = code.trim();
  if (!trimmed || trimmed.length > 64) throw new ProviderError("无效的参数");
  const url = wechatServerUrl(trimmed);
  if (!url) throw new ProviderError("管理员未正确配置微信登录服务器地址");
  const refusal = upstreamUrlRefusal(url);
  if (refusal) throw new ProviderError(refusal);
  let reply;
  try {
    reply = await guardedHttp(url, {
      headers: { Authorization: options.string("WeChatServerToken") },
      timeoutMs: env.OAUTH_TIMEOUT * 1000,
      maxBytes: 64 * 1024,
    });
  } catch (error) {
    console.error("[oauth] WeChat server call failed:", (error as Error).message);
    throw new ProviderError("无法连接至微信登录服务器，请稍后重试！");
  }
  let body: { success?: unknown; message?: unknown; data?: unknown } | undefined;
  try {
    body = JSON.parse(reply.body) as typeof body;
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== "object") throw new ProviderError("微信登录服务器返回值非法，请稍后重试！");
  if (body.success !== true)
    throw new ProviderError(
      typeof body.message === "string" && body.message ? body.message.slice(0, 200) : "微信登录失败",
    );
  if (typeof body.data !== "string" || body.data === "") throw new ProviderError("验证码错误或已过期");
  if (body.data.length > 128) throw new ProviderError("微信登录服务器返回值非法，请稍后重试！");
  return body.data;
}
