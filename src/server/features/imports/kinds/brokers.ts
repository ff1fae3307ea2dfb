import { and, eq, sql } from 'drizzle-orm';
import { type BrokerValues, brokerBody } from '../../../../shared/schemas/brokers';
import { IMPORT_FIELDS } from '../../../../shared/schemas/imports';
import { textArrayParam } from '../../../db/arrays';
import type { Executor } from '../../../db/client';
import { brokers } from '../../../db/schema';
import { AppError } from '../../../http/app-error';
import { lockRowSnapshots } from '../imports.queries';
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
    const records: ChangedRecord[] = [];
    const creates = rows.filter((row) => row.action === 'create' && row.plan);
    if (creates.length > 0) {
      const inserted = await tx
        .insert(brokers)
        .values(
          creates.map((row) => ({
            ...row.plan!.values,
            createdBy: ctx.actorId,
            updatedBy: ctx.actorId,
          })),
        )
        .returning({ id: brokers.id });
      inserted.forEach((row, index) => {
        records.push(insertedRecord('brokers', row.id, creates[index]!.rowNumber));
      });
    }
    const updates = rows.filter((row) => row.action === 'update' && row.plan?.id);
    const before = await lockRowSnapshots(
      tx,
      'brokers',
      updates.map((row) => row.plan!.id!),
    );
    for (const row of updates) {
      const plan = row.plan!;
      const changed = await tx
        .update(brokers)
        .set({
          ...plan.values,
          updatedBy: ctx.actorId,
          updatedAt: sql`now()`,
          version: sql`${brokers.version} + 1`,
        })
        .where(and(eq(brokers.id, plan.id!), eq(brokers.version, plan.version!)))
        .returning({ id: brokers.id });
      if (changed.length === 0) throw new AppError('STALE_VERSION');
      records.push({
        tableName: 'brokers',
        recordId: plan.id!,
        action: 'update',
        before: before.get(plan.id!) ?? null,
        rowNumber: row.rowNumber,
      });
    }
    return records;
  },
};
