import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle, useT } from "~/components/i18n/locale-context";
import { RedemptionForm } from "~/components/redemptions/RedemptionForm";
import { options } from "~/domain/options/store.server";
import { REDEMPTION_STATUS, redemptionMessages } from "~/domain/redemptions/redemption-constants";
import { redemptionConsoleSchema } from "~/domain/redemptions/redemption-form";
import { getRedemption, updateRedemption } from "~/domain/redemptions/redemptions.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { readForm, requirePathId } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "更新兑换码信息");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const row = await getRedemption(requirePathId(params.id));
  if (!row) throw new Response(redemptionMessages.notFound, { status: 404 });
  return {
    row: { id: row.id, name: row.name, quota: row.quota, editable: row.status === REDEMPTION_STATUS.unused },
    displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
    quotaPerUnit: options.float("QuotaPerUnit"),
    constraint: formConstraint(redemptionConsoleSchema),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  const id = requirePathId(params.id);
  const submission = parseWithZod(await readForm(request), { schema: redemptionConsoleSchema });
  if (submission.status !== "success")
    return data(submission.reply(), { status: submission.status === "error" ? 400 : 200 });
  const result = await updateRedemption(id, submission.value);
  if (!result.ok) return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  return redirectWithFlash("/redemption", { type: "success", message: redemptionMessages.updated });
}

export default function EditRedemptionPage() {
  const { row, ...context } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const t = useT();
  if (!row.editable) {
    return (
      <div className="card flex max-w-2xl flex-col gap-3">
        <h1 className="text-xl font-bold">{t("更新兑换码信息")}</h1>
        <p>{t(redemptionMessages.editOnlyUnused)}</p>
        <Link to="/redemption" className="btn-secondary self-start">
          {t("返回兑换码列表")}
        </Link>
      </div>
    );
  }
  return (
    <RedemptionForm
      mode="edit"
      lastResult={lastResult}
      defaultValue={{ name: row.name, quota: row.quota, count: 1 }}
      {...context}
    />
  );
}
