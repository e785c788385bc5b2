import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { formatYuan } from "~/domain/payments/money";
import { quoteTopUp } from "~/domain/payments/topup-orders.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { topUpError, topUpRefusalText, topUpReply } from "~/web/wallet/topup-refusals";

// top_up_code is part of the reference's request and unused there too.
const body = z.object({ amount: z.number().int().safe(), top_up_code: z.string().max(64).optional() });

/** The payable sum for an amount: `{message:"success", data:"73.00"}` (yuan, two decimals), as the reference. */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    const { amount } = await readJson(request, body);
    const quoted = quoteTopUp(user, amount);
    return quoted.ok ? topUpReply(formatYuan(quoted.quote.cents)) : topUpError(topUpRefusalText(quoted.refusal, "api"));
  });
}
