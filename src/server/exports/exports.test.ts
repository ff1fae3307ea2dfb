import Fastify from 'fastify';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportFormat, reportColumns } from '../../shared/reports/columns';
import { EXPORT_CHUNK_SIZE, keysetChunks, sendExport } from './index';

// The writers read back by independent readers (papaparse, read-excel-file), not by their own libraries.

interface Row {
  number: number;
  client: string;
  reservationDate: string | null;
  commission: string | null;
  daysLate: number;
}

const columns = reportColumns<Row>()([
  { key: 'number', header: 'N° Reserva', format: 'integer' },
  { key: 'client', header: 'Cliente', format: 'text' },
  { key: 'reservationDate', header: 'Fecha de Reserva', format: 'date' },
  { key: 'commission', header: 'Comisión', format: 'uf' },
  { key: 'daysLate', header: 'Días de atraso', format: 'integer' },
]);

const SPECIAL: Row[] = [
  {
    number: 1,
    client: 'José Ñúñez; "el Güero"',
    reservationDate: '2027-03-05',
    commission: '1234.5',
    daysLate: 0,
  },
  {
    number: 2,
    client: '=HYPERLINK("http://x","y")',
    reservationDate: '2026-12-31',
    commission: '-0.25',
    daysLate: 3,
  },
  { number: 3, client: '+56 9 1234', reservationDate: null, commission: null, daysLate: 1 },
  { number: 4, client: '@SUM(A1)', reservationDate: '2027-01-01', commission: '1000000.99', daysLate: 2 },
  { number: 5, client: '-1+2', reservationDate: '2027-02-28', commission: '0', daysLate: 0 },
];

/** `count` generated rows in keyset chunks, recording the largest chunk asked for. */
function generated(count: number, seen: { largest: number; reads: number }) {
  return keysetChunks<Row, number>(
    async (after, limit) => {
      seen.largest = Math.max(seen.largest, limit);
      seen.reads += 1;
      const start = (after ?? 0) + 1;
      const end = Math.min(count, start + limit - 1);
      const rows: Row[] = [];
      for (let n = start; n <= end; n++) {
        rows.push({
          number: n,
          client: `Cliente ${n}`,
          reservationDate: '2027-03-05',
          commission: '10.10',
          daysLate: 0,
        });
      }
      return rows;
    },
    (row) => row.number,
  );
}

async function* once(rows: Row[]) {
  yield rows;
}

const app = Fastify();
const seen = { largest: 0, reads: 0 };
app.get<{ Querystring: { format: ExportFormat; count?: string } }>('/export', async (request, reply) => {
  const count = request.query.count ? Number(request.query.count) : null;
  return sendExport(reply, {
    format: request.query.format,
    fileName: 'informe_prueba_2027-03-05',
    sheetName: 'Informe de Prueba',
    columns,
    chunks: count === null ? once(SPECIAL) : generated(count, seen),
    totals: async () => ({ commission: count === null ? '1001235.24' : String(count * 10.1) }),
  });
});

beforeAll(() => app.ready());
afterAll(() => app.close());

async function download(format: ExportFormat, count?: number) {
  const response = await app.inject({
    method: 'GET',
    url: '/export',
    query: { format, ...(count === undefined ? {} : { count: String(count) }) },
  });
  expect(response.statusCode).toBe(200);
  return response;
}

describe('CSV for Chilean Excel', () => {
  it('is UTF-8 with BOM, ; separated, decimal comma, dd/MM/yyyy, formulas neutralised, totals last', async () => {
    const response = await download('csv');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="informe_prueba_2027-03-05.csv"; filename*=UTF-8''informe_prueba_2027-03-05.csv`,
    );
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const parsed = Papa.parse<string[]>(bytes.toString('utf8').replace(/^\uFEFF/, ''), {
      delimiter: ';',
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual(['N° Reserva', 'Cliente', 'Fecha de Reserva', 'Comisión', 'Días de atraso']);
    expect(rows).toHaveLength(SPECIAL.length + 1);
    expect(rows[0]).toEqual(['1', 'José Ñúñez; "el Güero"', '05/03/2027', '1234,50', '0']);
    expect(rows[1]).toEqual(['2', `'=HYPERLINK("http://x","y")`, '31/12/2026', '-0,25', '3']);
    expect(rows[2]).toEqual(['3', "'+56 9 1234", '', '', '1']);
    expect(rows[3]).toEqual(['4', "'@SUM(A1)", '01/01/2027', '1000000,99', '2']);
    expect(rows[4]?.[1]).toBe("'-1+2");
    expect(rows[5]).toEqual(['Totales', '', '', '1001235,24', '']);
  });

  it('streams 5,001 rows in keyset chunks of at most 2,000, every row once', async () => {
    seen.largest = 0;
    seen.reads = 0;
    const response = await download('csv', 5001);
    const parsed = Papa.parse<string[]>(response.body.replace(/^\uFEFF/, ''), {
      delimiter: ';',
      skipEmptyLines: true,
    });
    const numbers = parsed.data.slice(1, -1).map((row) => Number(row[0]));
    expect(numbers).toHaveLength(5001);
    expect(new Set(numbers).size).toBe(5001);
    expect(numbers.at(-1)).toBe(5001);
    expect(seen.largest).toBe(EXPORT_CHUNK_SIZE);
    expect(seen.reads).toBe(3);
  });
});

describe('XLSX', () => {
  it('has the header, numbers as numbers, real dates, text that stays text and the totals row', async () => {
    const response = await download('xlsx');
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="informe_prueba_2027-03-05.xlsx"; filename*=UTF-8''informe_prueba_2027-03-05.xlsx`,
    );
    const rows = await readSheet(response.rawPayload);
    expect(rows[0]).toEqual(['N° Reserva', 'Cliente', 'Fecha de Reserva', 'Comisión', 'Días de atraso']);
    expect(rows).toHaveLength(1 + SPECIAL.length + 1);
    expect(rows[1]).toEqual([1, 'José Ñúñez; "el Güero"', new Date(Date.UTC(2027, 2, 5)), 1234.5, 0]);
    expect(rows[2]).toEqual([2, '=HYPERLINK("http://x","y")', new Date(Date.UTC(2026, 11, 31)), -0.25, 3]);
    expect(rows[3]).toEqual([3, '+56 9 1234', null, null, 1]);
    expect(rows[4]?.[3]).toBe(1000000.99);
    expect(rows[6]).toEqual(['Totales', null, null, 1001235.24, null]);
  });

  it('freezes and filters the header and formats amounts as UF', async () => {
    const response = await download('xlsx');
    // The independent reader does not expose panes, filters or number formats: these are read back
    // with exceljs's (non-streaming) reader.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Informe de Prueba');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet?.autoFilter).toBeTruthy();
    expect(sheet?.getCell('D2').numFmt).toBe('"UF" #,##0.00');
    expect(sheet?.getCell('C2').numFmt).toBe('dd/mm/yyyy');
  });

  it('streams 5,001 rows, every row once', async () => {
    const response = await download('xlsx', 5001);
    const rows = await readSheet(response.rawPayload);
    expect(rows).toHaveLength(5001 + 2);
    expect(rows[5001]?.[0]).toBe(5001);
    expect(rows[5002]?.[3]).toBeCloseTo(50510.1, 2);
  });
});
