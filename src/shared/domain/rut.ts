/**
 * Chilean RUT (Rol Único Tributario): body digits plus a módulo-11 check digit (0-9 or K).
 * Stored normalised as '12345678-5' (no dots, upper-case K); shown as '12.345.678-5'.
 */

const RUT_SHAPE = /^(\d{1,9})-?([\dK])$/;

/** Strips dots, spaces and a stray dash, upper-cases K. Does not validate. */
function compact(input: string): string {
  return input.replace(/[.\s]/g, '').toUpperCase();
}

/** The módulo-11 check digit for a RUT body ('12345678' -> '5'). */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const rest = 11 - (sum % 11);
  if (rest === 11) return '0';
  if (rest === 10) return 'K';
  return String(rest);
}

/**
 * The normalised form ('12345678-5') of a RUT written with or without dots and dash,
 * or null when it is malformed or its check digit is wrong.
 */
export function normalizeRut(input: string): string | null {
  const match = RUT_SHAPE.exec(compact(input));
  if (!match) return null;
  const body = match[1]!.replace(/^0+/, '');
  const digit = match[2]!;
  if (body.length === 0 || rutCheckDigit(body) !== digit) return null;
  return `${body}-${digit}`;
}

export function isValidRut(input: string): boolean {
  return normalizeRut(input) !== null;
}

/** '12345678-5' (or any accepted spelling) -> '12.345.678-5'. Returns the input unchanged if malformed. */
export function formatRut(input: string): string {
  const match = RUT_SHAPE.exec(compact(input));
  if (!match) return input;
  const body = match[1]!.replace(/^0+/, '') || '0';
  return `${body.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${match[2]}`;
}
