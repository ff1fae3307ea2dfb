import type { z } from 'zod';
import {
  type CellValue,
  cellText,
  foldText,
  isBlank,
  type Parsed,
  parseAmount,
  parseDate,
  parseInteger,
  parsePercent,
  parseRut,
  parseYesNo,
} from '../../../../shared/domain/import-cells';
import {
  type ColumnMapping,
  columnsOf,
  type ImportField,
  type ImportKind,
  type RowError,
} from '../../../../shared/schemas/imports';
import { joinLines } from '../../../../shared/text-safety';
import type { Executor } from '../../../db/client';

/**
 * One kind of import is one module (decision 0033): its fields (shared/schemas/imports.ts), how a
 * batch of read rows is planned against the database (resolve references, compare with what exists:
 * create, update, unchanged or error) and how a chunk of planned rows is written. The pipeline
 * (pipeline.ts) does the rest the same way for every kind: reading, mapping, the Chilean formats,
 * duplicate keys, chunks, progress, records for undo.
 */

/** A row with its cells read by field type; `errors` holds what could not be read. */
export interface ReadRow {
  rowNumber: number;
  values: Record<string, unknown>;
  /** The cell text of each mapped field (for error messages). */
  texts: Record<string, string>;
  errors: RowError[];
}

export type RowAction = 'create' | 'update' | 'unchanged' | 'error';

export interface PlannedRow<Plan = unknown> {
  rowNumber: number;
  action: RowAction;
  errors: RowError[];
  /** What apply writes (create/update). */
  plan?: Plan;
  /**
   * What the row takes that no other row of the file may take (a reservation's units): two rows with
   * the same claim are both errors, each naming the other's row, on the claim's column and value.
   */
  claims?: { key: string; column: string; value: string }[];
}

/** A record an apply created or updated: what undo needs. */
export interface ChangedRecord {
  tableName: ImportTable;
  recordId: string;
  action: 'insert' | 'update';
  /** The whole row before an update. */
  before: Record<string, unknown> | null;
  rowNumber: number;
}

/** What undo needs of a row the chunk created: its table, its id and the file's row. */
export function insertedRecord(tableName: ImportTable, recordId: string, rowNumber: number): ChangedRecord {
  return { tableName, recordId, action: 'insert', before: null, rowNumber };
}

/** The tables an import writes (and undo restores), in the order undo deletes what was created. */
export const IMPORT_TABLES = [
  'price_lists',
  'broker_commissions',
  'reservations',
  'units',
  'brokers',
  'clients',
] as const;
export type ImportTable = (typeof IMPORT_TABLES)[number];

export interface ApplyContext {
  actorId: string;
  now: Date;
  /** Kept across the chunks of one apply (what `finish` writes at the end). */
  memo: Record<string, unknown>;
  /** The projects whose stock the apply changed: each gets a `stock-changed` event after the run. */
  stockChanged: Set<string>;
}

export interface KindModule<Plan = unknown> {
  kind: ImportKind;
  fields: readonly ImportField[];
  /** The field holding the natural key (duplicate keys in one file are refused). */
  keyField: string;
  /**
   * A key made of several fields (units: project + kind + number), and how an error names it; without
   * it, the key is the `keyField`'s value.
   */
  keyOf?(row: ReadRow): { key: string; text: string } | undefined;
  /** One query per batch: references resolved, compared with the stored records. */
  planBatch(
    db: Executor,
    rows: readonly ReadRow[],
    now: Date,
    /** Kept across the batches of one pass over the file (what earlier rows took). */
    memo: Record<string, unknown>,
  ): Promise<PlannedRow<Plan>[]>;
  /**
   * Rows per apply transaction, by engine. On the embedded database a transaction holds the whole
   * process (its every answer is a turn of the event loop): short enough that others' requests get
   * through in between. PostgreSQL's hold only their own connection: longer, for fewer round trips.
   */
  chunkSize: { embedded: number; postgres: number };
  /** Writes the batch's creations and updates inside the caller's transaction. */
  applyBatch(tx: Executor, rows: readonly PlannedRow<Plan>[], ctx: ApplyContext): Promise<ChangedRecord[]>;
  /**
   * After the last chunk, in one more transaction of the apply: what belongs to the whole file rather
   * than to a chunk (the units' new price lists, one per project and date).
   */
  finish?(tx: Executor, ctx: ApplyContext): Promise<ChangedRecord[]>;
}

function parseByType(field: ImportField, cell: CellValue): Parsed<unknown> {
  switch (field.type) {
    case 'rut':
      return parseRut(cell);
    case 'date':
      return parseDate(cell);
    case 'amount':
      return parseAmount(cell);
    case 'percent':
      return parsePercent(cell);
    case 'yesNo':
      return parseYesNo(cell);
    case 'integer':
      return parseInteger(cell);
    case 'list': {
      const text = cellText(cell);
      const value = field.values?.find((allowed) => foldText(allowed) === foldText(text));
      return value === undefined
        ? { ok: false, reason: `Use uno de estos valores: ${field.values?.join(', ')}` }
        : { ok: true, value };
    }
    default:
      // A line break typed in a cell (Alt+Enter) is read as ' / ': names and numbers are one line (0058).
      return { ok: true, value: joinLines(cellText(cell)) };
  }
}

/**
 * The mapped cells of a row read by their field's type: blank cells are absent (the schema says
 * whether that is allowed), others parsed or reported with the column's header, the value and why.
 */
export function readRow(
  fields: readonly ImportField[],
  mapping: ColumnMapping,
  rowNumber: number,
  cells: readonly CellValue[],
): ReadRow {
  const row: ReadRow = { rowNumber, values: {}, texts: {}, errors: [] };
  for (const field of fields) {
    const columns = columnsOf(mapping, field.key);
    if (columns.length === 0) continue;
    // Several columns make one field joined by a space, the blank ones left out (issue 55).
    const cell =
      columns.length === 1
        ? (cells[columns[0]!] ?? null)
        : columns
            .map((index) => cellText(cells[index] ?? null))
            .filter((text) => text !== '')
            .join(' ') || null;
    const text = cellText(cell);
    row.texts[field.key] = text;
    if (isBlank(cell)) continue;
    const parsed = parseByType(field, cell);
    if (parsed.ok) row.values[field.key] = parsed.value;
    else row.errors.push({ rowNumber, column: field.label, value: text, reason: parsed.reason });
  }
  return row;
}

/** A row error on one field. */
export function fieldError(
  row: ReadRow,
  fields: readonly ImportField[],
  key: string,
  reason: string,
): RowError {
  const field = fields.find((candidate) => candidate.key === key);
  return {
    rowNumber: row.rowNumber,
    column: field?.label ?? key,
    value: row.texts[key] ?? '',
    reason,
  };
}

/**
 * A shared form schema's verdict on a row, its issues as row errors on the columns they name
 * (`columnOf` maps a schema path to a field key when they differ).
 */
export function schemaErrors(
  row: ReadRow,
  fields: readonly ImportField[],
  error: z.ZodError,
  columnOf: (path: string) => string = (path) => path,
): RowError[] {
  const seen = new Set<string>();
  const errors: RowError[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const key = columnOf(path);
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(fieldError(row, fields, key, issue.message));
  }
  return errors;
}

/** Same value for the comparison of 'unchanged': null and '' alike, numbers by their decimal value. */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (value: unknown) => {
    if (value === undefined || value === null || value === '') return null;
    if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return String(Number(value));
    return String(value);
  };
  return norm(a) === norm(b);
}

export function allSame(
  next: Record<string, unknown>,
  current: Record<string, unknown>,
  keys: readonly string[],
): boolean {
  return keys.every((key) => sameValue(next[key], current[key]));
}
