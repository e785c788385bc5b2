import { getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { z } from "zod";
import { FlashBanner } from "~/components/FlashBanner";
import { browserCheckedFormProps } from "~/components/form-props";
import { pageTitle, useMessage, useT } from "~/components/i18n/locale-context";

import { editSelfSchema } from "~/domain/users/forms";
import { updateSelf } from "~/domain/users/self-service.server";
import { messages } from "~/messages";
import { readForm } from "~/utils/edge-input";
import { redirectWithFlash } from "~/utils/flash.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireUser } from "~/web/guards.server";
import { currentSessionId } from "~/web/session-cookie.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "更新个人信息");

/**
 * The product's /user/edit without an id: any signed-in user edits their own account. The form
 * carries no id; the action always changes the session's user, so nobody can edit another here.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    defaultValue: { username: user.username, display_name: user.display_name, password: "", original_password: "" },
    constraint: formConstraint(editSelfSchema),
  };
}

const HIDDEN = { hideFields: ["password", "original_password"] };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: editSelfSchema });
  if (submission.status !== "success") return data(submission.reply(HIDDEN), { status: 400 });
  const { username, display_name, password, original_password } = submission.value;
  const result = await updateSelf(
    user,
    { username, display_name: display_name ?? "", password, original_password },
    await currentSessionId(request),
  );
  if (!result.ok) return data(submission.reply({ formErrors: [result.message], ...HIDDEN }), { status: 400 });
  return redirectWithFlash("/setting", { type: "success", message: messages.userUpdated });
}

function Err({ errors }: { errors?: string[] }) {
  return errors?.length ? <p className="field-error">{errors[0]}</p> : null;
}

export default function EditSelfPage() {
  const t = useT();
  const page = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const message = useMessage();
  const [form, fields] = useForm<z.input<typeof editSelfSchema>>({
    lastResult,
    defaultValue: page.defaultValue,
    constraint: page.constraint,
  });
  return (
    <Form
      method="post"
      {...browserCheckedFormProps(form, page.constraint, message)}
      className="card flex max-w-xl flex-col gap-4"
    >
      <h1 className="text-xl font-bold">{t("更新个人信息")}</h1>
      {form.errors?.length ? <FlashBanner type="error" message={form.errors[0] ?? ""} /> : null}
      <div>
        <label className="label" htmlFor={fields.username.id}>
          {t("用户名")}
        </label>
        <input
          {...getInputProps(fields.username, { type: "text" })}
          className="input"
          placeholder={t("请输入新的用户名")}
          autoComplete="username"
        />
        <Err errors={fields.username.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.display_name.id}>
          {t("显示名称")}
        </label>
        <input
          {...getInputProps(fields.display_name, { type: "text" })}
          className="input"
          placeholder={t("请输入新的显示名称")}
        />
        <Err errors={fields.display_name.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.password.id}>
          {t("密码")}
        </label>
        <input
          {...getInputProps(fields.password, { type: "password" })}
          className="input"
          placeholder={t("请输入新的密码，留空则不修改")}
          autoComplete="new-password"
        />
        <Err errors={fields.password.errors} />
      </div>
      <div>
        <label className="label" htmlFor={fields.original_password.id}>
          {t("原密码")}
        </label>
        <input
          {...getInputProps(fields.original_password, { type: "password" })}
          className="input"
          placeholder={t("修改密码时需要")}
          autoComplete="current-password"
        />
        <Err errors={fields.original_password.errors} />
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          {t("提交")}
        </button>
        <Link to="/setting" className="btn-secondary">
          {t("取消")}
        </Link>
      </div>
    </Form>
  );
}
