import { isUtf8 } from 'node:buffer';
import { letOthersThrough } from '../event-loop';
import { AppError } from '../http/app-error';
import { columnLetter, MAX_CELL_CHARACTERS, type RawRow } from './cells';

/**
 * CSV as Chilean Excel saves it (decision 0049, replacing papaparse's stream of 0033): UTF-8 (its BOM
 * dropped) when the bytes are valid UTF-8, else Windows-1252; ';' or ',' by the first line; quotes as
 * Excel writes them. One pass over 64 KiB slices of text, each character looked at once, the event
 * loop let through between slices: a cell is refused as soon as it passes Excel's 32,767 characters
 * (papaparse re-read a long cell from its start with every slice: a 10 MB cell took 7–10 s).
 */

/** Bytes of a CSV decoded per slice: the file is never turned into one string at once. */
const CSV_SLICE_BYTES = 64 * 1024;

/** The text a slice at a time; `isUtf8` checks natively without decoding (decision 0033). */
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

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * The records of a CSV, numbered from 1 as Excel numbers its rows (a quoted line break stays in its
 * cell). Empty cells are null. A quote opens a quoted cell only at the cell's start; after its closing
 * quote, what follows up to the separator is kept (Excel's reading of `"a"b`).
 */
export async function* csvRows(bytes: Buffer): AsyncGenerator<RawRow> {
  const slices = csvTextSlices(bytes);
  const first = slices.next();
  if (first.done) return;
  const delimiter = csvDelimiterOf(first.value).charCodeAt(0);
  let rowNumber = 1;
  let cells: (string | null)[] = [];
  let cell = '';
  /** 'start' of a cell, inside a plain one, inside quotes, or just after a quote inside quotes. */
  let state: 'start' | 'plain' | 'quoted' | 'quote' = 'start';
  let skipLf = false;
  const tooLong = () =>
    new AppError('SHEET_CELL_TOO_LONG', {
      params: { row: rowNumber, column: columnLetter(cells.length), max: '32.767' },
    });
  const add = (text: string) => {
    cell += text;
    if (cell.length > MAX_CELL_CHARACTERS) throw tooLong();
  };
  const endCell = () => {
    cells.push(cell === '' ? null : cell);
    cell = '';
    state = 'start';
  };
  const endRow = (): RawRow => {
    endCell();
    const row = { rowNumber, cells };
    rowNumber += 1;
    cells = [];
    return row;
  };
  let text: string | undefined = first.value;
  while (text !== undefined) {
    const rows: RawRow[] = [];
    let i = 0;
    if (skipLf && text.charCodeAt(0) === LF) i = 1;
    skipLf = false;
    let runStart = i;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (state === 'quoted') {
        if (code === QUOTE) {
          add(text.slice(runStart, i));
          state = 'quote';
        }
        continue;
      }
      if (state === 'quote') {
        if (code === QUOTE) {
          // Two quotes inside quotes: one quote of the text.
          add('"');
          state = 'quoted';
          runStart = i + 1;
          continue;
        }
        state = 'plain';
        runStart = i;
      }
      if (state === 'start' && code === QUOTE) {
        state = 'quoted';
        runStart = i + 1;
        continue;
      }
      if (code === delimiter || code === CR || code === LF) {
        add(text.slice(runStart, i));
        if (code === delimiter) endCell();
        else {
          rows.push(endRow());
          if (code === CR) {
            if (i + 1 === text.length) skipLf = true;
            else if (text.charCodeAt(i + 1) === LF) i += 1;
          }
        }
        runStart = i + 1;
        continue;
      }
      state = 'plain';
    }
    if (state !== 'quote') add(text.slice(runStart));
    for (const row of rows) yield row;
    await letOthersThrough();
    const next = slices.next();
    text = next.done ? undefined : next.value;
  }
  if (cells.length > 0 || cell !== '' || state !== 'start') yield endRow();
}
