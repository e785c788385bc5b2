import type { Tone } from "~/components/StatusTag";
import { compactNumber } from "~/utils/format";
import { CHANNEL_STATUS } from "./channel-status";

/** Console presentation rules of docs/product.md for channel rows (pure, shared by pages and tests). */
export function channelStatusTag(status: number): { label: string; tone: Tone } {
  if (status === CHANNEL_STATUS.enabled) return { label: "已启用", tone: "green" };
  if (status === CHANNEL_STATUS.manuallyDisabled) return { label: "已禁用", tone: "red" };
  if (status === CHANNEL_STATUS.autoDisabled) return { label: "自动禁用", tone: "yellow" };
  return { label: "未知状态", tone: "gray" };
}

/** 0 untested; ≤1 s green; ≤3 s lime; ≤5 s yellow; else red. */
export function responseTimeTone(ms: number): { label: string; tone: Tone } {
  if (!ms) return { label: "未测试", tone: "gray" };
  const seconds = ms / 1000;
  const label = `${seconds.toFixed(2)} 秒`;
  if (seconds <= 1) return { label, tone: "green" };
  if (seconds <= 3) return { label, tone: "lime" };
  if (seconds <= 5) return { label, tone: "yellow" };
  return { label, tone: "red" };
}

/** Balances of 100000 and more are abbreviated. */
export function renderBalance(balance: number): string {
  return balance >= 100000 ? `$${compactNumber(balance)}` : `$${balance.toFixed(2)}`;
}

/**
 * The auto-disable reason and time kept in other_info, for the status tooltip. Apart, so the
 * page reads the stored (Chinese) reason in its reader's language before joining the time.
 */
export function statusReason(otherInfo: string): { reason: string; time?: number } {
  try {
    const info = JSON.parse(otherInfo || "{}") as { status_reason?: string; status_time?: number };
    return { reason: info.status_reason ?? "", time: info.status_time || undefined };
  } catch {
    return { reason: "" };
  }
}

/** The last channel test's failure message kept in other_info (cleared by a passing test). */
export function lastTestFailure(otherInfo: string): string {
  try {
    const info = JSON.parse(otherInfo || "{}") as { test_error?: unknown };
    return typeof info.test_error === "string" ? info.test_error : "";
  } catch {
    return "";
  }
}

/** 已启用 / 手动禁用 / 自动禁用, for one key of a multi-key channel. */
export function keyStatusLabel(status: number): string {
  if (status === CHANNEL_STATUS.manuallyDisabled) return "手动禁用";
  if (status === CHANNEL_STATUS.autoDisabled) return "自动禁用";
  return "已启用";
}
