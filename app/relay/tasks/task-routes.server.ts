import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/utils/env.server";
import { authenticateToken, isFailure } from "../auth/token-auth.server";
import { sendRelayError } from "../errors.server";
import { relayClientIp } from "../http.server";
import { serveMjImage } from "./mj-image.server";
import { handleMjAuthenticated, splitMjPath } from "./mj-relay.server";
import { handleMjNotify } from "./mj-notify.server";
import { decodeTaskId } from "./mj-wire";
import { handleSuno } from "./suno-relay.server";

/**
 * The task surfaces of the relay: `/mj/…`, `/{mode}/mj/…` and `/suno/…`. Returns false for any
 * other path. Clients authenticate with `Authorization: Bearer sk-…` or, as Midjourney clients
 * do, `mj-api-secret: sk-…` (read when the bearer is absent or the proxy's placeholder).
 */
export async function handleTaskRelay(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  requestId: string,
  startedAt: number,
): Promise<boolean> {
  const mj = splitMjPath(path);
  const suno = !mj && path.startsWith("/suno/");
  if (!mj && !suno) return false;
  if (mj && req.method === "GET" && mj.rest.startsWith("/image/")) {
    req.resume();
    await serveMjImage(res, decodeTaskId(mj.rest.slice("/image/".length)));
    return true;
  }
  if (mj && req.method === "POST" && mj.rest === "/notify") {
    await handleMjNotify(req, res);
    return true;
  }
  let authorization = req.headers.authorization;
  const bearer = authorization?.trim().replace(/^Bearer\s+/i, "") ?? "";
  const secret = req.headers["mj-api-secret"];
  if (mj && (!bearer || bearer === "midjourney-proxy") && typeof secret === "string" && secret) authorization = secret;
  const authenticated = await authenticateToken(authorization, relayClientIp(req, env.TRUST_PROXY));
  if (isFailure(authenticated)) {
    req.resume();
    sendRelayError(res, authenticated, requestId);
    return true;
  }
  if (mj) await handleMjAuthenticated(req, res, mj, authenticated, { requestId, startedAt });
  else await handleSuno(req, res, path, authenticated, { requestId, startedAt });
  return true;
}
