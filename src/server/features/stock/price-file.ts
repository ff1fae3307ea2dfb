import type { CellValue } from '../../../shared/domain/import-cells';
import { foldForSearch } from '../../../shared/domain/search';
import type { UnitKind } from '../../../shared/domain/stock';
import { readAmountText } from '../../../shared/format/amount-text';
import { isReaderLimit, readSmallTable } from '../../readers/table';
import type { PriceInput } from './stock.service';

/**
 * A price list read from a file (CSV with ';' or ',', or XLSX's first sheet): a header row naming the
 * columns 'Tipo', 'Número' and 'Precio' (in any order; accents and case ignored), then one unit per
 * row. Kinds read as 'Departamento' / 'Depto', 'Estacionamiento' / 'Est', 'Bodega' / 'Bod'; prices as
 * people write them ('3.200,50', '3200.5'). Rows that cannot be read are listed by line, never
 * guessed; the rows read go to `diffPriceList` like those typed on the screen.
 */

export interface ReadPriceFile {
  rows: PriceInput[];
  problems: string[];
}

const KINDS: Record<string, UnitKind> = {
  departamento: 'apartment',
  depto: 'apartment',
  dpto: 'apartment',
  estacionamiento: 'parking',
  est: 'parking',
  bodega: 'storage',
  bod: 'storage',
};

const HEADERS = {
  kind: ['tipo', 'tipo de unidad', 'tipo unidad'],
  number: ['numero', 'n°', 'nº', 'unidad', 'numero unidad'],
  price: ['precio', 'precio lista', 'precio uf', 'precio (uf)', 'precio lista uf'],
} as const;

const MAX_PROBLEMS = 50;

function cellText(value: CellValue): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).trim();
}

function parseTable(table: string[][]): ReadPriceFile {
  const problems: string[] = [];
  const headerIndex = table.findIndex((row) => row.some((cell) => cell.trim() !== ''));
  if (headerIndex < 0) return { rows: [], problems: ['El archivo no tiene filas'] };
  const header = table[headerIndex]!.map((cell) => foldForSearch(cell).trim());
  const column = (names: readonly string[]) => header.findIndex((cell) => names.includes(cell));
  const at = { kind: column(HEADERS.kind), number: column(HEADERS.number), price: column(HEADERS.price) };
  if (at.kind < 0 || at.number < 0 || at.price < 0) {
    return {
      rows: [],
      problems: ['La primera fila debe nombrar las columnas «Tipo», «Número» y «Precio»'],
    };
  }
  const rows: PriceInput[] = [];
  const body = table.slice(headerIndex + 1);
  for (let offset = 0; offset < body.length; offset++) {
    const cells = body[offset]!;
    const line = headerIndex + offset + 2;
    if (cells.every((cell) => cell.trim() === '')) continue;
    const problem = (text: string) => {
      if (problems.length < MAX_PROBLEMS) problems.push(`Fila ${line}: ${text}`);
    };
    const kind = KINDS[foldForSearch(cells[at.kind] ?? '').trim()];
    const number = (cells[at.number] ?? '').trim();
    const amount = readAmountText(cells[at.price] ?? '');
    if (!kind) {
      problem(`tipo «${cells[at.kind] ?? ''}» desconocido (Departamento, Estacionamiento o Bodega)`);
      continue;
    }
    if (!number) {
      problem('falta el número de la unidad');
      continue;
    }
    if (!amount.ok) {
      problem(`precio «${cells[at.price] ?? ''}» no válido`);
      continue;
    }
    rows.push({ kind, number, price: amount.value.toFixed(2) });
  }
  return { rows, problems };
}

/** Splits CSV text (';' or ',' by the header line; quotes as Excel writes them). */
function csvTable(text: string): string[][] {
  const clean = text.replace(/^\uFEFF/, '');
  const firstLine = clean.split(/\r?\n/, 1)[0] ?? '';
  const separator = firstLine.split(';').length >= firstLine.split(',').length ? ';' : ',';
  const table: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < clean.length; i++) {
    const char = clean[i]!;
    if (quoted) {
      if (char === '"' && clean[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && clean[i + 1] === '\n') i++;
      row.push(cell);
      table.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    table.push(row);
  }
  return table;
}

/** Rows a price list may have: every unit of a large project, many times over. */
const PRICE_FILE_MAX_ROWS = 20_000;

/** The first sheet through the bounded reader of every table door (decision 0049). */
async function xlsxTable(bytes: Buffer): Promise<string[][]> {
  const table = await readSmallTable(bytes, PRICE_FILE_MAX_ROWS);
  return table.map((row) => Array.from(row, (cell) => cellText(cell ?? null)));
}

/** Reads a price list file; XLSX by its signature (a zip), anything else as CSV text. */
export async function readPriceFile(bytes: Buffer): Promise<ReadPriceFile> {
  const isZip = bytes.length > 3 && bytes[0] === 0x50 && bytes[1] === 0x4b;
  try {
    const table = isZip ? await xlsxTable(bytes) : csvTable(bytes.toString('utf8'));
    return parseTable(table);
  } catch (error) {
    // A reader's limit says its own reason; anything else is a file we cannot read.
    return {
      rows: [],
      problems: [
        isReaderLimit(error) ? error.message : 'No se pudo leer el archivo: use CSV o Excel (.xlsx)',
      ],
    };
  }
}
