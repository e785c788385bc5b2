import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/i18n/locale-context";
import { TokenForm } from "~/components/tokens/TokenForm";
import { tokenConsoleSchema, toTokenFields } from "~/domain/tokens/token-console-form";
import { DEFAULT_TOKEN_QUOTA } from "~/domain/tokens/token-constants";
import { tokenFormContext } from "~/web/tokens/token-page.server";
import { createTokens } from "~/domain/tokens/tokens.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireUser } from "~/web/guards.server";
import { requestTimeZone } from "~/utils/time-zone.server";
import { readForm } from "~/utils/edge-input";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "创建新的令牌");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    ...(await tokenFormContext(user, requestTimeZone(request))),
    constraint: formConstraint(tokenConsoleSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: tokenConsoleSchema });
  if (submission.status !== "success")
    return data(submission.reply(), { status: submission.status === "error" ? 400 : 200 });
  const result = await createTokens(
    user,
    toTokenFields(submission.value, requestTimeZone(request)),
    submission.value.count,
  );
  if (!result.ok) return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  return redirectWithFlash("/token", {
    type: "success",
    message: `令牌创建成功，共创建 ${result.value.length} 个令牌`,
  });
}

export default function AddTokenPage() {
  const context = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <TokenForm
      mode="create"
      lastResult={lastResult}
      defaultValue={{ remain_quota: DEFAULT_TOKEN_QUOTA, count: 1, expired_at: "", rpm_limit: 0, tpm_limit: 0 }}
      {...context}
    />
  );
}
