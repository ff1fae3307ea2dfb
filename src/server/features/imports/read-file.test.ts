import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardZip, openTable, withPartsFirst } from './read-file';

// The temporary-file module exceljs's streaming reader uses (the same instance it requires).
const tmp = createRequire(import.meta.url)('tmp') as { file: (...args: unknown[]) => void };

afterEach(() => vi.restoreAllMocks());

/** An ExcelJS workbook: it writes the worksheet before the shared strings and the workbook part. */
async function writtenByExcelJs(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Clientes');
  sheet.addRow(['RUT', 'Nombres', 'Monto', 'Fecha']);
  for (let n = 1; n <= 50; n++)
    sheet.addRow([`1${n}.345.678-5`, `Ana ${n}`, n * 1.5, new Date(Date.UTC(2026, 0, n))]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The entries in the order a streaming reader meets them: local header after local header. */
function streamOrder(bytes: Buffer): string[] {
  const sizes = new Map(guardZip(bytes).map((entry) => [entry.name, entry.compressedSize]));
  const names: string[] = [];
  let offset = 0;
  while (bytes.readUInt32LE(offset) === 0x04034b50) {
    const flags = bytes.readUInt16LE(offset + 6);
    const nameLength = bytes.readUInt16LE(offset + 26);
    const extraLength = bytes.readUInt16LE(offset + 28);
    const name = bytes.toString('utf8', offset + 30, offset + 30 + nameLength);
    names.push(name);
    offset += 30 + nameLength + extraLength + sizes.get(name)!;
    // Bit 3: a data descriptor follows the data (with or without its signature).
    if (flags & 0x08) offset += bytes.readUInt32LE(offset) === 0x08074b50 ? 16 : 12;
  }
  return names;
}

describe('reading an XLSX as it streams', () => {
  it('moves the parts a worksheet needs before it, leaving every entry as it was', async () => {
    const bytes = await writtenByExcelJs();
    const before = streamOrder(bytes);
    expect(before.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(before.indexOf('xl/sharedStrings.xml'));
    const reordered = withPartsFirst(bytes, guardZip(bytes));
    const after = streamOrder(reordered);
    expect([...after].sort()).toEqual([...before].sort());
    expect(after.indexOf('xl/sharedStrings.xml')).toBeLessThan(after.indexOf('xl/worksheets/sheet1.xml'));
    expect(after.indexOf('xl/workbook.xml')).toBeLessThan(after.indexOf('xl/worksheets/sheet1.xml'));
    // A workbook already in that order is read as it is.
    expect(withPartsFirst(reordered, guardZip(reordered))).toBe(reordered);
  });

  it('reads every row from memory, never parking the sheet in a temporary file', async () => {
    const bytes = await writtenByExcelJs();
    const temporaryFile = vi.spyOn(tmp, 'file');
    const table = await openTable(bytes);
    const rows = [];
    for await (const row of table.rows) rows.push(row.cells);
    expect(temporaryFile).not.toHaveBeenCalled();
    expect(table.header.cells).toEqual(['RUT', 'Nombres', 'Monto', 'Fecha']);
    expect(rows).toHaveLength(50);
    expect(rows[49]).toEqual(['150.345.678-5', 'Ana 50', 75, new Date(Date.UTC(2026, 1, 19))]);
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

  async function readAll(bytes: Buffer) {
    const table = await openTable(bytes);
    const rows = [];
    for await (const row of table.rows) rows.push(row.cells);
    return { header: table.header.cells, rows };
  }

  it('keeps every cell whole where a slice ends inside a quoted cell or a character', async () => {
    const utf8 = Buffer.from(text, 'utf8');
    // The file is such that both slices end inside a quoted cell (an odd count of quotes before the
    // end), and the second one inside a two-byte letter: what the reader must stitch back.
    for (const end of [65_536, 131_072]) {
      expect(utf8.subarray(0, end).filter((byte) => byte === 0x22).length % 2).toBe(1);
    }
    expect(utf8[131_072]! & 0xc0).toBe(0x80);
    expect(await readAll(utf8)).toEqual({ header: ['RUT', 'Nombres', 'Observaciones'], rows: expected });
  });

  it('reads the same rows from Windows-1252 and from UTF-8 with a BOM', async () => {
    expect((await readAll(Buffer.from(text, 'latin1'))).rows).toEqual(expected);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    expect(await readAll(withBom)).toEqual({ header: ['RUT', 'Nombres', 'Observaciones'], rows: expected });
  });
});
