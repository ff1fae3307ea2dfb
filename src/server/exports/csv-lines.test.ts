import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { reportColumns } from '../../shared/reports/columns';
import { csvPieces, UTF8_BOM } from './csv';

/**
 * Issue 52: whatever text any field holds (stored before the clean-text rule, or read from a file),
 * the CSV exports keep one record per line: a line break is written ' / ' (decision 0058), so a
 * line-based tool (grep, a bank's uploader, Excel opening it by rows) sees every record whole.
 */

interface Row {
  number: string;
  client: string;
  note: string;
  amount: string;
  day: string;
  late: number;
  area: string;
}

const COLUMNS = reportColumns<Row>()([
  { key: 'number', header: 'N°', format: 'text' },
  { key: 'client', header: 'Cliente', format: 'text' },
  { key: 'note', header: 'Nota', format: 'text' },
  { key: 'amount', header: 'Monto', format: 'uf' },
  { key: 'day', header: 'Fecha', format: 'date' },
  { key: 'late', header: 'Días', format: 'integer' },
  { key: 'area', header: 'm² útiles', format: 'area' },
]);

/** Any text: every code point (controls, CR, LF, U+2028, quotes, ';', bidi overrides, lone surrogates). */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('\r', '\n', '"', ';', '\u2028', '\u202e', '\t', '=', 'a', 'ñ'),
    maxLength: 20,
  }),
);

const row = fc.record({
  number: anyText,
  client: anyText,
  note: anyText,
  amount: fc.integer({ min: -99_999_999, max: 99_999_999 }).map((cents) => (cents / 100).toFixed(2)),
  day: fc
    .date({ min: new Date('1990-01-01'), max: new Date('2090-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  late: fc.integer({ min: 0, max: 9999 }),
  area: fc.integer({ min: 0, max: 9_999_999 }).map((cents) => (cents / 100).toFixed(2)),
});

async function csvOf(rows: readonly Row[]): Promise<string> {
  async function* chunks() {
    yield rows;
  }
  let text = '';
  for await (const piece of csvPieces(COLUMNS, chunks())) text += piece;
  return text;
}

describe('CSV exports: one record per line, whatever the text', () => {
  it('any text in any field: header + one line per row, each with every column', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 12 }), async (rows) => {
        const text = await csvOf(rows);
        expect(text.startsWith(UTF8_BOM)).toBe(true);
        expect(text.endsWith('\r\n')).toBe(true);
        const lines = text.slice(UTF8_BOM.length, -2).split('\r\n');
        expect(lines).toHaveLength(rows.length + 1);
        for (const line of lines) {
          // No line break of any kind inside a record.
          expect(line).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
          const parsed = Papa.parse<string[]>(line, { delimiter: ';' });
          expect(parsed.errors).toEqual([]);
          expect(parsed.data).toHaveLength(1);
          expect(parsed.data[0]).toHaveLength(COLUMNS.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("writes a line break ' / ', drops bidirectional overrides, keeps quotes and ';' quoted, areas as numbers", async () => {
    const text = await csvOf([
      {
        number: 'E-10',
        client: 'Ana\r\nMaría; "la Jefa"',
        note: 'Romero\u202e& Asociados',
        amount: '1234.50',
        day: '2027-03-05',
        late: 2,
        area: '63.00',
      },
    ]);
    expect(text.split('\r\n')[1]).toBe(
      'E-10;"Ana / María; ""la Jefa""";Romero& Asociados;1234,50;05/03/2027;2;63,00',
    );
  });
});
