import Big from 'big.js';

/**
 * Money and fractions travel as decimal strings ("1234.56"); arithmetic is done with big.js.
 * Rounding is half-up to two decimals wherever the spec rounds amounts.
 */

// Half-up rounding for every operation that rounds (Big.roundHalfUp === 1).
Big.RM = Big.roundHalfUp;
// Division keeps plenty of digits; results are rounded explicitly where the spec rounds.
Big.DP = 20;

export type DecimalInput = string | number | Big | null | undefined;

/** A Big from a decimal string or number; null, undefined and '' count as zero. */
export function dec(value: DecimalInput): Big {
  if (value === null || value === undefined || value === '') return new Big(0);
  return new Big(value);
}

/** Rounds half-up to `places` decimals and returns the fixed-point string ("12.50"). */
export function toFixed(value: Big, places = 2): string {
  return value.round(places, Big.roundHalfUp).toFixed(places);
}

/** Money value: rounded half-up to two decimals, as a string. */
export function money(value: Big): string {
  return toFixed(value, 2);
}

/** True when the string is a plain decimal number ("12", "12.5", "-0.25"). */
export function isDecimalString(value: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(value);
}

export { Big };
