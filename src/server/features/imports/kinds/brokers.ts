import { sql } from 'drizzle-orm';
import { type BrokerValues, brokerBody } from '../../../../shared/schemas/brokers';
import { IMPORT_FIELDS } from '../../../../shared/schemas/imports';
import { textArrayParam } from '../../../db/arrays';
import type { Executor } from '../../../db/client';
import { newRowId } from '../../../db/ids';
import { brokers } from '../../../db/schema';
import * as brokersService from '../../brokers/brokers.service';
import {
  allSame,
  type ChangedRecord,
  insertedRecord,
  type KindModule,
  type PlannedRow,
  schemaErrors,
} from './kind';

/** Brokers by RUT (the broker with that RUT is updated; none: created). */

const FIELDS = IMPORT_FIELDS.brokers;
const COLUMNS = IMPORT_FIELDS.brokers.map((field) => field.key) as (keyof BrokerValues)[];
type BrokerColumns = BrokerValues;
/** What the import does not carry (the bank data, decision 0040): kept as the broker has it. */
const KEPT = [
  'bankName',
  'bankAccountType',
  'bankAccountNumber',
  'bankHolderName',
  'bankHolderRut',
  'paymentEmail',
] as const;

interface BrokerPlan {
  id: string | null;
  version: number | null;
  values: BrokerColumns;
}

async function brokersByRut(db: Executor, ruts: readonly string[]) {
  if (ruts.length === 0) return new Map<string, typeof brokers.$inferSelect>();
  const rows = await db
    .select()
    .from(brokers)
    .where(sql`${brokers.rut} = any(${textArrayParam(ruts)})`);
  return new Map(rows.map((row) => [row.rut, row]));
}

export const brokersKind: KindModule<BrokerPlan> = {
  kind: 'brokers',
  fields: FIELDS,
  keyField: 'rut',
  chunkSize: { embedded: 200, postgres: 200 },

  async planBatch(db, rows) {
    const ruts = rows.map((row) => row.values.rut).filter((rut): rut is string => typeof rut === 'string');
    const existing = await brokersByRut(db, ruts);
    return rows.map((row): PlannedRow<BrokerPlan> => {
      if (row.errors.length > 0) return { rowNumber: row.rowNumber, action: 'error', errors: row.errors };
      const current = typeof row.values.rut === 'string' ? existing.get(row.values.rut) : undefined;
      // A column left unmapped keeps what the client has; a mapped blank cell clears an optional field.
      const input: Record<string, unknown> = {};
      for (const key of COLUMNS) {
        if (key in row.texts)
          input[key] = row.values[key] ?? (key === 'kamReceivesCommission' ? false : null);
        else input[key] = current ? current[key] : key === 'kamReceivesCommission' ? false : null;
      }
      for (const key of KEPT) input[key] = current ? current[key] : null;
      const parsed = brokerBody.safeParse(input);
      if (!parsed.success) {
        return { rowNumber: row.rowNumber, action: 'error', errors: schemaErrors(row, FIELDS, parsed.error) };
      }
      const values = parsed.data as BrokerColumns;
      if (!current)
        return {
          rowNumber: row.rowNumber,
          action: 'create',
          errors: [],
          plan: { id: null, version: null, values },
        };
      if (allSame(values, current as unknown as Record<string, unknown>, COLUMNS))
        return { rowNumber: row.rowNumber, action: 'unchanged', errors: [] };
      return {
        rowNumber: row.rowNumber,
        action: 'update',
        errors: [],
        plan: { id: current.id, version: current.version, values },
      };
    });
  },

  async applyBatch(tx, rows, ctx) {
    // Written by the brokers feature, its one writer (decision 0056).
    const creates = rows
      .filter((row) => row.action === 'create' && row.plan)
      .map((row) => ({ row, id: newRowId() }));
    const updates = rows.filter((row) => row.action === 'update' && row.plan?.id);
    const before = await brokersService.importIn(
      tx,
      {
        creates: creates.map(({ row, id }) => ({ ...row.plan!.values, id })),
        updates: updates.map((row) => ({
          id: row.plan!.id!,
          version: row.plan!.version!,
          values: row.plan!.values,
        })),
      },
      ctx.actorId,
    );
    return [
      ...creates.map(({ row, id }) => insertedRecord('brokers', id, row.rowNumber)),
      ...updates.map(
        (row): ChangedRecord => ({
          tableName: 'brokers',
          recordId: row.plan!.id!,
          action: 'update',
          before: before.get(row.plan!.id!) ?? null,
          rowNumber: row.rowNumber,
        }),
      ),
    ];
  },
};
