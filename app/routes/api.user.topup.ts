import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { redeemCode } from "~/domain/redemptions/redeem.server";
import { redemptionMessages } from "~/domain/redemptions/redemption-constants";
import { ROLE_USER } from "~/domain/users/roles";
import { clientIp } from "~/utils/request.server";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

const body = z.object({ key: z.string().default("") });

/** Redeems a code: `data` is the redeemed quota, as the reference answers. */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    const input = await readJson(request, body);
    const result = await redeemCode(user, input.key, clientIp(request));
    if (result.ok) return apiOk(result.quota, redemptionMessages.redeemed);
    return apiFail(result.message, result.reason === "limited" ? 429 : 200);
  });
}
