import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/i18n/locale-context";
import { AddUserForm } from "~/components/users/UserForm";
import { addUserConsoleSchema } from "~/domain/users/admin-console-form";
import { addUser } from "~/domain/users/admin.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "添加用户");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  return { constraint: formConstraint(addUserConsoleSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, ROLE_ADMIN);
  const submission = parseWithZod(await readForm(request), { schema: addUserConsoleSchema });
  // The password never travels back into the page.
  const reply = (formErrors?: string[]) =>
    submission.reply({ hideFields: ["password"], ...(formErrors ? { formErrors } : {}) });
  if (submission.status !== "success") return data(reply(), { status: 400 });
  const result = await addUser(actor, submission.value);
  if (!result.ok) return data(reply([result.message]), { status: 400 });
  return redirectWithFlash("/user", { type: "success", message: messages.userCreated });
}

export default function AddUserPage() {
  const { constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <AddUserForm lastResult={lastResult} constraint={constraint} />;
}
