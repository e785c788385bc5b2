import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { changePasswordSchema } from "~/domain/users/forms";
import { roleLabel } from "~/domain/users/roles";
import { updateSelf } from "~/domain/users/self-service.server";
import { messages } from "~/messages";
import { redirectWithFlash } from "~/utils/flash.server";
import { requireUser } from "~/web/guards.server";
import { readForm } from "~/utils/edge-input";

export const meta: MetaFunction = () => [{ title: "设置" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { username: user.username, displayName: user.display_name, role: roleLabel(user.role), group: user.group };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: changePasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ resetForm: false, hideFields: ["original_password", "password", "password2"] }), { status: 400 });
  const result = await updateSelf(user, submission.value, request);
  if (!result.ok) return data(submission.reply({ fieldErrors: { original_password: [result.message] }, hideFields: ["original_password", "password", "password2"] }), { status: 400 });
  return redirectWithFlash("/setting", { type: "success", message: messages.passwordChanged });
}

export default function SettingPage() {
  const me = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <div className="flex max-w-lg flex-col gap-4">
      <section className="card">
        <h1 className="text-xl font-bold">个人设置</h1>
        <dl className="mt-3 grid grid-cols-[6rem_1fr] gap-1 text-sm">
          <dt className="text-gray-500">用户名</dt><dd>{me.username}</dd>
          <dt className="text-gray-500">显示名称</dt><dd>{me.displayName}</dd>
          <dt className="text-gray-500">角色</dt><dd>{me.role}</dd>
          <dt className="text-gray-500">分组</dt><dd>{me.group}</dd>
        </dl>
      </section>
      <section className="card">
        <h2 className="mb-3 font-semibold">修改密码</h2>
        {form.errors?.map((e) => <FlashBanner key={e} type="error" message={e} />)}
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
          {([
            [fields.original_password, "原密码", "current-password"],
            [fields.password, "新密码", "new-password"],
            [fields.password2, "确认新密码", "new-password"],
          ] as const).map(([field, label, autoComplete]) => (
            <div key={field.name}>
              <label className="label" htmlFor={field.id}>{label}</label>
              <input {...getInputProps(field, { type: "password" })} className="input" autoComplete={autoComplete} />
              {field.errors ? <p className="field-error">{field.errors[0]}</p> : null}
            </div>
          ))}
          <button type="submit" className="btn-primary self-start">确认修改</button>
        </Form>
      </section>
    </div>
  );
}
