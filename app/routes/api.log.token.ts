import type { LoaderFunctionArgs } from "@remix-run/node";
import { logsOfTokenKey } from "~/domain/logs/log-search.server";
import { apiRoute } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

// Chat web apps call this from their own origin with only the key, as the reference allows.
const CORS = { "Access-Control-Allow-Origin": "*" };

/** GET /api/log/token?key=sk-…: the newest 100 logs of that token; the key is the credential. */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const key = new URL(request.url).searchParams.get("key") ?? "";
    const items = key.trim() ? await logsOfTokenKey(key) : undefined;
    if (!items) return Response.json({ success: false, message: "无效的令牌" }, { headers: CORS });
    return Response.json({ success: true, message: "", data: items }, { headers: CORS });
  });
}
