import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { dec, isDecimalString } from '../../shared/domain/decimal';
import {
  type CellValue,
  type ColumnFormat,
  type ExportTotals,
  type ReportColumns,
  totalsRowsOf,
} from '../../shared/reports/columns';
import { stripUnseen } from '../../shared/text-safety';
import { letOthersThrough } from '../event-loop';
import { totalsValues } from './csv';
import { loadExcelJs } from './exceljs';

/** Excel number formats (Excel shows them with the reader's own separators: '1.234,56' in es-CL). */
const NUMBER_FORMATS: Record<ColumnFormat, string | undefined> = {
  text: undefined,
  uf: '"UF" #,##0.00',
  date: 'dd/mm/yyyy',
  month: 'mm/yyyy',
  integer: '0',
  clp: '"$" #,##0',
  ufValue: '"$" #,##0.00',
  area: '#,##0.00',
};

const TWO_DECIMALS = /^-?\d+\.\d\d$/;

/** Rows written between two turns of the event loop. */
const XLSX_ROWS_PER_TURN = 100;

const WIDTHS: Record<ColumnFormat, number> = {
  text: 24,
  uf: 16,
  date: 12,
  month: 10,
  integer: 10,
  clp: 16,
  ufValue: 14,
  area: 12,
};

/** A calendar day 'YYYY-MM-DD' (or the day of an ISO instant, UTC) as the Date exceljs writes exactly. */
function dayOf(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
}

/**
 * A typed cell: numbers as numbers, days as dates, text as text — never a formula: exceljs writes a
 * string as a string whatever it starts with. A value its format cannot read ('Totales' in a number
 * column) is written as text.
 */
function xlsxCell(format: ColumnFormat, value: CellValue): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  switch (format) {
    case 'clp':
      return isDecimalString(text) ? Number(dec(text).toFixed(0)) : text;
    case 'ufValue':
    case 'uf':
    case 'area':
      // Two decimals already (a numeric(14, 2) column): the number is the text's, no big.js per cell.
      if (TWO_DECIMALS.test(text)) return Number(text);
      return isDecimalString(text) ? Number(dec(text).toFixed(2)) : text;
    case 'integer':
      return Number.isInteger(Number(value)) ? Number(value) : text;
    case 'date':
    case 'month':
      return dayOf(text) ?? text;
    default:
      // Stored before the clean-text rule: shown without control and bidirectional characters (0058).
      return stripUnseen(text, { lines: true });
  }
}

/** Waits until `out` has room again; throws when it was closed (the client went away). */
function drained(out: Writable): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error('La descarga se interrumpió'));
  if (!out.writableNeedDrain) return letOthersThrough();
  return new Promise((resolve, reject) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      if (out.destroyed) reject(new Error('La descarga se interrumpió'));
      else resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Writes the workbook to `out` with exceljs's streaming writer: one sheet, the header row bold,
 * frozen and auto-filtered, each chunk's rows committed as they come (so they leave for the zip
 * stream and are not kept), the totals row bold. Between chunks it waits for `out` to drain: a
 * slow client slows the reads instead of filling memory.
 */
export async function writeXlsx<Row>(
  out: Writable,
  sheetName: string,
  columns: ReportColumns<Row>,
  chunks: AsyncIterable<readonly Row[]>,
  totals?: () => Promise<ExportTotals<Row> | null>,
): Promise<void> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }],
  });
  sheet.columns = columns.map((column) => {
    const numFmt = NUMBER_FORMATS[column.format];
    return {
      header: column.header,
      key: column.key,
      width: column.width ?? WIDTHS[column.format],
      ...(numFmt ? { style: { numFmt } } : {}),
    };
  });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();

  const addRow = (row: Row) =>
    sheet.addRow(columns.map((column) => xlsxCell(column.format, row[column.key] as CellValue)));

  for await (const rows of chunks) {
    // Others let through (and room in `out`) every few hundred rows: exceljs builds each row's
    // XML on the main thread.
    for (let index = 0; index < rows.length; index++) {
      addRow(rows[index] as Row).commit();
      if (index % XLSX_ROWS_PER_TURN === XLSX_ROWS_PER_TURN - 1) await drained(out);
    }
    await drained(out);
  }
  for (const totalsRow of totalsRowsOf(totals ? await totals() : null)) {
    const row = addRow(totalsValues(columns, totalsRow));
    row.font = { bold: true };
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
}
