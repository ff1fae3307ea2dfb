import { posix } from 'node:path';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { CellValue } from '../../shared/domain/import-cells';
import { AppError } from '../http/app-error';
import { columnLetter, MAX_CELL_CHARACTERS, type RawRow } from './cells';
import {
  budgetOf,
  type InflateBounds,
  type InflateBudget,
  inflateEntry,
  type ZipEntry,
  type ZipSource,
  zipEntries,
} from './zip';

/**
 * A workbook read the way real exporters write it (decision 0049): Excel, LibreOffice, Google Sheets,
 * openpyxl and pandas. The parts are found through the package's relationships (absolute or relative
 * part names; never an assumed `xl/worksheets/sheetN.xml`), each inflated through the bounded
 * inflater (`zip.ts`) and read by saxes (no DTD, no entity expanded) as it inflates. Shared strings
 * (bounded in count and characters) and styles are read first — the zip's central directory says
 * where each part is, so the order of the entries does not matter and nothing goes to a temporary
 * file. Then the sheet streams: each row is handed on as soon as it is closed. Text cells are shared,
 * inline or rich strings; numbers whose format is a date become dates (1900 or 1904 system);
 * booleans; formulas by their cached value; error cells empty.
 */

/** How far a workbook may expand (its file is at most 60 MB). */
export const XLSX_BOUNDS: InflateBounds = {
  entryBytes: 320 * 1024 * 1024,
  totalBytes: 640 * 1024 * 1024,
  ratio: 200,
  ratioFloor: 4 * 1024 * 1024,
};
/** Distinct texts a workbook may share, and their characters in all (~80 MB at most in memory). */
export const MAX_SHARED_STRINGS = 2_000_000;
export const MAX_SHARED_CHARACTERS = 40_000_000;
/** Excel's last row and column. */
const MAX_ROW_NUMBER = 1_048_576;
const MAX_COLUMN_INDEX = 16_383;
/**
 * Characters between two tags: a cell's text at its most escaped (`&#x10FFFF;` per character) stays
 * below; a longer stretch is refused as it arrives, before the parser has gathered it.
 */
const MAX_STRETCH = MAX_CELL_CHARACTERS * 10 + 1024;

const damaged = (cause?: unknown) => new AppError('IMPORT_FILE_UNREADABLE', { cause });

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** OOXML's escape of characters XML cannot carry: `_x000D_` is a carriage return, `_x005F_` an underscore. */
function unescapeOoxml(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/**
 * Feeds a part to a parser as it inflates, yielding after each piece so the caller can hand on what
 * the piece completed (and others' requests get through while zlib inflates the next one).
 */
async function* feed(
  source: ZipSource,
  entry: ZipEntry,
  budget: InflateBudget,
  parser: SaxesParser,
  tooLong: () => AppError,
): AsyncGenerator<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let stretch = 0;
  const write = (text: string) => {
    // The longest stretch without '<' (a text or a tag): counted natively, before saxes gathers it.
    let at = 0;
    for (;;) {
      const next = text.indexOf('<', at);
      stretch += (next < 0 ? text.length : next) - at;
      if (stretch > MAX_STRETCH) throw tooLong();
      if (next < 0) break;
      stretch = 0;
      at = next + 1;
    }
    parser.write(text);
  };
  // A part that is not UTF-8 is no part an exporter writes.
  const decode = (piece?: Buffer) => {
    try {
      return piece === undefined ? decoder.decode() : decoder.decode(piece, { stream: true });
    } catch (error) {
      throw damaged(error);
    }
  };
  for await (const piece of inflateEntry(source, entry, budget)) {
    write(decode(piece));
    yield;
  }
  write(decode());
  parser.close();
}

function newParser(): SaxesParser {
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('doctype', () => {
    throw damaged();
  });
  parser.on('error', (error) => {
    throw damaged(error);
  });
  return parser;
}

/** Reads a whole small part (relationships, the workbook) for its tags' attributes. */
async function readTags(
  source: ZipSource,
  entry: ZipEntry,
  budget: InflateBudget,
  onTag: (name: string, attributes: Record<string, string>) => void,
): Promise<void> {
  const parser = newParser();
  parser.on('opentag', (tag: SaxesTagPlain) => onTag(localName(tag.name), tag.attributes));
  for await (const _ of feed(source, entry, budget, parser, damaged)) {
    // Only the tags are wanted.
  }
}

interface Relationship {
  type: string;
  target: string;
}

/** The part a relationship points at, from the folder of the part that holds it. */
function resolvePart(fromPart: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : posix.join(posix.dirname(fromPart), target);
  return posix.normalize(path).replace(/^(\.\.\/)+/, '');
}

/** `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`. */
function relationshipsPartOf(part: string): string {
  const folder = posix.dirname(part);
  return posix.join(folder === '.' ? '' : folder, '_rels', `${posix.basename(part)}.rels`);
}

const relationshipType = (type: string) => type.slice(type.lastIndexOf('/') + 1);

/** Format ids Excel builds in that show dates or times (ECMA-376 §18.8.30; 27–36 and 50–58: East Asian). */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/** Whether a number format shows a date or time: d, m, y, h or s outside quotes, escapes and brackets. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/_.|\*./g, '');
  if (/^general$/i.test(bare.trim())) return false;
  // A format's first section is the one positive numbers use.
  const first = bare.split(';')[0] ?? '';
  return /[dmyhs]/i.test(first) && !/^[#0.,%E+\-\s]*$/i.test(first);
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** An Excel serial as a UTC date; the 1900 system counts Lotus' 29 February 1900 (serials below 61). */
export function dateOfSerial(serial: number, date1904: boolean): Date {
  if (date1904) return new Date(EPOCH_1904 + Math.round(serial * DAY_MS));
  const shifted = serial < 61 ? serial + 1 : serial;
  return new Date(EPOCH_1900 + Math.round(shifted * DAY_MS));
}

export interface WorkbookReader {
  /** The visible worksheets, in the order Excel shows them. */
  sheets: string[];
  /** A sheet's rows as they inflate (shared strings and styles read first). */
  rows(sheet: string): AsyncGenerator<RawRow>;
}

/** Opens a workbook: its parts found through its relationships; nothing of its cells read yet. */
export async function openWorkbook(
  source: ZipSource,
  bounds: InflateBounds = XLSX_BOUNDS,
): Promise<WorkbookReader> {
  const entries = await zipEntries(source);
  // Part names are compared without case (OPC), with or without a leading slash.
  const byName = new Map(entries.map((entry) => [entry.name.replace(/^\//, '').toLowerCase(), entry]));
  const part = (name: string) => byName.get(name.toLowerCase()) ?? null;
  const budget = budgetOf(bounds);

  const relationshipsOf = async (ofPart: string): Promise<Map<string, Relationship>> => {
    const found = new Map<string, Relationship>();
    const entry = part(relationshipsPartOf(ofPart));
    if (!entry) return found;
    await readTags(source, entry, budget, (name, attributes) => {
      if (name !== 'Relationship' || !attributes.Id || !attributes.Target) return;
      if (attributes.TargetMode === 'External') return;
      found.set(attributes.Id, {
        type: relationshipType(attributes.Type ?? ''),
        target: resolvePart(ofPart, attributes.Target),
      });
    });
    return found;
  };

  const root = await relationshipsOf('');
  const workbookPart =
    [...root.values()].find((relationship) => relationship.type === 'officeDocument')?.target ??
    'xl/workbook.xml';
  const workbookEntry = part(workbookPart);
  if (!workbookEntry) throw damaged();
  const declared: { name: string; id: string; hidden: boolean }[] = [];
  let date1904 = false;
  await readTags(source, workbookEntry, budget, (name, attributes) => {
    if (name === 'workbookPr') date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
    if (name !== 'sheet' || attributes.name === undefined) return;
    const id = attributes['r:id'] ?? Object.entries(attributes).find(([key]) => localName(key) === 'id')?.[1];
    if (id)
      declared.push({ name: attributes.name, id, hidden: (attributes.state ?? 'visible') !== 'visible' });
  });
  const workbookRelationships = await relationshipsOf(workbookPart);
  const worksheets = declared.flatMap((sheet) => {
    const relationship = workbookRelationships.get(sheet.id);
    const entry = relationship?.type === 'worksheet' ? part(relationship.target) : null;
    return entry ? [{ ...sheet, entry }] : [];
  });
  const visible = worksheets.some((sheet) => !sheet.hidden)
    ? worksheets.filter((sheet) => !sheet.hidden)
    : worksheets;
  const partOfType = (type: string) => {
    const relationship = [...workbookRelationships.values()].find((candidate) => candidate.type === type);
    return relationship ? part(relationship.target) : null;
  };

  return {
    sheets: visible.map((sheet) => sheet.name),
    async *rows(sheetName) {
      const sheet = visible.find((candidate) => candidate.name === sheetName);
      if (!sheet) throw new AppError('IMPORT_SHEET_UNKNOWN', { params: { sheet: sheetName } });
      const stylesEntry = partOfType('styles');
      const stringsEntry = partOfType('sharedStrings');
      const dateStyles = stylesEntry ? await dateStylesOf(source, stylesEntry, budget) : [];
      const strings = stringsEntry ? await sharedStringsOf(source, stringsEntry, budget) : [];
      yield* sheetRows(source, sheet.entry, budget, { strings, dateStyles, date1904 });
    },
  };
}

/** Which cell styles (by index) show a date: the `cellXfs` whose number format is one. */
async function dateStylesOf(source: ZipSource, entry: ZipEntry, budget: InflateBudget): Promise<boolean[]> {
  const formats = new Map<number, string>();
  const styles: number[] = [];
  let inCellXfs = false;
  const parser = newParser();
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (name === 'numFmt') formats.set(Number(tag.attributes.numFmtId), tag.attributes.formatCode ?? '');
    else if (name === 'cellXfs') inCellXfs = true;
    else if (name === 'xf' && inCellXfs) styles.push(Number(tag.attributes.numFmtId ?? 0));
  });
  parser.on('closetag', (tag) => {
    if (localName(tag.name) === 'cellXfs') inCellXfs = false;
  });
  for await (const _ of feed(source, entry, budget, parser, damaged)) {
    // Read whole.
  }
  return styles.map((id) => {
    const code = formats.get(id);
    return code === undefined ? BUILT_IN_DATE_FORMATS.has(id) : isDateFormat(code);
  });
}

const textTooLong = () => new AppError('SHEET_TEXT_TOO_LONG', { params: { max: '32.767' } });

/** The shared strings, each the text of its runs (phonetic guides left out), bounded in count and size. */
async function sharedStringsOf(source: ZipSource, entry: ZipEntry, budget: InflateBudget): Promise<string[]> {
  const strings: string[] = [];
  let characters = 0;
  let text: string | null = null;
  let inText = false;
  let phonetic = 0;
  const parser = newParser();
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (name === 'si') text = '';
    else if (name === 'rPh') phonetic += 1;
    else if (name === 't' && text !== null && phonetic === 0) inText = true;
  });
  parser.on('text', (chunk) => {
    if (!inText || text === null) return;
    text += chunk;
    if (text.length > MAX_CELL_CHARACTERS * 7) throw textTooLong();
  });
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    if (name === 't') inText = false;
    else if (name === 'rPh') phonetic -= 1;
    else if (name === 'si' && text !== null) {
      const value = unescapeOoxml(text);
      if (value.length > MAX_CELL_CHARACTERS) throw textTooLong();
      characters += value.length;
      strings.push(value);
      text = null;
      if (strings.length > MAX_SHARED_STRINGS || characters > MAX_SHARED_CHARACTERS) {
        throw new AppError('SHEET_TOO_MANY_STRINGS', {
          params: { max: '2.000.000', characters: '40.000.000' },
        });
      }
    }
  });
  for await (const _ of feed(source, entry, budget, parser, textTooLong)) {
    // Gathered by the handlers.
  }
  return strings;
}

/** 'B12' → column 1 (from 0); null when it is no cell reference. */
function columnOf(reference: string): number | null {
  let column = 0;
  let letters = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code >= 65 && code <= 90) column = column * 26 + (code - 64);
    else if (code >= 97 && code <= 122) column = column * 26 + (code - 96);
    else break;
    letters += 1;
    if (letters > 3) return null;
  }
  return letters === 0 ? null : column - 1;
}

interface SheetContext {
  strings: string[];
  dateStyles: boolean[];
  date1904: boolean;
}

interface OpenCell {
  column: number;
  type: string;
  isDate: boolean;
  value: string | null;
  inline: string | null;
}

function cellValueOf(cell: OpenCell, context: SheetContext): CellValue {
  const value = cell.value;
  switch (cell.type) {
    case 's': {
      if (value === null || value.trim() === '') return null;
      const text = context.strings[Number(value)];
      if (text === undefined) throw damaged();
      return text;
    }
    case 'inlineStr':
      return unescapeOoxml(cell.inline ?? value ?? '');
    case 'str':
      return value === null ? null : unescapeOoxml(value);
    case 'b':
      return value === null ? null : value.trim() === '1' || value.trim().toLowerCase() === 'true';
    case 'e':
      return null;
    case 'd': {
      if (value === null || value.trim() === '') return null;
      const iso = value.trim();
      const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) || iso.length <= 10 ? iso : `${iso}Z`);
      return Number.isNaN(date.getTime()) ? iso : date;
    }
    default: {
      if (value === null || value.trim() === '') return null;
      const number = Number(value);
      if (!Number.isFinite(number)) return value;
      return cell.isDate ? dateOfSerial(number, context.date1904) : number;
    }
  }
}

/** A worksheet's rows, each handed on once its `</row>` is read. */
async function* sheetRows(
  source: ZipSource,
  entry: ZipEntry,
  budget: InflateBudget,
  context: SheetContext,
): AsyncGenerator<RawRow> {
  const parser = newParser();
  const done: RawRow[] = [];
  let inSheetData = false;
  let finished = false;
  let row: RawRow | null = null;
  let lastRow = 0;
  let nextColumn = 0;
  let cell: OpenCell | null = null;
  /** What text is gathered: a cell's value, an inline string's text, or nothing. */
  let gathering: 'value' | 'inline' | null = null;
  let inInline = false;
  let phonetic = 0;
  const tooLong = () =>
    new AppError('SHEET_CELL_TOO_LONG', {
      params: {
        row: row?.rowNumber ?? lastRow + 1,
        column: cell ? columnLetter(cell.column) : '?',
        max: '32.767',
      },
    });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (name === 'sheetData') {
      inSheetData = true;
      return;
    }
    if (!inSheetData) return;
    if (name === 'row') {
      const number = tag.attributes.r === undefined ? lastRow + 1 : Number(tag.attributes.r);
      if (!Number.isInteger(number) || number < 1 || number > MAX_ROW_NUMBER) throw damaged();
      row = { rowNumber: number, cells: [] };
      nextColumn = 0;
    } else if (name === 'c' && row) {
      const reference = tag.attributes.r;
      const column = reference === undefined ? nextColumn : columnOf(reference);
      if (column === null || column > MAX_COLUMN_INDEX) throw damaged();
      const style = Number(tag.attributes.s ?? 0);
      cell = {
        column,
        type: tag.attributes.t ?? 'n',
        isDate: context.dateStyles[style] === true,
        value: null,
        inline: null,
      };
    } else if (cell && name === 'v') {
      gathering = 'value';
      cell.value = '';
    } else if (cell && name === 'is') inInline = true;
    else if (cell && inInline && name === 'rPh') phonetic += 1;
    else if (cell && inInline && name === 't' && phonetic === 0) {
      gathering = 'inline';
      cell.inline ??= '';
    }
  });
  parser.on('text', (chunk) => {
    if (!cell || gathering === null) return;
    if (gathering === 'value') cell.value += chunk;
    else cell.inline += chunk;
    if ((gathering === 'value' ? cell.value : cell.inline)!.length > MAX_CELL_CHARACTERS * 7) throw tooLong();
  });
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    if (name === 'v' || name === 't') gathering = null;
    else if (name === 'rPh') phonetic -= 1;
    else if (name === 'is') inInline = false;
    else if (name === 'c' && cell && row) {
      const value = cellValueOf(cell, context);
      if (typeof value === 'string' && value.length > MAX_CELL_CHARACTERS) throw tooLong();
      row.cells[cell.column] = value;
      nextColumn = cell.column + 1;
      cell = null;
    } else if (name === 'row' && row) {
      lastRow = row.rowNumber;
      done.push({ rowNumber: row.rowNumber, cells: Array.from(row.cells, (value) => value ?? null) });
      row = null;
    } else if (name === 'sheetData') {
      inSheetData = false;
      finished = true;
    }
  });
  for await (const _ of feed(source, entry, budget, parser, tooLong)) {
    for (const completed of done.splice(0)) yield completed;
    // What follows the rows (merged cells, page setup) is not needed: the part is left uninflated.
    if (finished) return;
  }
  for (const completed of done.splice(0)) yield completed;
}
