/** Display helpers shared by console pages (no server imports: used in components). */
export const QUOTA_PER_UNIT = 500000;

/** The product's compact numbers: k at 1e4, M at 1e6, B at 1e9. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const trim = (n: number) => String(Number(n.toFixed(2)));
  if (abs >= 1e9) return `${trim(value / 1e9)}B`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${trim(value / 1e3)}k`;
  return String(value);
}

/** Quota as dollars when the operator shows currency, else abbreviated quota units. */
export function renderQuota(
  quota: number,
  displayInCurrency: boolean,
  quotaPerUnit = QUOTA_PER_UNIT,
  digits = 2,
): string {
  if (displayInCurrency) return `$${dollars(quota / quotaPerUnit, digits)}`;
  return compactNumber(quota);
}

/**
 * A non-zero amount must never read as $0.00 next to a row that says $0.000006: amounts the
 * requested digits would round to zero get up to six decimals, trailing zeros dropped.
 */
function dollars(amount: number, digits: number): string {
  const fixed = amount.toFixed(digits);
  if (amount === 0 || Number(fixed) !== 0 || digits >= 6) return fixed;
  const fine = amount.toFixed(6);
  return Number(fine) === 0 ? fine : fine.replace(/0+$/, "");
}
