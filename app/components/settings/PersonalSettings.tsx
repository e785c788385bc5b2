import { Form, useActionData } from "@remix-run/react";
import { FlashBanner } from "~/components/FlashBanner";
import { OAuthBindCards } from "./OAuthBindCards";
import { EmailBindCard } from "./EmailBindCard";
import type { loadPersonalTab } from "~/web/settings/personal.server";
import type { SettingsActionResult } from "~/web/settings/tabs";

type Props = { data: Awaited<ReturnType<typeof loadPersonalTab>> };

/** The result of the last submit, when it was this card's intent. */
export function useCardResult(intent: string): SettingsActionResult | undefined {
  const result = useActionData<SettingsActionResult>();
  return result?.intent === intent ? result : undefined;
}

function PasswordCard() {
  const result = useCardResult("password");
  const errors = result?.fieldErrors ?? {};
  return (
    <section className="card">
      <h2 className="mb-3 font-semibold">修改密码</h2>
      {result?.error ? <FlashBanner type="error" message={result.error} /> : null}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="password" />
        {([
          ["original_password", "原密码", "current-password"],
          ["password", "新密码", "new-password"],
          ["password2", "确认新密码", "new-password"],
        ] as const).map(([name, label, autoComplete]) => (
          <div key={name}>
            <label className="label" htmlFor={`password-${name}`}>{label}</label>
            <input id={`password-${name}`} name={name} type="password" className="input" autoComplete={autoComplete} required minLength={name === "original_password" ? 1 : 8} maxLength={name === "original_password" ? undefined : 20} aria-invalid={errors[name] ? true : undefined} />
            {errors[name] ? <p className="field-error">{errors[name][0]}</p> : null}
          </div>
        ))}
        <button type="submit" className="btn-primary self-start">确认修改</button>
      </Form>
    </section>
  );
}

export function PersonalSettings({ data: me }: Props) {
  return (
    <div className="flex max-w-lg flex-col gap-4">
      <section className="card">
        <h2 className="text-lg font-semibold">账户信息</h2>
        <dl className="mt-3 grid grid-cols-[6rem_1fr] gap-1 text-sm">
          <dt className="text-gray-500">用户名</dt><dd>{me.username}</dd>
          <dt className="text-gray-500">显示名称</dt><dd>{me.displayName}</dd>
          <dt className="text-gray-500">角色</dt><dd>{me.role}</dd>
          <dt className="text-gray-500">分组</dt><dd>{me.group}</dd>
        </dl>
      </section>
      <OAuthBindCards data={me} />
      <EmailBindCard data={me.emailBinding} />
      <PasswordCard />
    </div>
  );
}
