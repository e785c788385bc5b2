import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PAYMENT_METHODS, type PaymentMethod } from "~/domain/payments/epay-sign";
import { createTopUpOrder } from "~/domain/payments/topup-orders.server";
import { ROLE_USER } from "~/domain/users/roles";
import { apiFail, apiRoute, readJson, requireApiUser } from "~/web/api.server";
import { whenBooted } from "~/utils/boot-gate.server";
import { topUpError, topUpRefusalText, topUpReply } from "~/web/wallet/topup-refusals";

const body = z.object({
  amount: z.number().int().safe(),
  payment_method: z.enum(PAYMENT_METHODS as [PaymentMethod, ...PaymentMethod[]]),
  top_up_code: z.string().max(64).optional(),
});

/**
 * Creates a pending order and answers the signed Epay form, as the reference:
 * `{message:"success", data:{pid,type,out_trade_no,notify_url,name,money,device,sign,sign_type,return_url}, url:"{PayAddress}/submit.php"}`.
 * The console (or a script) posts `data` as a form to `url`.
 */
export function action({ request }: ActionFunctionArgs) {
  return apiRoute(async () => {
    await whenBooted();
    const user = await requireApiUser(request, ROLE_USER);
    if (request.method !== "POST") return apiFail("方法不允许", 405);
    const input = await readJson(request, body);
    const created = await createTopUpOrder(user, input.amount, input.payment_method);
    return created.ok
      ? topUpReply(created.form.params, created.form.url)
      : topUpError(topUpRefusalText(created.refusal, "api"));
  });
}
