import type { CellValue } from '../../shared/domain/import-cells';
import { AppError } from '../http/app-error';

/** A row as the spreadsheet numbers it (1-based), its cells from column A. */
export interface RawRow {
  rowNumber: number;
  cells: CellValue[];
}

/** Excel's own limit on a cell's text. */
export const MAX_CELL_CHARACTERS = 32_767;
/** Columns a row may fill: any sheet of ours has a few dozen. */
export const MAX_COLUMNS = 200;
/** Cells with something in them, in one file: 200,000 rows of 20 filled columns. */
export const MAX_FILLED_CELLS = 4_000_000;

/** 0 → 'A', 25 → 'Z', 26 → 'AA': how Excel names a column. */
export function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/**
 * Control characters no office text holds (tab, line feed and carriage return are text): C0 but
 * those three, DEL and C1. A NUL anywhere in a CSV lands here too.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * The checks every row of a table file passes as it is read, for every door that reads one: no
 * control character, nothing past column MAX_COLUMNS, at most MAX_FILLED_CELLS filled cells in all.
 * Trailing empty cells are dropped (a formatted but empty column far to the right is no column).
 */
export function rowChecker(): (row: RawRow) => RawRow {
  let filled = 0;
  return (row) => {
    let last = -1;
    for (let index = 0; index < row.cells.length; index++) {
      const cell = row.cells[index];
      if (cell === null || cell === undefined || cell === '') continue;
      last = index;
      filled += 1;
      if (typeof cell === 'string') {
        const control = CONTROL.exec(cell);
        if (control) {
          const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
          throw new AppError('SHEET_CONTROL_CHARACTER', {
            params: { row: row.rowNumber, column: columnLetter(index), code: `U+${code}` },
          });
        }
        if (cell.length > MAX_CELL_CHARACTERS) {
          throw new AppError('SHEET_CELL_TOO_LONG', {
            params: { row: row.rowNumber, column: columnLetter(index), max: '32.767' },
          });
        }
      }
    }
    if (last >= MAX_COLUMNS) {
      throw new AppError('SHEET_TOO_MANY_COLUMNS', { params: { row: row.rowNumber, max: MAX_COLUMNS } });
    }
    if (filled > MAX_FILLED_CELLS)
      throw new AppError('SHEET_TOO_MANY_CELLS', { params: { max: '4.000.000' } });
    const cells = row.cells.length === last + 1 ? row.cells : row.cells.slice(0, last + 1);
    return {
      rowNumber: row.rowNumber,
      cells: Array.from(cells, (cell) => (cell === '' ? null : (cell ?? null))),
    };
  };
}
