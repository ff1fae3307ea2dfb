import type { CellValue } from '../../shared/domain/import-cells';
import { AppError } from '../http/app-error';
import { type RawRow, rowChecker } from './cells';
import { csvRows } from './csv';
import { openWorkbook } from './xlsx';
import { bufferSource, ZipRefusal } from './zip';

/**
 * A table file's rows, whatever door it came through (imports, UF values, price lists): its format
 * judged by its bytes, XLSX or CSV read as it streams, every row checked as it is read (`rowChecker`),
 * every refusal an AppError with its Spanish message (decision 0049).
 */

export type TableFormat = 'xlsx' | 'csv';

const ZIP_LOCAL = 0x04034b50;

/** What the bytes are, judged by their content (never by the name or the declared type). */
export function fileFormatOf(bytes: Buffer): TableFormat {
  if (bytes.length === 0) throw new AppError('IMPORT_FILE_EMPTY');
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === ZIP_LOCAL) return 'xlsx';
  // Text that is no table: a PDF (its first line is text) or markup (XML, HTML, SVG).
  const start = bytes
    .subarray(0, 1024)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (start.startsWith('%PDF-') || start.startsWith('<')) throw new AppError('IMPORT_FILE_TYPE');
  // Text: no NUL byte and no control characters but tab, CR, LF, FF in the first 64 KB.
  const head = bytes.subarray(0, 65_536);
  for (const byte of head) {
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1a)) throw new AppError('IMPORT_FILE_TYPE');
  }
  return 'csv';
}

/** A zip's refusal, or a reader's unexpected failure, as the door's Spanish answer. */
function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZipRefusal) {
    return new AppError(error.why === 'expands' ? 'IMPORT_FILE_TOO_BIG' : 'IMPORT_FILE_UNREADABLE', {
      cause: error,
    });
  }
  return new AppError('IMPORT_FILE_UNREADABLE', { cause: error });
}

async function* checked(rows: AsyncGenerator<RawRow>): AsyncGenerator<RawRow> {
  const check = rowChecker();
  try {
    for await (const row of rows) yield check(row);
  } catch (error) {
    throw asAppError(error);
  } finally {
    await rows.return(undefined).catch(() => undefined);
  }
}

export interface TableRows {
  format: TableFormat;
  /** The workbook's visible sheets in order (CSV: none). */
  sheets: string[];
  /** The sheet read (CSV: null). */
  sheetName: string | null;
  /** Every row with something in it or not, as numbered by the spreadsheet, checked as read. */
  rows: AsyncGenerator<RawRow>;
}

/** Opens a table file: the sheet named, or the first visible one. */
export async function openRows(bytes: Buffer, sheet?: string | null): Promise<TableRows> {
  const format = fileFormatOf(bytes);
  if (format === 'csv') return { format, sheets: [], sheetName: null, rows: checked(csvRows(bytes)) };
  try {
    const workbook = await openWorkbook(bufferSource(bytes));
    if (workbook.sheets.length === 0) throw new AppError('IMPORT_FILE_EMPTY');
    const sheetName = sheet ?? workbook.sheets[0]!;
    if (!workbook.sheets.includes(sheetName))
      throw new AppError('IMPORT_SHEET_UNKNOWN', { params: { sheet: sheetName } });
    return { format, sheets: workbook.sheets, sheetName, rows: checked(workbook.rows(sheetName)) };
  } catch (error) {
    throw asAppError(error);
  }
}

/**
 * A small table whole (a UF table, a price list), each row at its spreadsheet index (row 1 at 0); a
 * row numbered past `maxRows` is `IMPORT_TOO_MANY_ROWS`.
 */
export async function readSmallTable(bytes: Buffer, maxRows: number): Promise<CellValue[][]> {
  const { rows } = await openRows(bytes);
  const table: CellValue[][] = [];
  for await (const row of rows) {
    // By its number, not by a count: a first row numbered a million would otherwise fill the table.
    if (row.rowNumber > maxRows) {
      await rows.return(undefined);
      throw new AppError('IMPORT_TOO_MANY_ROWS', { params: { max: maxRows.toLocaleString('es-CL') } });
    }
    while (table.length < row.rowNumber - 1) table.push([]);
    table[row.rowNumber - 1] = row.cells;
  }
  return table;
}

/** Refusals that say the file is no table we can read (rather than a limit it passed). */
const UNREADABLE = new Set([
  'IMPORT_FILE_UNREADABLE',
  'IMPORT_FILE_TYPE',
  'IMPORT_FILE_EMPTY',
  'IMPORT_SHEET_UNKNOWN',
]);

/** Whether a reader's refusal is a limit with its own reason (too big, too long, a control character…). */
export function isReaderLimit(error: unknown): error is AppError {
  return error instanceof AppError && !UNREADABLE.has(error.code);
}
