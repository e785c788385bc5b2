import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/i18n/locale-context";
import { TokenForm } from "~/components/tokens/TokenForm";
import { tokenConsoleSchema, toTokenFields } from "~/domain/tokens/token-console-form";
import { tokenFormContext } from "~/web/tokens/token-page.server";
import { getToken, updateToken } from "~/domain/tokens/tokens.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireUser } from "~/web/guards.server";
import { formatTimestamp } from "~/utils/time-zone";
import { requestTimeZone } from "~/utils/time-zone.server";
import { readForm, requirePathId } from "~/utils/edge-input";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "更新令牌信息");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Another user's id gives the same 404 as a missing one: ids reveal nothing.
  const token = await getToken(user.id, requirePathId(params.id));
  if (!token) throw new Response("Not Found", { status: 404 });
  const timeZone = requestTimeZone(request);
  return {
    ...(await tokenFormContext(user, timeZone)),
    constraint: formConstraint(tokenConsoleSchema),
    token: {
      name: token.name,
      expired_at: token.expired_time === -1 ? "" : formatTimestamp(token.expired_time, timeZone),
      remain_quota: token.remain_quota,
      unlimited_quota: token.unlimited_quota ? "on" : undefined,
      model_limits_enabled: token.model_limits_enabled ? "on" : undefined,
      model_limits: token.model_limits ? token.model_limits.split(",") : [],
      allow_ips: token.allow_ips,
      group: token.group,
      rpm_limit: token.rpm_limit,
      tpm_limit: token.tpm_limit,
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = requirePathId(params.id);
  const submission = parseWithZod(await readForm(request), { schema: tokenConsoleSchema });
  if (submission.status !== "success")
    return data(submission.reply(), { status: submission.status === "error" ? 400 : 200 });
  const result = await updateToken(user, id, toTokenFields(submission.value, requestTimeZone(request)));
  if (!result.ok) return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  return redirectWithFlash("/token", { type: "success", message: "令牌更新成功！" });
}

export default function EditTokenPage() {
  const { token, ...context } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <TokenForm mode="edit" lastResult={lastResult} defaultValue={token} {...context} />;
}
