import type { LoaderFunctionArgs } from "@remix-run/node";
import { buildPriceList, pricingAudience } from "~/relay/billing/price-list.server";
import { apiOk, apiRoute } from "~/web/api.server";
import { optionalUser } from "~/web/guards.server";

/**
 * `GET /api/pricing` — the reference's TryUserAuth: open to visitors, and a session (no
 * New-Api-User needed for this read) only decides which groups are shown. `group_ratio` sits at
 * the top level beside `data`, as in the reference; `usable_group` is the newer reference's
 * addition (the groups this viewer may switch to).
 */
export function loader({ request }: LoaderFunctionArgs) {
  return apiRoute(async () => {
    const user = await optionalUser(request);
    const list = await buildPriceList(pricingAudience(user));
    return apiOk(list.entries, "", { group_ratio: list.groupRatio, usable_group: list.usableGroups });
  });
}
