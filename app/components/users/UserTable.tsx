import { Form, Link, useLocation } from "@remix-run/react";
import { ConfirmButton } from "~/components/ConfirmButton";
import { RowPopover } from "~/components/RowPopover";
import { StatusTag } from "~/components/StatusTag";
import { useT, type PageText } from "~/components/i18n/locale-context";
import type { ManageAction } from "~/domain/users/admin-rules";
import { userRoleTag, userStatusTag } from "~/domain/users/user-display";
import { renderQuota } from "~/utils/format";
import { USER_STATUS_ENABLED } from "~/domain/users/roles";

export type UserRow = {
  id: number;
  username: string;
  display_name: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  role: number;
  status: number;
  deregistered: boolean;
  inviter_id: number;
  /** What the signed-in admin may do on this row (admin-rules.ts rowOperations). */
  edit: boolean;
  actions: ManageAction[];
};

type Props = { users: UserRow[]; displayInCurrency: boolean; quotaPerUnit: number };

const actionLabels: Record<ManageAction, string> = {
  promote: "提升",
  demote: "降级",
  disable: "禁用",
  enable: "启用",
  delete: "注销",
};

function question(t: PageText, action: ManageAction, name: string): string {
  switch (action) {
    case "promote":
      return t("确定要将用户 {{name}} 提升为管理员吗？", { name });
    case "demote":
      return t("确定要将用户 {{name}} 降级为普通用户吗？", { name });
    case "disable":
      return t("确定要禁用用户 {{name}} 吗？", { name });
    case "enable":
      return t("确定要启用用户 {{name}} 吗？", { name });
    case "delete":
      return t("确定要注销用户 {{name}} 吗？相当于删除用户，此修改将不可逆", { name });
  }
}

/**
 * 添加额度 as a <details> panel (the product's dialog without JavaScript): a signed amount the
 * database adds to the balance, never leaving it below zero.
 */
function AddQuotaDialog({ user }: { user: UserRow }) {
  const t = useT();
  return (
    <RowPopover
      summary={t("添加额度")}
      summaryClassName="text-blue-600 dark:text-blue-400"
      testId={`add-quota-${user.username}`}
    >
      <Form method="post" className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="add-quota" />
        <input type="hidden" name="id" value={user.id} />
        <label className="label" htmlFor={`quota-delta-${user.id}`}>
          {t("增加的额度（负数为扣减）")}
        </label>
        <input
          id={`quota-delta-${user.id}`}
          name="quota_delta"
          type="number"
          step={1}
          required
          className="input"
          placeholder={t("例如 500000 或 -500000")}
        />
        <p className="text-xs text-gray-500">{t("额度不会被扣减到 0 以下。")}</p>
        <button type="submit" className="btn-primary">
          {t("确定添加")}
        </button>
      </Form>
    </RowPopover>
  );
}

export function UserTable({ users, displayInCurrency, quotaPerUnit }: Props) {
  // A new body per navigation: after an operation every row's <details> panels start closed again.
  const { key: navigation } = useLocation();
  const t = useT();
  if (users.length === 0) return <p className="card text-sm text-gray-500">{t("暂无用户")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="card-rows w-full sm:min-w-[960px] border-collapse text-sm" data-testid="user-table">
        <thead>
          <tr className="border-b border-gray-200 text-left dark:border-gray-700">
            <th className="p-2">ID</th>
            <th className="p-2">{t("用户名")}</th>
            <th className="p-2">{t("显示名称")}</th>
            <th className="p-2">{t("分组")}</th>
            <th className="p-2">{t("已用/剩余额度")}</th>
            <th className="p-2">{t("请求次数")}</th>
            <th className="p-2">{t("角色")}</th>
            <th className="p-2">{t("状态")}</th>
            <th className="p-2">{t("邀请人")}</th>
            <th className="actions-col p-2">{t("操作")}</th>
          </tr>
        </thead>
        <tbody key={navigation}>
          {users.map((user) => {
            const status = userStatusTag(user.status, user.deregistered);
            const role = userRoleTag(user.role);
            return (
              <tr
                key={user.id}
                className={`border-b border-gray-100 align-top dark:border-gray-800 ${user.status !== USER_STATUS_ENABLED || user.deregistered ? "opacity-60" : ""}`}
                data-testid={`user-row-${user.username}`}
              >
                <td data-label="ID" className="p-2">
                  {user.id}
                </td>
                <td data-label={t("用户名")} className="p-2 font-medium">
                  {user.username}
                </td>
                <td data-label={t("显示名称")} className="p-2">
                  {user.display_name}
                </td>
                <td data-label={t("分组")} className="p-2" data-testid="user-group">
                  {user.group}
                </td>
                <td data-label={t("已用/剩余额度")} className="p-2 whitespace-nowrap" data-testid="user-quota">
                  <div>
                    {t("已用 {{quota}}", { quota: renderQuota(user.used_quota, displayInCurrency, quotaPerUnit) })}
                  </div>
                  <div>{t("剩余 {{quota}}", { quota: renderQuota(user.quota, displayInCurrency, quotaPerUnit) })}</div>
                </td>
                <td data-label={t("请求次数")} className="p-2">
                  {user.request_count}
                </td>
                <td data-label={t("角色")} className="p-2" data-testid="user-role">
                  <StatusTag tone={role.tone}>{t(role.label)}</StatusTag>
                </td>
                <td data-label={t("状态")} className="p-2" data-testid="user-status">
                  <StatusTag tone={status.tone}>{t(status.label)}</StatusTag>
                </td>
                <td data-label={t("邀请人")} className="p-2">
                  {user.inviter_id > 0 ? user.inviter_id : t("无")}
                </td>
                <td className="actions-col p-2">
                  <div
                    className="flex max-w-[9rem] flex-wrap items-center gap-x-2 gap-y-1 sm:max-w-none"
                    data-testid="user-operations"
                  >
                    {user.edit ? (
                      <Link
                        to={`/user/edit/${user.id}`}
                        className="text-sm text-blue-600 hover:underline dark:text-blue-400"
                      >
                        {t("编辑")}
                      </Link>
                    ) : null}
                    {user.edit ? <AddQuotaDialog user={user} /> : null}
                    {user.actions.map((action) => (
                      <ConfirmButton
                        key={action}
                        label={t(actionLabels[action])}
                        question={question(t, action, user.username)}
                        intent={action}
                        fields={{ id: user.id }}
                        testId={`${action}-${user.username}`}
                      />
                    ))}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
