import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bufferSource, zipEntries } from '../../readers/zip';
import { excelWorkbook, inlineSheet, minimalWorkbook } from '../../test/corpus/workbooks';
import { openTable } from './read-file';

/** An ExcelJS workbook: it writes the worksheet before the shared strings and the workbook part. */
async function writtenByExcelJs(title = false): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Clientes');
  if (title) {
    sheet.addRow(['Listado de clientes']);
    sheet.mergeCells('A1:D1');
    sheet.addRow(['Proyecto:', 'Los Aromos']);
    sheet.addRow([]);
  }
  sheet.addRow(['RUT', 'Nombres', 'Monto', 'Fecha']);
  for (let n = 1; n <= 50; n++)
    sheet.addRow([`1${n}.345.678-5`, `Ana ${n}`, n * 1.5, new Date(Date.UTC(2026, 0, n))]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function readAll(bytes: Buffer, options?: Parameters<typeof openTable>[1]) {
  const table = await openTable(bytes, options);
  const rows = [];
  for await (const row of table.rows) rows.push(row);
  return { table, header: table.header, rows, skipped: table.skipped.rows };
}

describe('reading an XLSX as it streams', () => {
  it('reads a workbook whose sheet comes before its shared strings, from memory, in order', async () => {
    const bytes = await writtenByExcelJs();
    // ExcelJS's order: the sheet's entry before the strings it uses. The reader finds each part by
    // the central directory, so the order does not matter and nothing is parked on disk.
    const names = (await zipEntries(bufferSource(bytes))).map((entry) => entry.name);
    expect(names.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(names.indexOf('xl/sharedStrings.xml'));
    const { header, rows } = await readAll(bytes);
    expect(header).toEqual({ rowNumber: 1, cells: ['RUT', 'Nombres', 'Monto', 'Fecha'] });
    expect(rows).toHaveLength(50);
    expect(rows[49]).toEqual({
      rowNumber: 51,
      cells: ['150.345.678-5', 'Ana 50', 75, new Date(Date.UTC(2026, 1, 19))],
    });
  });

  it('finds the header below a title block, and notes the title, blank rows between data and a totals row', async () => {
    const bytes = await writtenByExcelJs(true);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Clientes')!;
    sheet.spliceRows(30, 0, []);
    sheet.addRow([]);
    sheet.addRow(['Total: 50 clientes']);
    const changed = Buffer.from(await book.xlsx.writeBuffer());
    const { header, rows, skipped } = await readAll(changed);
    expect(header.rowNumber).toBe(4);
    expect(rows).toHaveLength(50);
    expect(skipped).toEqual([
      { rowNumber: 1, reason: 'title' },
      { rowNumber: 2, reason: 'title' },
      { rowNumber: 30, reason: 'blank' },
      { rowNumber: 56, reason: 'blank' },
      { rowNumber: 57, reason: 'total' },
    ]);
  });

  it('takes the header row chosen, even when another would be found, and refuses a blank one', async () => {
    const bytes = await writtenByExcelJs(true);
    const { header, rows, table } = await readAll(bytes, { headerRow: 2 });
    expect(header).toEqual({ rowNumber: 2, cells: ['Proyecto:', 'Los Aromos'] });
    expect(table.headerChosen).toBe(true);
    expect(rows[0]!.rowNumber).toBe(4);
    await expect(openTable(bytes, { headerRow: 3 })).rejects.toMatchObject({
      code: 'SHEET_HEADER_ROW_EMPTY',
    });
    await expect(openTable(bytes, { headerRow: 1001 })).rejects.toMatchObject({
      code: 'SHEET_HEADER_ROW_RANGE',
    });
  });

  it('reads Excel’s cells: shared, rich and phonetic strings, dates by format (1900 and 1904), formulas, booleans, errors', async () => {
    for (const date1904 of [false, true]) {
      const { rows } = await readAll(excelWorkbook({ date1904 }));
      expect(rows[0]!.cells).toEqual([
        '12.345.678-5',
        'Ana María',
        'Núñez',
        'Peña',
        new Date(Date.UTC(1980, 1, 1)),
        'ana@example.cl',
        'línea uno\r\nlínea dos',
        46,
        true,
      ]);
      expect(rows[1]!.cells.slice(4)).toEqual([
        new Date(Date.UTC(1975, 11, 31)),
        'jose@example.cl',
        56222345678,
        null,
        false,
      ]);
    }
  });

  it('refuses a cell past 32,767 characters, a control character and data past column 200, naming the cell', async () => {
    const long = minimalWorkbook({
      sheetXml: inlineSheet([
        ['RUT', 'Nombres'],
        ['1', 'x'.repeat(40_000)],
      ]),
    });
    await expect(readAll(long)).rejects.toMatchObject({
      code: 'SHEET_CELL_TOO_LONG',
      message: expect.stringContaining('La celda B2 tiene más de 32.767 caracteres'),
    });
    const bell = minimalWorkbook({
      sheetXml: inlineSheet([
        ['RUT', 'Nombres'],
        ['1', 'An_x0007_a'],
      ]),
    });
    await expect(readAll(bell)).rejects.toMatchObject({
      code: 'SHEET_CONTROL_CHARACTER',
      message: expect.stringContaining('La celda B2 tiene un carácter de control invisible (U+0007)'),
    });
    const wide = minimalWorkbook({
      sheetXml: inlineSheet([['RUT', 'Nombres'], Array.from({ length: 201 }, (_, n) => `v${n}`)]),
    });
    await expect(readAll(wide)).rejects.toMatchObject({ code: 'SHEET_TOO_MANY_COLUMNS' });
  });
});

describe('reading a CSV as it streams', () => {
  /** 3,000 rows (~150 KB, several of the reader's 64 KiB slices) with accents and quoted line breaks. */
  const lines = ['RUT;Nombres;Observaciones'];
  for (let n = 1; n <= 3_000; n++) lines.push(`${n};Ñandú José ${n};"línea uno\nlínea dos ""${n}"""`);
  const text = lines.join('\r\n');
  const expected = Array.from({ length: 3_000 }, (_, i) => [
    String(i + 1),
    `Ñandú José ${i + 1}`,
    `línea uno\nlínea dos "${i + 1}"`,
  ]);
  const cellsOf = async (bytes: Buffer) => {
    const { header, rows } = await readAll(bytes);
    return { header: header.cells, rows: rows.map((row) => row.cells) };
  };

  it('keeps every cell whole where a slice ends inside a quoted cell or a character', async () => {
    const utf8 = Buffer.from(text, 'utf8');
    // The file is such that both slices end inside a quoted cell (an odd count of quotes before the
    // end), and the second one inside a two-byte letter: what the reader must stitch back.
    for (const end of [65_536, 131_072]) {
      expect(utf8.subarray(0, end).filter((byte) => byte === 0x22).length % 2).toBe(1);
    }
    expect(utf8[131_072]! & 0xc0).toBe(0x80);
    expect(await cellsOf(utf8)).toEqual({ header: ['RUT', 'Nombres', 'Observaciones'], rows: expected });
  });

  it('reads the same rows from Windows-1252 and from UTF-8 with a BOM', async () => {
    expect((await cellsOf(Buffer.from(text, 'latin1'))).rows).toEqual(expected);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    expect(await cellsOf(withBom)).toEqual({ header: ['RUT', 'Nombres', 'Observaciones'], rows: expected });
  });

  it('reads quotes as Excel writes them, CR, LF and CRLF line ends, and a last line without one', async () => {
    const csv = 'a,b,c\r\n"x ""y""",,"z"w\n1,"2\r\n3"\r4,5,6';
    expect((await cellsOf(Buffer.from(csv))).rows).toEqual([
      ['x "y"', null, 'zw'],
      ['1', '2\r\n3'],
      ['4', '5', '6'],
    ]);
  });

  it('refuses a long cell as soon as it passes 32,767 characters, and a NUL after the first 64 KB', async () => {
    const long = Buffer.from(`RUT;Nombres\r\n1;"${'x'.repeat(5 * 1024 * 1024)}`);
    await expect(readAll(long)).rejects.toMatchObject({
      code: 'SHEET_CELL_TOO_LONG',
      message: expect.stringContaining('La celda B2'),
    });
    const late = Buffer.from(`RUT;Nombres\r\n${'1;Ana\r\n'.repeat(20_000)}2;A\u0000na\r\n`);
    await expect(readAll(late)).rejects.toMatchObject({
      code: 'SHEET_CONTROL_CHARACTER',
      message: expect.stringContaining('La celda B20002'),
    });
  });

  it('finds the header below a title block and skips a footer under a column of RUTs', async () => {
    const csv =
      'Clientes al 01/12/2026;;\r\n;;\r\nRUT;Nombres;Apellidos\r\n12.345.678-5;Ana;Soto\r\n9.876.543-3;José;Pérez\r\nFuente: Sistema Comercial;;\r\n';
    const { header, rows, skipped } = await readAll(Buffer.from(csv));
    expect(header.rowNumber).toBe(3);
    expect(rows.map((row) => row.rowNumber)).toEqual([4, 5]);
    expect(skipped).toEqual([
      { rowNumber: 1, reason: 'title' },
      { rowNumber: 6, reason: 'footer' },
    ]);
  });
});
