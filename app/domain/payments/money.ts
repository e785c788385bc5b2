/**
 * Top-up money math in exact decimals. The payable sum is amount × Price × TopupGroupRatio (the
 * amount first divided by QuotaPerUnit when the console shows quota instead of dollars), as the
 * reference computes it with a decimal library; here every factor is taken as the decimal its
 * option was written as and the product is rounded once, half up, to fen (0.01 yuan). Money is
 * then an integer of fen everywhere: stored, signed as "73.00", and compared with what the
 * gateway says was paid.
 */
type Fraction = { num: bigint; den: bigint };

const TEN = 10n;

/** A finite, non-negative number as the exact decimal its shortest printed form names ("7.3" is 73/10). */
function fractionOf(value: number): Fraction {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`not a non-negative finite number: ${value}`);
  const [, whole = "0", frac = "", exp = "0"] = match;
  const shift = Number(exp) - frac.length;
  const digits = BigInt(whole + frac);
  return shift >= 0 ? { num: digits * TEN ** BigInt(shift), den: 1n } : { num: digits, den: TEN ** BigInt(-shift) };
}

export type PayableInput = {
  /** What the user asked for: dollars, or quota units when currency display is off. */
  amount: number;
  price: number;
  /** The user's group's TopupGroupRatio (0 or missing means 1, as in the reference). */
  groupRatio: number;
  displayInCurrency: boolean;
  quotaPerUnit: number;
};

/** The payable sum in fen, or undefined when it is not a sum one could pay (negative, absurd). */
export function payableCents(input: PayableInput): number | undefined {
  if (!Number.isSafeInteger(input.amount) || input.amount < 0) return undefined;
  const ratio = input.groupRatio > 0 && Number.isFinite(input.groupRatio) ? input.groupRatio : 1;
  if (!(input.price >= 0) || !Number.isFinite(input.price) || !(input.quotaPerUnit > 0)) return undefined;
  const price = fractionOf(input.price);
  const group = fractionOf(ratio);
  const perUnit = input.displayInCurrency ? { num: 1n, den: 1n } : fractionOf(input.quotaPerUnit);
  // cents = amount × price × ratio × 100 / perUnit, exactly, then half up.
  const num = BigInt(input.amount) * price.num * group.num * 100n * perUnit.den;
  const den = price.den * group.den * perUnit.num;
  const cents = (2n * num + den) / (2n * den);
  return cents <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cents) : undefined;
}

/** The quota an order of `amount` credits: dollars × QuotaPerUnit, or the quota units themselves. */
export function quotaForAmount(amount: number, displayInCurrency: boolean, quotaPerUnit: number): number | undefined {
  const quota = displayInCurrency ? Math.floor(amount * quotaPerUnit) : amount;
  return Number.isSafeInteger(quota) && quota >= 0 ? quota : undefined;
}

/** The smallest amount one may ask for: MinTopUp dollars, in quota units when currency display is off. */
export function minimumAmount(minTopUp: number, displayInCurrency: boolean, quotaPerUnit: number): number {
  return displayInCurrency ? minTopUp : Math.floor(minTopUp * quotaPerUnit);
}

/** Fen as the yuan string Epay signs and shows: 7300 → "73.00". */
export function formatYuan(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, "0");
  return `${whole}.${rest}`;
}

/**
 * A gateway's `money` ("73.00", "73.0", "73") as fen, or undefined when it is not a plain
 * decimal with at most two places: anything else cannot equal an order and is refused.
 */
export function parseYuan(text: string): number | undefined {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, whole = "0", frac = ""] = match;
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}
