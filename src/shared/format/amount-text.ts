/**
 * An amount as people paste or type it in Chile (and from spreadsheets set up elsewhere):
 * '1.234,56', '1234,5', '1.5', '5000.5', '1,234.56', '1.234'. Returns the number, or why it cannot
 * be read — never a silently different number.
 *
 * Rules, so that no reading is a guess: with both marks, the last one is the decimal mark; with
 * one kind, it is a thousands mark when every group after it has exactly three digits (the Chilean
 * '1.234.567'), otherwise — once, with one or two digits after it — the decimal mark. Anything else
 * (three decimals, mixed groups) is refused.
 */
export type AmountReading =
  | { ok: true; value: number }
  | { ok: false; reason: 'empty' | 'unreadable' | 'negative' | 'too_many_decimals' };

export const AMOUNT_READING_MESSAGES: Record<Exclude<AmountReading, { ok: true }>['reason'], string> = {
  empty: 'Ingrese un monto',
  unreadable: 'No se pudo leer el monto: use el formato 1.234,56',
  negative: 'El monto no puede ser negativo',
  too_many_decimals: 'El monto admite hasta 2 decimales',
};

export function readAmountText(text: string): AmountReading {
  const compact = text.replace(/\s|UF|\$/gi, '');
  if (compact === '') return { ok: false, reason: 'empty' };
  if (compact.startsWith('-')) return { ok: false, reason: 'negative' };
  if (!/^\d[\d.,]*$/.test(compact) || /[.,]$/.test(compact)) return { ok: false, reason: 'unreadable' };
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  let integer: string;
  let decimals = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const decimalMark = lastDot > lastComma ? '.' : ',';
    const thousandsMark = decimalMark === '.' ? ',' : '.';
    const at = compact.lastIndexOf(decimalMark);
    integer = compact.slice(0, at);
    decimals = compact.slice(at + 1);
    if (integer.includes(decimalMark) || !isGrouped(integer, thousandsMark))
      return { ok: false, reason: 'unreadable' };
    integer = integer.replaceAll(thousandsMark, '');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ',';
    if (isGrouped(compact, mark)) {
      integer = compact.replaceAll(mark, '');
    } else {
      const parts = compact.split(mark);
      if (parts.length !== 2) return { ok: false, reason: 'unreadable' };
      [integer, decimals] = parts as [string, string];
    }
  } else {
    integer = compact;
  }
  if (decimals.length > 2) return { ok: false, reason: 'too_many_decimals' };
  return { ok: true, value: Number(decimals ? `${integer}.${decimals}` : integer) };
}

/** '1.234.567' with `.`: the first group 1-3 digits, every other exactly three. */
function isGrouped(text: string, mark: string): boolean {
  if (!text.includes(mark)) return /^\d+$/.test(text);
  const groups = text.split(mark);
  return /^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
}
