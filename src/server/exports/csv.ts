import {
  csvCell,
  type ExportTotals,
  type ReportColumns,
  TOTALS_LABEL,
  type TotalsRow,
  totalsRowsOf,
} from '../../shared/reports/columns';
import { letOthersThrough } from '../event-loop';

/** What Chilean Excel needs to read UTF-8 (accents) rather than guess Windows-1252. */
export const UTF8_BOM = '\uFEFF';

/** Rows formatted between two turns of the event loop. */
const CSV_ROWS_PER_TURN = 500;

const DELIMITER = ';';
const RECORD_DELIMITER = '\r\n';
/** A field with a separator, a quote or a line break is quoted (RFC 4180), its quotes doubled. */
const NEEDS_QUOTES = /[;"\r\n]/;

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line per row, each cell formatted by the shared columns and quoted where it must be. */
function lines<Row>(columns: ReportColumns<Row>, rows: readonly Row[]): string {
  let text = '';
  for (const row of rows) {
    let line = '';
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index]!;
      if (index > 0) line += DELIMITER;
      line += field(csvCell(column.format, row[column.key] as string | number | null));
    }
    text += line + RECORD_DELIMITER;
  }
  return text;
}

/** The totals row: the given sums, 'Totales' in the first column unless the totals name it. */
export function totalsValues<Row>(columns: ReportColumns<Row>, totals: TotalsRow<Row>): Row {
  const first = columns[0]?.key;
  const values: Record<string, unknown> = { ...totals };
  if (first !== undefined && (values[first] === undefined || values[first] === null))
    values[first] = TOTALS_LABEL;
  return values as Row;
}

/**
 * The CSV as text pieces, one per chunk of rows: the BOM and the header first, then each chunk as
 * it is read (the consumer pulls the next chunk only when it has written the last one: back-pressure
 * without buffering the file), then the totals row(s).
 */
export async function* csvPieces<Row>(
  columns: ReportColumns<Row>,
  chunks: AsyncIterable<readonly Row[]>,
  totals?: () => Promise<ExportTotals<Row> | null>,
): AsyncGenerator<string> {
  yield UTF8_BOM + columns.map((column) => field(column.header)).join(DELIMITER) + RECORD_DELIMITER;
  for await (const rows of chunks) {
    // Others let through every few hundred rows: a source whose reads resolve at once (the
    // embedded database answers from the main thread) would otherwise chain every chunk in
    // microtasks, and no other request would run until the whole file was written.
    for (let start = 0; start < rows.length; start += CSV_ROWS_PER_TURN) {
      const text = lines(columns, rows.slice(start, start + CSV_ROWS_PER_TURN));
      if (text) yield text;
      await letOthersThrough();
    }
  }
  const totalsRows = totalsRowsOf(totals ? await totals() : null);
  if (totalsRows.length > 0) {
    yield lines(
      columns,
      totalsRows.map((row) => totalsValues(columns, row)),
    );
  }
}
