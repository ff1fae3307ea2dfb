import { type CellValue, cellText, foldText } from '../../../shared/domain/import-cells';
import { HEADER_ROW_MAX, type SkippedRow } from '../../../shared/schemas/imports';
import { AppError } from '../../http/app-error';
import type { RawRow } from '../../readers/cells';
import { openRows, type TableFormat } from '../../readers/table';

/**
 * The import pipeline's reader (DESIGN §16, decisions 0033 and 0049): an uploaded file's bytes in, the
 * table in it out — where its header is (found below a title block, or the row the user chose), then
 * its rows one at a time as they stream, with the rows that are no data (blank, totals, a footer)
 * skipped and noted. The bytes are read by `src/server/readers` (bounded XLSX and CSV readers).
 */

export const MAX_ROWS = 200_000;
/** Rows with something in them looked at for the header when none is chosen. */
const HEADER_SEARCH_ROWS = 30;
/** Skipped rows kept to be told (the rest are counted). */
const MAX_KEPT_SKIPPED = 1_000;

export interface SheetRow {
  /** 1-based, as the spreadsheet numbers it. */
  rowNumber: number;
  cells: CellValue[];
}

export interface OpenTableOptions {
  /** The sheet (XLSX), or the first visible one. */
  sheet?: string | null;
  /** The header's row number, as the spreadsheet numbers it; unset or null: found. */
  headerRow?: number | null;
}

/** A row above the header that may be chosen as the header instead (the screen's list). */
export interface HeaderCandidate {
  rowNumber: number;
  cells: CellValue[];
}

export interface OpenedTable {
  format: TableFormat;
  /** The workbook's visible sheets in order (CSV: none). */
  sheets: string[];
  /** The sheet read (CSV: null). */
  sheetName: string | null;
  /** The header row; its `rowNumber` says where it was found or chosen. */
  header: SheetRow;
  /** Whether the caller chose the header's row (otherwise it was found). */
  headerChosen: boolean;
  /** The first rows with something in them (up to the header search's end): what may be chosen. */
  candidates: HeaderCandidate[];
  /** Every data row after the header. */
  rows: AsyncIterable<SheetRow>;
  /**
   * The rows skipped, in order: the title block above the header, and below it blank rows between
   * data (a row missing from a sheet is blank too), totals and footers — the first MAX_KEPT_SKIPPED of
   * them, and how many there were. Complete once `rows` has been read to its end.
   */
  skipped: { rows: SkippedRow[]; count: number };
  /** Stops reading (when only the header was wanted): the reader's streams are closed. */
  close(): Promise<void>;
}

const filledCount = (row: RawRow) => row.cells.filter((cell) => cellText(cell) !== '').length;
const isBlankRow = (row: RawRow) => filledCount(row) === 0;

/** Text that is data, not a title: numbers, amounts, dates, RUTs, e-mails. */
function looksLikeData(cell: CellValue): boolean {
  if (cell === null) return false;
  if (typeof cell !== 'string') return true;
  const text = cell.trim();
  return /^[\d\s.,%$/-]+[kK]?$/.test(text) || /^\S+@\S+\.\S+$/.test(text);
}

/** A header is words: no cell of it is a number, date, RUT or e-mail. */
const looksLikeHeader = (row: RawRow) => row.cells.every((cell) => !looksLikeData(cell));

/**
 * The header among the first rows with something in them: the first that is words, fills at least
 * half as many columns as the widest of them (at least two, unless every row has one) and three
 * quarters of the row after it (data may have a column more: a formula beside the table). A title block — a merged title, a subtitle, 'Proyecto: Los Aromos' — fills
 * one or two cells and is passed over.
 */
function findHeader(candidates: readonly RawRow[]): RawRow | null {
  const widest = Math.max(0, ...candidates.map(filledCount));
  const least = widest <= 1 ? 1 : Math.max(2, Math.ceil(widest / 2));
  return (
    candidates.find((row, index) => {
      const filled = filledCount(row);
      const next = candidates[index + 1];
      return filled >= least && (!next || 4 * filled >= 3 * filledCount(next)) && looksLikeHeader(row);
    }) ?? null
  );
}

/** 'Total', 'Totales', 'Subtotal', 'Total: 6 clientes', 'TOTAL GENERAL', 'Suma'. */
const TOTAL_WORDS = /^(sub ?)?total(es)?\b|^suma\b/;

/**
 * What a row after the header is: data, or a row to skip — totals, or a footer (its only text in the
 * first cell, under a column whose data so far are numbers, dates or RUTs).
 */
function footerJudge(headerWidth: number) {
  let dataRows = 0;
  let dataLikeFirst = 0;
  return (row: RawRow): 'total' | 'footer' | null => {
    const firstFilled = row.cells.find((cell) => cellText(cell) !== '');
    if (typeof firstFilled === 'string' && TOTAL_WORDS.test(foldText(firstFilled))) return 'total';
    const first = row.cells[0] ?? null;
    if (
      headerWidth >= 2 &&
      filledCount(row) === 1 &&
      typeof first === 'string' &&
      !looksLikeData(first) &&
      dataRows > 0 &&
      dataLikeFirst >= 0.8 * dataRows
    ) {
      return 'footer';
    }
    dataRows += 1;
    if (looksLikeData(first)) dataLikeFirst += 1;
    return null;
  };
}

/**
 * Opens an uploaded file: its format judged by its bytes, the sheet chosen (XLSX: the named one, or
 * the first), its header row (the one chosen, or found below a title block), and the rows after it,
 * counted against the limit as they stream. `sheetOrOptions` may still be the sheet's name alone.
 */
export async function openTable(
  bytes: Buffer,
  sheetOrOptions?: string | null | OpenTableOptions,
): Promise<OpenedTable> {
  const options: OpenTableOptions =
    typeof sheetOrOptions === 'object' && sheetOrOptions !== null
      ? sheetOrOptions
      : { sheet: sheetOrOptions ?? null };
  const chosen = options.headerRow ?? null;
  if (chosen !== null && (!Number.isInteger(chosen) || chosen < 1 || chosen > HEADER_ROW_MAX)) {
    throw new AppError('SHEET_HEADER_ROW_RANGE', { params: { max: HEADER_ROW_MAX } });
  }
  const table = await openRows(bytes, options.sheet);
  const source = table.rows;
  // The first rows, read until HEADER_SEARCH_ROWS of them have something in them (and the chosen
  // row is reached): kept to find the header and to offer the others.
  const read: RawRow[] = [];
  let filled = 0;
  let ended = false;
  while (filled < HEADER_SEARCH_ROWS || (chosen !== null && (read.at(-1)?.rowNumber ?? 0) < chosen)) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    read.push(next.value);
    if (!isBlankRow(next.value)) filled += 1;
  }
  const nonBlank = read.filter((row) => !isBlankRow(row));
  const header =
    chosen === null ? findHeader(nonBlank) : (nonBlank.find((row) => row.rowNumber === chosen) ?? null);
  if (!header) {
    await source.return(undefined);
    if (chosen !== null) throw new AppError('SHEET_HEADER_ROW_EMPTY', { params: { row: chosen } });
    if (nonBlank.length === 0) throw new AppError('IMPORT_FILE_EMPTY');
    throw new AppError('IMPORT_NO_HEADER', { params: { rows: HEADER_SEARCH_ROWS } });
  }
  const skipped = { rows: [] as SkippedRow[], count: 0 };
  const skip = (rowNumber: number, reason: SkippedRow['reason']) => {
    skipped.count += 1;
    if (skipped.rows.length < MAX_KEPT_SKIPPED) skipped.rows.push({ rowNumber, reason });
  };
  for (const row of nonBlank) if (row.rowNumber < header.rowNumber) skip(row.rowNumber, 'title');
  const buffered = read.filter((row) => row.rowNumber > header.rowNumber);
  const candidates = nonBlank
    .slice(0, HEADER_SEARCH_ROWS)
    .map((row) => ({ rowNumber: row.rowNumber, cells: row.cells }));
  const judge = footerJudge(filledCount(header));
  const headerRowNumber = header.rowNumber;

  async function* rest(): AsyncGenerator<SheetRow> {
    let count = 0;
    /** The last row met, and where the blank rows since the last row with something began. */
    let last = headerRowNumber;
    let blankFrom: number | null = null;
    const take = (row: RawRow): RawRow | null => {
      if (isBlankRow(row)) {
        blankFrom ??= last + 1;
        last = row.rowNumber;
        return null;
      }
      // Blank rows (written empty, or missing from the sheet) are noted only when something follows.
      for (let rowNumber = blankFrom ?? last + 1; rowNumber < row.rowNumber; rowNumber++) {
        if (skipped.rows.length >= MAX_KEPT_SKIPPED) {
          skipped.count += row.rowNumber - rowNumber;
          break;
        }
        skip(rowNumber, 'blank');
      }
      blankFrom = null;
      last = row.rowNumber;
      const reason = judge(row);
      if (reason) {
        skip(row.rowNumber, reason);
        return null;
      }
      count += 1;
      if (count > MAX_ROWS) throw new AppError('IMPORT_TOO_MANY_ROWS', { params: { max: '200.000' } });
      return row;
    };
    try {
      for (const row of buffered) {
        const data = take(row);
        if (data) yield data;
      }
      if (ended) return;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        const data = take(next.value);
        if (data) yield data;
      }
    } finally {
      await source.return(undefined);
    }
  }
  return {
    format: table.format,
    sheets: table.sheets,
    sheetName: table.sheetName,
    header,
    headerChosen: chosen !== null,
    candidates,
    rows: rest(),
    skipped,
    close: async () => {
      await source.return(undefined);
    },
  };
}
