import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idSchema } from "~/utils/edge-input";
import { readPage } from "~/utils/pagination";
import { DEFAULT_REDEMPTION_QUOTA } from "~/domain/redemptions/redemption-constants";
import {
  createRedemptions,
  listRedemptions,
  setRedemptionStatus,
  toRedemptionJson,
  updateRedemption,
} from "~/domain/redemptions/redemptions.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { apiFail, apiOk, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";

// Numbers arrive as numbers from the reference's console; the domain judges their ranges, so the
// refusals are its business messages (200) and only a wrong type is a 400.
const quota = z.number().int();
const createBody = z.object({
  name: z.string().default(""),
  quota: quota.default(DEFAULT_REDEMPTION_QUOTA),
  count: z.number().int().default(1),
});
const updateBody = z.object({ id: idSchema, name: z.string(), quota });
const statusBody = z.object({ id: idSchema, status: z.number().int() });

export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    await requireApiUser(request, ROLE_ADMIN);
    const { page, size } = readPage(new URL(request.url));
    const { items, total } = await listRedemptions(page, size);
    return apiOk(items.map(toRedemptionJson), "", { total, page, page_size: size });
  });
}

export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const admin = await requireApiUser(request, ROLE_ADMIN);
    if (request.method === "POST") {
      const input = await readJson(request, createBody);
      const result = await createRedemptions(admin, input);
      // The keys, once: nothing returns them afterwards (decision 020).
      return result.ok ? apiOk(result.value) : apiFail(result.message);
    }
    if (request.method === "PUT") {
      if (new URL(request.url).searchParams.get("status_only")) {
        const input = await readJson(request, statusBody);
        const result = await setRedemptionStatus(input.id, input.status);
        return result.ok ? apiOk(toRedemptionJson(result.value)) : apiFail(result.message);
      }
      const input = await readJson(request, updateBody);
      const result = await updateRedemption(input.id, input);
      return result.ok ? apiOk(toRedemptionJson(result.value)) : apiFail(result.message);
    }
    return apiFail("方法不允许", 405);
  });
}
