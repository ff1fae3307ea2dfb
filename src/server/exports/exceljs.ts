import type ExcelJS from 'exceljs';

/** After listening, before the server loads exceljs (main.ts). */
export const EXCELJS_PRELOAD_DELAY_MS = 2_000;

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded the first time a workbook is read or written. With the archive, zip and stream
 * libraries it brings it was the largest share of the server's start (~0.45 of 1.2 s spent loading
 * modules, measured by a CPU profile of `node dist/server/main.js`), and a server starts to answer
 * lists, not workbooks: every start, every test worker and every restart after a crash paid it.
 * The server loads it two seconds after it listens (main.ts), not at a user's first workbook.
 */
export function loadExcelJs(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((module) => module.default);
  return loading;
}
