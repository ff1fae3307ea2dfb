import { z } from 'zod';
import { dec, toFixed } from '../domain/decimal';
import { formatCLP, formatDate, formatDecimal, formatMonthYear, formatUF, formatUfValue } from '../format';
import { oneLine, stripUnseen } from '../text-safety';

/**
 * A report's columns, defined ONCE here (DESIGN §11): the Spanish header, the row's key and the
 * format. The screen renders them (`displayCell`), the CSV writes them (`csvCell`) and the XLSX writes
 * them as typed cells (`src/server/exports`). A report's row is a plain object whose values are what
 * the API answers: decimal strings for money ('1234.56'), 'YYYY-MM-DD' for dates, text, or null.
 */

/**
 * - `text`: any text (CSV neutralises a leading = + - @, tab or carriage return);
 * - `uf`: a UF amount (decimal string), two decimals; XLSX a number formatted 'UF #,##0.00';
 * - `date`: a calendar day 'YYYY-MM-DD' (or an instant, shown on its Santiago day); XLSX a real date;
 * - `month`: a month 'YYYY-MM-DD' (its first day), shown 'marzo de 2027'; XLSX a date 'mm/yyyy';
 * - `integer`: a whole number (days late);
 * - `clp`: whole pesos ('2401338'), shown '$ 2.401.338'; XLSX a number formatted '"$" #,##0';
 * - `ufValue`: the pesos of one UF ('39902.60'), shown '$ 39.902,60'; XLSX '"$" #,##0.00';
 * - `area`: square metres ('63.00'), shown and written '63,00' (CSV: a number for es-CL Excel);
 *   XLSX a number formatted '#,##0.00'.
 * Text is shown and written without control and bidirectional characters (decision 0058): the CSV
 * writes each line break ' / ', so a record is one line.
 */
export const COLUMN_FORMATS = ['text', 'uf', 'date', 'month', 'integer', 'clp', 'ufValue', 'area'] as const;
export type ColumnFormat = (typeof COLUMN_FORMATS)[number];

export type CellValue = string | number | null | undefined;

export interface ReportColumn<Row> {
  /** The row's key (also the API's sort name where the column sorts). */
  key: Extract<keyof Row, string>;
  /** The Spanish header, exactly as the spec writes it. */
  header: string;
  format: ColumnFormat;
  /** Width in characters in the XLSX (a sensible one per format otherwise). */
  width?: number;
}

export type ReportColumns<Row> = readonly ReportColumn<Row>[];

/** A totals row: values for some keys (sums from SQL); the first column says 'Totales' unless given. */
export type TotalsRow<Row> = Partial<Record<Extract<keyof Row, string>, CellValue>>;

export const TOTALS_LABEL = 'Totales';

/** What an export writes after its rows: one totals row, or several (each labelled in its first column). */
export type ExportTotals<Row> = TotalsRow<Row> | readonly TotalsRow<Row>[];

export function totalsRowsOf<Row>(totals: ExportTotals<Row> | null): readonly TotalsRow<Row>[] {
  if (totals === null) return [];
  return Array.isArray(totals) ? totals : [totals as TotalsRow<Row>];
}

/** Declares a report's columns with the row type checked: `reportColumns<Row>()([...])`. */
export function reportColumns<Row>() {
  return <const Columns extends ReportColumns<Row>>(columns: Columns): Columns => columns;
}

/** What the screen shows in a cell ('UF 1.234,56', '05/03/2027', 'marzo de 2027'). */
export function displayCell(format: ColumnFormat, value: CellValue): string {
  if (value === null || value === undefined || value === '') return '';
  switch (format) {
    case 'uf':
      return formatUF(value);
    case 'clp':
      return formatCLP(value);
    case 'ufValue':
      return formatUfValue(value);
    case 'date':
      return formatDate(String(value));
    case 'month':
      return formatMonthYear(String(value));
    case 'integer':
      return String(value);
    case 'area':
      return formatDecimal(value);
    default:
      return stripUnseen(String(value), { lines: true });
  }
}

/** A decimal string with exactly two decimals ('1234.50', '-0.25'). */
const TWO_DECIMALS = /^-?\d+\.\d\d$/;

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text as a spreadsheet must take it: a leading = + - @ (or tab, CR) is kept as text with a `'`. */
export function neutralizeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A cell of the CSV Chilean Excel opens as numbers: amounts with a decimal comma and no thousands
 * separator ('1234,56', which es-CL Excel reads as a number), dates dd/MM/yyyy, months MM/yyyy,
 * text neutralised. Null is an empty cell.
 */
export function csvCell(format: ColumnFormat, value: CellValue): string {
  if (value === null || value === undefined || value === '') return '';
  switch (format) {
    case 'clp':
      return toFixed(dec(value), 0);
    case 'ufValue':
    case 'uf':
    case 'area':
      // A numeric(14, 2) column's text is already what rounding would give (no big.js per cell).
      return typeof value === 'string' && TWO_DECIMALS.test(value)
        ? value.replace('.', ',')
        : toFixed(dec(value), 2).replace('.', ',');
    case 'integer':
      return String(value);
    case 'date':
      return formatDate(String(value));
    case 'month': {
      const match = /^(\d{4})-(\d{2})/.exec(String(value));
      return match ? `${match[2]}/${match[1]}` : '';
    }
    default:
      return neutralizeText(oneLine(String(value)));
  }
}

// --- Export requests --------------------------------------------------------------------------

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `?format=csv|xlsx` of every export route (a report's filters are added with `.extend`). */
export const exportFormat = z.enum(EXPORT_FORMATS, {
  error: 'Formato de exportación no válido: use csv o xlsx',
});
