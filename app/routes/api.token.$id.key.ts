import type { LoaderFunctionArgs } from "@remix-run/node";
import { revealTokenKey } from "~/domain/tokens/tokens.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, parseId, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

/**
 * The full key of one's own token, for "view key" and "copy". Lists only carry a masked key,
 * so a leaked list (screenshot, log, XSS) does not leak usable keys.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const key = await revealTokenKey(user.id, parseId(params.id));
    return key ? apiOk({ key: `sk-${key}` }) : apiFail("令牌不存在");
  });
}
