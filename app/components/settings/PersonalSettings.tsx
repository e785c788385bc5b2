import { Form, Link } from "@remix-run/react";
import { useMessage, useT } from "~/components/i18n/locale-context";
import { OAuthBindCards } from "./OAuthBindCards";
import { EmailBindCard } from "./EmailBindCard";
import { messages } from "~/messages";
import { renderQuota } from "~/utils/format";
import { validityMessagesProp } from "~/web/form-constraint";
import { CopyField } from "~/components/CopyField";
import { useCardResult, type PersonalTab as Me } from "./card-parts";
import { AccessTokenCard, DeleteAccountCard, PasswordCard } from "./SecurityCards";

type Props = { data: Me };

function AccountCard({ me }: { me: Me }) {
  const t = useT();
  const result = useCardResult("profile");
  const error = result?.fieldErrors?.display_name?.[0];
  return (
    <section className="card">
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">{t("账户信息")}</h2>
        <Link to="/user/edit" className="btn-secondary">
          {t("更新个人信息")}
        </Link>
      </div>
      <dl className="mt-3 grid grid-cols-[6rem_1fr] gap-1 text-sm">
        <dt className="text-gray-500">{t("用户名")}</dt>
        <dd>{me.username}</dd>
        <dt className="text-gray-500">{t("显示名称")}</dt>
        <dd>{me.displayName}</dd>
        <dt className="text-gray-500">{t("角色")}</dt>
        <dd>{t(me.role)}</dd>
        <dt className="text-gray-500">{t("分组")}</dt>
        <dd>{me.group}</dd>
      </dl>
      <Form method="post" className="mt-3 flex items-end gap-2">
        <input type="hidden" name="intent" value="profile" />
        <div className="flex-1">
          <label className="label" htmlFor="profile-display-name">
            {t("修改显示名称")}
          </label>
          <input
            id="profile-display-name"
            name="display_name"
            className="input"
            defaultValue={me.displayName}
            maxLength={20}
            aria-invalid={error ? true : undefined}
          />
          {error ? <p className="field-error">{error}</p> : null}
        </div>
        <button type="submit" className="btn-secondary">
          {t("保存")}
        </button>
      </Form>
    </section>
  );
}

/** A click on a name selects it (select-all) with or without script; with the enhancement script it is also copied. */
function ModelsCard({ models }: { models: string[] }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="models-title">
      <h2 id="models-title" className="mb-1 font-semibold">
        {t("可用模型")}
      </h2>
      <p className="mb-3 text-sm text-gray-500">{t("点击模型名称即可复制")}</p>
      {models.length === 0 ? (
        <p className="text-sm text-gray-500">{t("暂无可用模型")}</p>
      ) : (
        <ul className="flex flex-wrap gap-2" data-testid="model-tags">
          {models.map((name) => (
            <li key={name}>
              <code
                className="cursor-pointer select-all rounded bg-gray-100 px-2 py-0.5 text-sm dark:bg-gray-700"
                title={t("点击复制")}
                data-copy={name}
                data-copied-text={t("已复制：{text}")}
                data-copied-into="#models-copied"
              >
                {name}
              </code>
            </li>
          ))}
        </ul>
      )}
      <p id="models-copied" className="mt-2 text-sm text-green-700 dark:text-green-300" aria-live="polite" />
    </section>
  );
}

function InviteCard({ me }: { me: Me }) {
  const t = useT();
  const message = useMessage();
  const result = useCardResult("aff-transfer");
  const error = result?.fieldErrors?.quota?.[0] ?? result?.error;
  const { inCurrency, quotaPerUnit } = me.display;
  const show = (quota: number) => renderQuota(quota, inCurrency, quotaPerUnit);
  const { invite } = me;
  const canTransfer = invite.quota >= invite.minTransfer;
  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title" className="mb-3 font-semibold">
        {t("邀请信息")}
      </h2>
      <CopyField id="invite-link" label={t("邀请链接")} value={invite.link} />
      <dl className="mt-3 grid grid-cols-3 gap-2 text-center text-sm" data-testid="invite-figures">
        <div>
          <dt className="text-gray-500">{t("邀请人数")}</dt>
          <dd className="text-lg font-semibold" data-testid="aff-count">
            {invite.count}
          </dd>
        </div>
        <div>
          <dt className="text-gray-500">{t("待使用收益")}</dt>
          <dd className="text-lg font-semibold" data-testid="aff-quota">
            {show(invite.quota)}
          </dd>
        </div>
        <div>
          <dt className="text-gray-500">{t("总收益")}</dt>
          <dd className="text-lg font-semibold" data-testid="aff-history">
            {show(invite.history)}
          </dd>
        </div>
      </dl>
      <Form method="post" className="mt-3 flex flex-col gap-2">
        <input type="hidden" name="intent" value="aff-transfer" />
        <label className="label" htmlFor="aff-transfer-quota">
          {t("划转到余额（额度，最低 {{min}}，可用 {{available}}）", {
            min: show(invite.minTransfer),
            available: show(invite.quota),
          })}
        </label>
        <div className="flex gap-2">
          <input
            id="aff-transfer-quota"
            name="quota"
            type="number"
            className="input flex-1"
            required
            step={1}
            min={invite.minTransfer}
            max={canTransfer ? invite.quota : undefined}
            {...validityMessagesProp({
              rangeUnderflow: message(messages.affTransferMin.replace("{amount}", show(invite.minTransfer))),
              rangeOverflow: t(messages.affTransferInsufficient),
            })}
            defaultValue={canTransfer ? invite.quota : invite.minTransfer}
            aria-invalid={error ? true : undefined}
          />
          <button type="submit" className="btn-primary">
            {t("划转")}
          </button>
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </Form>
    </section>
  );
}

function BoundIdentities({ bindings }: { bindings: Me["bindings"] }) {
  const t = useT();
  const rows: [string, string][] = [
    [t("邮箱"), bindings.email],
    ["GitHub", bindings.githubId],
    [t("微信"), bindings.wechatId],
    ["Telegram", bindings.telegramId],
  ];
  return (
    <dl className="grid grid-cols-[6rem_1fr] gap-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-gray-500">{label}</dt>
          <dd>{value || t("未绑定")}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PersonalSettings({ data: me }: Props) {
  const t = useT();
  return (
    <div className="flex max-w-lg flex-col gap-4">
      <AccountCard me={me} />
      <ModelsCard models={me.models} />
      <InviteCard me={me} />
      <section className="card flex flex-col gap-3" aria-labelledby="bindings-title">
        <h2 id="bindings-title" className="font-semibold">
          {t("账户绑定")}
        </h2>
        <BoundIdentities bindings={me.bindings} />
      </section>
      {/* The binding forms are cards of their own (each shows only what can be bound now). */}
      <EmailBindCard data={me.emailBinding} />
      <OAuthBindCards data={me} />
      <AccessTokenCard />
      <PasswordCard constraint={me.passwordConstraint} />
      <DeleteAccountCard me={me} />
    </div>
  );
}
