/** Display helpers shared by console pages (no server imports: used in components). */
export const QUOTA_PER_UNIT = 500000;

/** The spec's compact numbers: k at 1e4, M at 1e6, B at 1e9. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const trim = (n: number) => String(Number(n.toFixed(2)));
  if (abs >= 1e9) return `${trim(value / 1e9)}B`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${trim(value / 1e3)}k`;
  return String(value);
}

/** Quota as dollars when the operator shows currency, else abbreviated quota units. */
export function renderQuota(quota: number, displayInCurrency: boolean, quotaPerUnit = QUOTA_PER_UNIT, digits = 2): string {
  if (displayInCurrency) return `$${(quota / quotaPerUnit).toFixed(digits)}`;
  return compactNumber(quota);
}
