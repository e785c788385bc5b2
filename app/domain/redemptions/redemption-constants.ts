/** Redemption constants without any server or schema import, so console pages can use them. */
import { messages } from "~/messages";

/** docs/product.md, Redemption codes: 1 unused, 2 disabled, 3 used. */
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const;

export const DEFAULT_REDEMPTION_QUOTA = 100000;
export const MAX_REDEMPTION_COUNT = 100;
/** The reference's 1–20; counted in characters (a Chinese name of 20 characters fits). */
export const MAX_REDEMPTION_NAME_LENGTH = 20;
/**
 * Guards against a typo of many zeros (and keeps balances far inside what a JavaScript number
 * holds exactly): 10¹⁵ quota is 2 billion dollars at the default 500000 per dollar.
 */
export const MAX_REDEMPTION_QUOTA = 1_000_000_000_000_000;

/** The refusals of this area, from app/messages.ts. */
export const redemptionMessages = {
  nameLength: messages.redemptionNameLength,
  countTooSmall: messages.redemptionCountTooSmall,
  countTooLarge: messages.redemptionCountTooLarge,
  quotaRange: messages.redemptionQuotaRange,
  notFound: messages.redemptionNotFound,
  statusInvalid: messages.redemptionStatusInvalid,
  usedCannotChange: messages.redemptionUsedCannotChange,
  editOnlyUnused: messages.redemptionEditOnlyUnused,
  created: messages.redemptionCreated,
  updated: messages.redemptionUpdated,
  selectFirst: messages.redemptionSelectFirst,
  keyRequired: messages.redeemKeyRequired,
  keyInvalid: messages.redeemKeyInvalid,
  keyUsed: messages.redeemKeyUsed,
  keyDisabled: messages.redeemKeyDisabled,
  redeemed: messages.redeemSuccess,
  tooManyFailures: messages.redeemTooManyFailures,
} as const;

export function redemptionStatusLabel(status: number): { label: string; tone: "green" | "red" | "gray" } {
  if (status === REDEMPTION_STATUS.unused) return { label: "未使用", tone: "green" };
  if (status === REDEMPTION_STATUS.disabled) return { label: "已禁用", tone: "red" };
  if (status === REDEMPTION_STATUS.used) return { label: "已使用", tone: "gray" };
  return { label: "未知状态", tone: "gray" };
}

export function redemptionNameFits(name: string): boolean {
  const length = Array.from(name).length;
  return length >= 1 && length <= MAX_REDEMPTION_NAME_LENGTH;
}

export function redemptionQuotaFits(quota: number): boolean {
  return Number.isSafeInteger(quota) && quota >= 1 && quota <= MAX_REDEMPTION_QUOTA;
}
