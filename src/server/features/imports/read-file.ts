import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import Papa from 'papaparse';
import type { CellValue } from '../../../shared/domain/import-cells';
import { loadExcelJs } from '../../exports/exceljs';
import { AppError } from '../../http/app-error';

/**
 * The readers of the import pipeline (DESIGN §16, decision 0033): an uploaded file's bytes in, its
 * rows out, one at a time. XLSX through exceljs's streaming WorkbookReader (formula cells by their
 * cached value), CSV through papaparse's stream (';' or ',' detected; UTF-8 with or without BOM, or
 * Windows-1252 — what Chilean Excel saves). Refusals are AppErrors with a Spanish message.
 */

export const MAX_ROWS = 200_000;
/** Columns read per row: any sheet of ours has a few dozen. */
const MAX_COLUMNS = 200;
/** An XLSX's declared uncompressed size and entries: a real workbook of 200,000 rows stays far below. */
const MAX_UNCOMPRESSED_BYTES = 400 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 2_000;
/** One entry inflating over this ratio is a zip bomb, whatever its size. */
const MAX_COMPRESSION_RATIO = 200;

export interface SheetRow {
  /** 1-based, as the spreadsheet numbers it (the header is usually row 1). */
  rowNumber: number;
  cells: CellValue[];
}

export interface OpenedTable {
  format: 'xlsx' | 'csv';
  /** The workbook's sheets in order (CSV: none). */
  sheets: string[];
  /** The sheet read (CSV: null). */
  sheetName: string | null;
  /** Every row after the header. */
  rows: AsyncIterable<SheetRow>;
  header: SheetRow;
  /** Stops reading (when only the header was wanted): the reader's streams are closed. */
  close(): Promise<void>;
}

const ZIP_LOCAL = 0x04034b50;

/** What the bytes are, judged by their content (never by the name or the declared type). */
export function fileFormatOf(bytes: Buffer): 'xlsx' | 'csv' {
  if (bytes.length === 0) throw new AppError('IMPORT_FILE_EMPTY');
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === ZIP_LOCAL) return 'xlsx';
  // Text: no NUL byte and no control characters but tab, CR, LF, FF in the first 64 KB.
  const head = bytes.subarray(0, 65_536);
  for (const byte of head) {
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1a)) throw new AppError('IMPORT_FILE_TYPE');
  }
  return 'csv';
}

// --- XLSX ------------------------------------------------------------------------------------------

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

/** The zip's central directory: names and declared sizes, without inflating anything. */
function zipEntries(bytes: Buffer): ZipEntry[] {
  const minEnd = Math.max(0, bytes.length - 65_557);
  let end = -1;
  for (let i = bytes.length - 22; i >= minEnd; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new AppError('IMPORT_FILE_TYPE');
  const count = bytes.readUInt16LE(end + 10);
  if (count > MAX_ZIP_ENTRIES) throw new AppError('IMPORT_FILE_TOO_BIG');
  let offset = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== 0x02014b50) {
      throw new AppError('IMPORT_FILE_TYPE');
    }
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    entries.push({
      method: bytes.readUInt16LE(offset + 10),
      compressedSize: bytes.readUInt32LE(offset + 20),
      uncompressedSize: bytes.readUInt32LE(offset + 24),
      localOffset: bytes.readUInt32LE(offset + 42),
      name: bytes.toString('utf8', offset + 46, offset + 46 + nameLength),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Refuses a zip that would expand past a sane size (a zip bomb), before anything is inflated. */
export function guardZip(bytes: Buffer): ZipEntry[] {
  const entries = zipEntries(bytes);
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    // 0xFFFFFFFF: sizes moved to a Zip64 record — nothing a spreadsheet of ours needs.
    if (entry.uncompressedSize === 0xffffffff || ratio > MAX_COMPRESSION_RATIO) {
      throw new AppError('IMPORT_FILE_TOO_BIG');
    }
  }
  if (total > MAX_UNCOMPRESSED_BYTES) throw new AppError('IMPORT_FILE_TOO_BIG');
  return entries;
}

function entryText(bytes: Buffer, entry: ZipEntry): string {
  const nameLength = bytes.readUInt16LE(entry.localOffset + 26);
  const extraLength = bytes.readUInt16LE(entry.localOffset + 28);
  const start = entry.localOffset + 30 + nameLength + extraLength;
  const data = bytes.subarray(start, start + entry.compressedSize);
  const raw =
    entry.method === 0 ? data : inflateRawSync(data, { maxOutputLength: entry.uncompressedSize + 1024 });
  return raw.toString('utf8');
}

/** The workbook's sheet names, in the order Excel shows them. */
function sheetNamesOf(bytes: Buffer, entries: ZipEntry[]): string[] {
  const workbook = entries.find((entry) => entry.name === 'xl/workbook.xml');
  if (!workbook) throw new AppError('IMPORT_FILE_TYPE');
  const xml = entryText(bytes, workbook);
  const unescapeXml = (text: string) =>
    text
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&apos;', "'")
      .replaceAll('&amp;', '&');
  return [...xml.matchAll(/<(?:\w+:)?sheet\b[^>]*?\bname="([^"]*)"/g)].map((match) => unescapeXml(match[1]!));
}

/** The parts exceljs's streaming reader needs before a worksheet to read it as it streams. */
const PARTS_BEFORE_SHEETS = [
  '_rels/.rels',
  'xl/_rels/workbook.xml.rels',
  'xl/workbook.xml',
  'xl/sharedStrings.xml',
  'xl/styles.xml',
];

/**
 * The workbook's zip with the parts a worksheet depends on moved before the worksheets. exceljs's
 * streaming reader parks a worksheet that arrives before the shared strings in a temporary file of
 * the machine's temp directory (and ExcelJS, among other writers, puts the strings after the sheets):
 * the client data would touch the disk, outside the database, until the process exits. Reordered, the
 * sheet streams from memory. Each entry is copied as it is (its header, compressed bytes and data
 * descriptor), and the central directory points at their new places.
 */
export function withPartsFirst(bytes: Buffer, entries: readonly ZipEntry[]): Buffer {
  const rank = (name: string) => {
    const index = PARTS_BEFORE_SHEETS.indexOf(name);
    return index < 0 ? PARTS_BEFORE_SHEETS.length : index;
  };
  const stored = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  const ordered = [...stored].sort((a, b) => rank(a.name) - rank(b.name) || a.localOffset - b.localOffset);
  if (ordered.every((entry, index) => entry === stored[index])) return bytes;
  const pieces = ordered.map((entry) => {
    const nameLength = bytes.readUInt16LE(entry.localOffset + 26);
    const extraLength = bytes.readUInt16LE(entry.localOffset + 28);
    let end = entry.localOffset + 30 + nameLength + extraLength + entry.compressedSize;
    // Bit 3: sizes and CRC follow the data (a descriptor, with or without its signature).
    if (bytes.readUInt16LE(entry.localOffset + 6) & 0x08)
      end += bytes.readUInt32LE(end) === 0x08074b50 ? 16 : 12;
    return bytes.subarray(entry.localOffset, end);
  });
  // The central directory and its end record follow the entries, which fill the same bytes as before:
  // copied, each record pointing at its entry's new place (a valid zip for any reader).
  const last = ordered.reduce((latest, entry) => (entry.localOffset > latest.localOffset ? entry : latest));
  const tail = Buffer.from(bytes.subarray(last.localOffset + pieces[ordered.indexOf(last)]!.length));
  const movedTo = new Map<number, number>();
  let offset = 0;
  ordered.forEach((entry, index) => {
    movedTo.set(entry.localOffset, offset);
    offset += pieces[index]!.length;
  });
  for (let at = 0; tail.readUInt32LE(at) === 0x02014b50; ) {
    tail.writeUInt32LE(movedTo.get(tail.readUInt32LE(at + 42))!, at + 42);
    at += 46 + tail.readUInt16LE(at + 28) + tail.readUInt16LE(at + 30) + tail.readUInt16LE(at + 32);
  }
  return Buffer.concat([...pieces, tail]);
}

/** An exceljs cell value as the pipeline's cell: formulas by their cached result, rich text as text. */
function xlsxCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('result' in object || 'formula' in object || 'sharedFormula' in object) {
      return xlsxCell(object.result ?? null);
    }
    if (Array.isArray(object.richText)) {
      return (object.richText as { text?: string }[]).map((part) => part.text ?? '').join('');
    }
    if (typeof object.text === 'string') return object.text;
    if ('error' in object) return null;
  }
  return String(value);
}

async function* xlsxRows(bytes: Buffer, sheetName: string): AsyncGenerator<SheetRow> {
  const ExcelJS = await loadExcelJs();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  for await (const worksheet of reader) {
    const sheet = worksheet as unknown as { name: string } & AsyncIterable<{
      number: number;
      values: unknown[];
    }>;
    if (sheet.name !== sheetName) continue;
    for await (const row of sheet) {
      const values = Array.isArray(row.values) ? row.values : [];
      // exceljs numbers columns from 1: values[0] is always empty.
      const cells = values.slice(1, MAX_COLUMNS + 1).map(xlsxCell);
      yield { rowNumber: row.number, cells };
    }
    return;
  }
}

// --- CSV -------------------------------------------------------------------------------------------

/** Bytes of a CSV decoded per slice: the file is never turned into one string at once. */
const CSV_SLICE_BYTES = 64 * 1024;

/**
 * The text of a CSV, a slice at a time: UTF-8 (its BOM dropped) when its bytes are valid UTF-8 —
 * checked natively, without decoding — and Windows-1252 otherwise. Decoding a 100,000-row file
 * (8.7 MB) in one call held the event loop 50–100 ms (decision 0033, 2026-11-27).
 */
function* csvTextSlices(bytes: Buffer): Generator<string> {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const decoder = new TextDecoder(isUtf8(body) ? 'utf-8' : 'windows-1252');
  for (let start = 0; start < body.length; start += CSV_SLICE_BYTES) {
    // `stream`: a character cut at the slice's end is finished by the next slice.
    yield decoder.decode(body.subarray(start, start + CSV_SLICE_BYTES), { stream: true });
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/** ';' or ',' — whichever separates more fields of the first line (quotes respected). */
export function csvDelimiterOf(text: string): ';' | ',' {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (let i = 0; i < text.length && i < 65_536; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ';') semicolons++;
    else if (!quoted && char === ',') commas++;
  }
  return semicolons >= commas && semicolons > 0 ? ';' : commas > 0 ? ',' : ';';
}

/**
 * The CSV's rows, a slice of text at a time: papaparse parses a slice, pauses, and the next slice is
 * decoded and parsed only when these rows are consumed (so a 100,000-row file never blocks the event
 * loop for long, nor is held decoded or parsed in memory).
 */
async function* csvRows(bytes: Buffer): AsyncGenerator<SheetRow> {
  const slices = csvTextSlices(bytes);
  const first = slices.next();
  const head = first.done ? '' : first.value;
  const input = Readable.from(
    (function* () {
      if (head !== '') yield head;
      yield* slices;
    })(),
  );
  let pending: string[][] = [];
  let parser: Papa.Parser | null = null;
  let done = false;
  let failure: unknown = null;
  let wake = () => {};
  const arrival = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  let arrived = arrival();
  Papa.parse<string[]>(input, {
    delimiter: csvDelimiterOf(head),
    skipEmptyLines: false,
    chunk: (results: Papa.ParseResult<string[]>, chunkParser: Papa.Parser) => {
      for (const row of results.data) pending.push(row);
      parser = chunkParser;
      chunkParser.pause();
      wake();
    },
    complete: () => {
      done = true;
      wake();
    },
    error: (error: unknown) => {
      failure = error;
      done = true;
      wake();
    },
  });
  try {
    let rowNumber = 0;
    for (;;) {
      await arrived;
      arrived = arrival();
      const rows = pending;
      pending = [];
      for (const row of rows) {
        rowNumber += 1;
        yield { rowNumber, cells: row.slice(0, MAX_COLUMNS).map((cell) => (cell === '' ? null : cell)) };
      }
      if (failure) throw failure;
      if (done) return;
      (parser as Papa.Parser | null)?.resume();
    }
  } finally {
    input.destroy();
  }
}

// --- Both ------------------------------------------------------------------------------------------

const isBlankRow = (row: SheetRow) =>
  row.cells.every((cell) => cell === null || (typeof cell === 'string' && cell.trim() === ''));

/** A header is words: a first row of numbers, dates, RUTs or e-mails is data, and the sheet has no header. */
function looksLikeHeader(row: SheetRow): boolean {
  return row.cells.every((cell) => {
    if (cell === null) return true;
    if (typeof cell !== 'string') return false;
    const text = cell.trim();
    if (text === '') return true;
    return !/^[\d\s.,%$/-]+[kK]?$/.test(text) && !/^\S+@\S+\.\S+$/.test(text);
  });
}

/**
 * Opens an uploaded file: its format judged by its bytes, the sheet chosen (XLSX: the named one, or
 * the first), its header row (the first row that is not blank) and the rows after it, counted
 * against the limit as they stream.
 */
export async function openTable(bytes: Buffer, sheet?: string | null): Promise<OpenedTable> {
  const format = fileFormatOf(bytes);
  let sheets: string[] = [];
  let sheetName: string | null = null;
  let source: AsyncGenerator<SheetRow>;
  if (format === 'xlsx') {
    const entries = guardZip(bytes);
    sheets = sheetNamesOf(bytes, entries);
    if (sheets.length === 0) throw new AppError('IMPORT_FILE_EMPTY');
    sheetName = sheet ?? sheets[0]!;
    if (!sheets.includes(sheetName))
      throw new AppError('IMPORT_SHEET_UNKNOWN', { params: { sheet: sheetName } });
    source = xlsxRows(withPartsFirst(bytes, entries), sheetName);
  } else {
    source = csvRows(bytes);
  }
  let header: SheetRow | null = null;
  try {
    for (;;) {
      const next = await source.next();
      if (next.done) break;
      if (!isBlankRow(next.value)) {
        header = next.value;
        break;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('IMPORT_FILE_UNREADABLE', { cause: error });
  }
  if (!header) throw new AppError('IMPORT_FILE_EMPTY');
  if (!looksLikeHeader(header)) throw new AppError('IMPORT_NO_HEADER');
  async function* rest(): AsyncGenerator<SheetRow> {
    let count = 0;
    try {
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        if (isBlankRow(next.value)) continue;
        count += 1;
        if (count > MAX_ROWS) throw new AppError('IMPORT_TOO_MANY_ROWS', { params: { max: '200.000' } });
        yield next.value;
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('IMPORT_FILE_UNREADABLE', { cause: error });
    } finally {
      await source.return(undefined).catch(() => undefined);
    }
  }
  const close = async () => {
    try {
      await source.return(undefined);
    } catch {
      // The reader's streams complain when stopped early; nothing is left to read.
    }
  };
  return { format, sheets, sheetName, header, rows: rest(), close };
}
