/**
 * Streaming exports (CSV for Chilean Excel and XLSX) of any list or report — DESIGN §11, decision 0023.
 *
 * Usage, in a route (validate and check permissions BEFORE, in the service: once the stream has
 * started an error can only cut the file):
 *
 *   import { keysetChunks, sendExport } from '../../exports';
 *
 *   app.get('/export', { schema: { querystring: myExportQuery } }, async (request, reply) => {
 *     const ctx = serviceContext(request);
 *     const exported = await myFeature.exportRows(ctx, request.query); // checks, then { fileName, chunks, totals }
 *     return sendExport(reply, {
 *       format: request.query.format,                  // 'csv' | 'xlsx' (`exportFormat` in shared/reports)
 *       fileName: exported.fileName,                   // without extension: 'aprobaciones_pendientes_2027-03-05'
 *       columns: MY_COLUMNS,                           // ReportColumns<Row> from src/shared (header, key, format)
 *       chunks: exported.chunks,                       // AsyncIterable<Row[]>, chunks of ≤ EXPORT_CHUNK_SIZE rows
 *       totals: exported.totals,                       // optional: async () => ({ commission: '123.45' }) or null
 *     });
 *   });
 *
 * `chunks` is best made with `keysetChunks((after, limit) => query(after, limit), (row) => cursor)`:
 * each chunk is one SQL statement `… where (sort, id) > (cursor) order by sort, id limit 2000`, read
 * only when the previous one has been written (back-pressure: the file is never whole in memory, and
 * the embedded database, which runs on the main thread, is never asked for more than 2,000 rows at
 * once). The answer carries the Content-Type and `Content-Disposition: attachment; filename="….csv";
 * filename*=UTF-8''…` (the name with its ñ, decision 0058).
 *
 * CSV: UTF-8 with BOM, ';' separator, CRLF, amounts with a decimal comma ('1234,56'), dates
 * dd/MM/yyyy, text beginning with = + - @ (tab, CR) prefixed with `'`, a line break in a text written
 * ' / ' (one record per line) and control and bidirectional characters dropped (decision 0058). XLSX: numbers as numbers
 * ('"UF" #,##0.00'), real dates, bold header frozen and auto-filtered, bold totals row.
 */
import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ExportFormat, ExportTotals, ReportColumns } from '../../shared/reports/columns';
import { letOthersThrough } from '../event-loop';
import { contentDisposition } from '../http/content-disposition';
import { csvPieces } from './csv';
import { writeXlsx } from './xlsx';

/** The largest chunk an export reads in one statement (DESIGN §6). */
export const EXPORT_CHUNK_SIZE = 2000;

export interface ExportSpec<Row> {
  format: ExportFormat;
  /** The file's name without extension; anything but letters (ñ kept), digits, '_', '-' and '.' becomes '_'. */
  fileName: string;
  /** The XLSX sheet's name (31 characters at most); 'Datos' by default. */
  sheetName?: string;
  columns: ReportColumns<Row>;
  chunks: AsyncIterable<readonly Row[]>;
  /** Read after the last row: the totals row (or rows), or null for none. */
  totals?: (() => Promise<ExportTotals<Row> | null>) | undefined;
  /**
   * Called once the rows were read (all of them, or as many as were sent before the download stopped),
   * with how many: the export is recorded in the audit log (decision 0027).
   */
  record?: ((rows: number) => Promise<void>) | undefined;
}

/** The chunks as given, counting the rows read; `done(count)` when they end or the reading stops. */
async function* counted<Row>(
  chunks: AsyncIterable<readonly Row[]>,
  done: (rows: number) => Promise<void>,
  onError: (error: unknown) => void,
): AsyncGenerator<readonly Row[]> {
  let rows = 0;
  try {
    for await (const chunk of chunks) {
      rows += chunk.length;
      yield chunk;
    }
  } finally {
    await done(rows).catch(onError);
  }
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The file's name: letters (ñ and accents kept), digits, '_', '-' and '.'; anything else '_'. */
export function exportFileName(fileName: string, format: ExportFormat): string {
  return `${fileName.replace(/[^\p{L}\p{N}_.-]/gu, '_')}.${format}`;
}

/**
 * Reads a sorted result in keyset chunks: `readChunk(null, size)` first, then
 * `readChunk(cursorOf(lastRow), size)` until a chunk comes back short. Each read ends its turn of
 * the event loop: the embedded database answers on the main thread, so a chunk's statement and the
 * writing of its first rows would otherwise stall other requests for both.
 */
export async function* keysetChunks<Row, Cursor>(
  readChunk: (after: Cursor | null, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  size = EXPORT_CHUNK_SIZE,
): AsyncGenerator<Row[]> {
  let after: Cursor | null = null;
  for (;;) {
    const rows = await readChunk(after, size);
    await letOthersThrough();
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return;
    after = cursorOf(last);
  }
}

/** Sends the export as a streamed attachment. */
export function sendExport<Row>(reply: FastifyReply, exported: ExportSpec<Row>): FastifyReply {
  const spec = exported.record
    ? {
        ...exported,
        chunks: counted(exported.chunks, exported.record, (error) =>
          reply.log.error({ err: error }, 'export: could not record it in the audit log'),
        ),
      }
    : exported;
  reply
    .type(CONTENT_TYPES[spec.format])
    .header(
      'content-disposition',
      contentDisposition('attachment', exportFileName(spec.fileName, spec.format)),
    )
    .header('cache-control', 'no-store');
  if (spec.format === 'csv') {
    // Pulls the next piece only when the socket took the last ones (64 KiB ahead at most).
    const body = Readable.from(csvPieces(spec.columns, spec.chunks, spec.totals), {
      objectMode: false,
      highWaterMark: 64 * 1024,
    });
    return reply.send(body);
  }
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  writeXlsx(out, spec.sheetName ?? 'Datos', spec.columns, spec.chunks, spec.totals).catch(
    (error: unknown) => {
      reply.log.error({ err: error }, 'XLSX export failed');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return reply.send(out);
}
