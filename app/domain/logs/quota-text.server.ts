import { options } from "~/domain/options/store.server";

/**
 * An amount of quota as the reference writes it into log text (`LogQuota`): dollars with six
 * decimals when the operator shows currency, else whole quota points. The wording is frozen into
 * the row when it is written, as in the reference.
 */
export function logQuotaText(quota: number): string {
  if (options.bool("DisplayInCurrencyEnabled"))
    return `＄${(quota / (options.float("QuotaPerUnit") || 500000)).toFixed(6)} 额度`;
  return `${quota} 点额度`;
}
