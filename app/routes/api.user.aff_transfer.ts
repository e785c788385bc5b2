import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { transferAffQuota } from "~/domain/users/affiliate.server";
import { ROLE_USER } from "~/domain/users/roles";
import { messages } from "~/messages";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

// The reference binds an int; below the minimum or above the earnings is a business refusal.
const body = z.object({ quota: z.number().int() });

/** Moves invite earnings into the caller's balance (decision 015). */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    const { quota } = await readJson(request, body);
    const result = await transferAffQuota(user, quota);
    return result.ok ? apiOk(undefined, messages.affTransferDone) : apiFail(result.message);
  });
}

export function loader() {
  return apiFail("方法不允许", 405);
}
