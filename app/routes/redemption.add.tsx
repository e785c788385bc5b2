import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/i18n/locale-context";
import { CreatedKeys } from "~/components/redemptions/CreatedKeys";
import { RedemptionForm } from "~/components/redemptions/RedemptionForm";
import { options } from "~/domain/options/store.server";
import { DEFAULT_REDEMPTION_QUOTA } from "~/domain/redemptions/redemption-constants";
import { redemptionConsoleSchema } from "~/domain/redemptions/redemption-form";
import { createRedemptions } from "~/domain/redemptions/redemptions.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { readForm } from "~/utils/edge-input";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "创建新的兑换码");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  return {
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
    constraint: formConstraint(redemptionConsoleSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, ROLE_ADMIN);
  const submission = parseWithZod(await readForm(request), { schema: redemptionConsoleSchema });
  if (submission.status !== "success")
    return data({ reply: submission.reply() }, { status: submission.status === "error" ? 400 : 200 });
  const result = await createRedemptions(admin, submission.value);
  if (!result.ok) return data({ reply: submission.reply({ formErrors: [result.message] }) }, { status: 400 });
  // Answered, not redirected: the keys must reach this page and no other (decision 020).
  return data(
    { created: { name: submission.value.name, keys: result.value } },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function AddRedemptionPage() {
  const context = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (result && "created" in result) return <CreatedKeys name={result.created.name} keys={result.created.keys} />;
  return (
    <RedemptionForm
      mode="create"
      lastResult={result && "reply" in result ? result.reply : undefined}
      defaultValue={{ name: "", quota: DEFAULT_REDEMPTION_QUOTA, count: 1 }}
      {...context}
    />
  );
}
