import { TOKEN_STATUS } from "./token-constants";

/** The spec's status tags; an enabled token with model limits says so. */
export function tokenStatusLabel(status: number, modelLimitsEnabled: boolean): { label: string; tone: "green" | "gray" | "yellow" | "red" } {
  switch (status) {
    case TOKEN_STATUS.enabled:
      return { label: modelLimitsEnabled ? "已启用：限制模型" : "已启用", tone: "green" };
    case TOKEN_STATUS.disabled:
      return { label: "已禁用", tone: "red" };
    case TOKEN_STATUS.expired:
      return { label: "已过期", tone: "yellow" };
    case TOKEN_STATUS.exhausted:
      return { label: "已耗尽", tone: "gray" };
    default:
      return { label: "未知状态", tone: "gray" };
  }
}
