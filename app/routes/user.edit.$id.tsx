import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { User } from "../../db/schema";
import { FlashBanner } from "~/components/FlashBanner";
import { pageTitle, useMessage } from "~/components/i18n/locale-context";
import { EditUserForm } from "~/components/users/UserForm";
import { listGroupNames } from "~/domain/groups/groups.server";
import { options } from "~/domain/options/store.server";
import { editUserConsoleSchema, toUserEdit } from "~/domain/users/admin-console-form";
import { editRefusal, ruleMessages } from "~/domain/users/admin-rules";
import { editUser, getUserForAdmin } from "~/domain/users/admin.server";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { messages } from "~/messages";
import { readForm, requirePathId } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "更新用户信息");

/**
 * The target if the signed-in admin may edit it, else why not. A missing id is a 404; a user
 * above the admin, root (for anyone but root) or a deregistered account answers 403 with the
 * domain's reason (the same rules as PUT /api/user/).
 */
async function editable(actor: User, id: number): Promise<{ target: User } | { refusal: string }> {
  const found = await getUserForAdmin(actor, id);
  if (!found.ok) {
    if (found.message === ruleMessages.notFound) throw new Response("Not Found", { status: 404 });
    return { refusal: found.message };
  }
  const refusal = editRefusal(actor, found.value);
  return refusal ? { refusal } : { target: found.value };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = await requireRole(request, ROLE_ADMIN);
  const allowed = await editable(actor, requirePathId(params.id));
  if ("refusal" in allowed) return data({ refusal: allowed.refusal, form: null }, { status: 403 });
  const { target } = allowed;
  const groups = listGroupNames();
  return {
    refusal: null,
    form: {
      defaultValue: {
        username: target.username,
        display_name: target.display_name,
        password: "",
        email: target.email,
        group: target.group,
        quota: String(target.quota),
        original_quota: String(target.quota),
      },
      context: {
        self: target.id === actor.id,
        groups: groups.includes(target.group) ? groups : [target.group, ...groups],
        quota: target.quota,
        bindings: { github_id: target.github_id, wechat_id: target.wechat_id, telegram_id: target.telegram_id },
        displayInCurrency: options.bool("DisplayInCurrencyEnabled"),
        quotaPerUnit: options.float("QuotaPerUnit"),
      },
      constraint: formConstraint(editUserConsoleSchema),
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const actor = await requireRole(request, ROLE_ADMIN);
  const id = requirePathId(params.id);
  const submission = parseWithZod(await readForm(request), { schema: editUserConsoleSchema });
  const reply = (formErrors?: string[]) =>
    submission.reply({ hideFields: ["password"], ...(formErrors ? { formErrors } : {}) });
  if (submission.status !== "success") return data(reply(), { status: 400 });
  // A refusal answers 403 here; editUser checks the same rules again on its own.
  const allowed = await editable(actor, id);
  if ("refusal" in allowed) return data(reply([allowed.refusal]), { status: 403 });
  const result = await editUser(actor, toUserEdit(id, submission.value, allowed.target.id === actor.id));
  if (!result.ok) return data(reply([result.message]), { status: 400 });
  return redirectWithFlash("/user", { type: "success", message: messages.userUpdated });
}

export default function EditUserPage() {
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const message = useMessage();
  if (!page.form) return <FlashBanner type="error" message={message(page.refusal ?? messages.forbidden)} />;
  return (
    <EditUserForm
      lastResult={lastResult}
      defaultValue={page.form.defaultValue}
      context={page.form.context}
      constraint={page.form.constraint}
    />
  );
}
