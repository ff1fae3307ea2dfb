import { and, isNull, sql } from 'drizzle-orm';
import { errorMessage } from '../../../../shared/errors';
import { type ClientValues, clientBody } from '../../../../shared/schemas/clients';
import { IMPORT_FIELDS } from '../../../../shared/schemas/imports';
import { textArrayParam } from '../../../db/arrays';
import type { Executor } from '../../../db/client';
import { newRowId } from '../../../db/ids';
import { clients } from '../../../db/schema';
import * as clientsService from '../../clients/clients.service';
import {
  allSame,
  type ChangedRecord,
  fieldError,
  insertedRecord,
  type KindModule,
  type PlannedRow,
  schemaErrors,
} from './kind';

/** Clientes by RUT (the live client with that RUT is updated; none: created). */

const FIELDS = IMPORT_FIELDS.clients;
const COLUMNS = ['rut', 'firstName', 'lastName', 'birthDate', 'phone', 'email'] as const;
type ClientColumns = Record<(typeof COLUMNS)[number], string | null>;

interface ClientPlan {
  id: string | null;
  version: number | null;
  values: ClientColumns;
}

async function liveClientsByRut(db: Executor, ruts: readonly string[]) {
  if (ruts.length === 0) return new Map();
  const rows = await db
    .select({
      id: clients.id,
      version: clients.version,
      restriction: clients.restriction,
      rut: clients.rut,
      firstName: clients.firstName,
      lastName: clients.lastName,
      birthDate: clients.birthDate,
      phone: clients.phone,
      email: clients.email,
    })
    .from(clients)
    .where(and(sql`${clients.rut} = any(${textArrayParam(ruts)})`, isNull(clients.deletedAt)));
  return new Map(rows.map((row) => [row.rut, row]));
}

export const clientsKind: KindModule<ClientPlan> = {
  kind: 'clients',
  fields: FIELDS,
  keyField: 'rut',
  chunkSize: { embedded: 50, postgres: 500 },

  async planBatch(db, rows) {
    const ruts = rows.map((row) => row.values.rut).filter((rut): rut is string => typeof rut === 'string');
    const existing = await liveClientsByRut(db, ruts);
    return rows.map((row): PlannedRow<ClientPlan> => {
      if (row.errors.length > 0) return { rowNumber: row.rowNumber, action: 'error', errors: row.errors };
      const current = typeof row.values.rut === 'string' ? existing.get(row.values.rut) : undefined;
      // A column left unmapped keeps what the client has; a mapped blank cell clears an optional field.
      const input: Record<string, unknown> = {};
      for (const key of COLUMNS) {
        if (key in row.texts) input[key] = row.values[key] ?? null;
        else input[key] = current ? current[key] : null;
      }
      const parsed = clientBody.safeParse(input);
      if (!parsed.success) {
        return { rowNumber: row.rowNumber, action: 'error', errors: schemaErrors(row, FIELDS, parsed.error) };
      }
      const values = parsed.data as ClientColumns;
      if (current?.restriction === 'blocking') {
        return {
          rowNumber: row.rowNumber,
          action: 'error',
          errors: [fieldError(row, FIELDS, 'rut', errorMessage('CLIENT_BLOCKED'))],
        };
      }
      if (!current)
        return {
          rowNumber: row.rowNumber,
          action: 'create',
          errors: [],
          plan: { id: null, version: null, values },
        };
      if (allSame(values, current, COLUMNS))
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
    // Written by the clients feature, its one writer (decision 0056): blocking and versions are its rules.
    const creates = rows
      .filter((row) => row.action === 'create' && row.plan)
      .map((row) => ({ row, id: newRowId() }));
    const updates = rows.filter((row) => row.action === 'update' && row.plan?.id);
    const before = await clientsService.importIn(
      tx,
      {
        creates: creates.map(({ row, id }) => ({ ...(row.plan!.values as ClientValues), id })),
        updates: updates.map((row) => ({
          id: row.plan!.id!,
          version: row.plan!.version!,
          values: row.plan!.values as ClientValues,
        })),
      },
      ctx.actorId,
    );
    return [
      ...creates.map(({ row, id }) => insertedRecord('clients', id, row.rowNumber)),
      ...updates.map(
        (row): ChangedRecord => ({
          tableName: 'clients',
          recordId: row.plan!.id!,
          action: 'update',
          before: before.get(row.plan!.id!) ?? null,
          rowNumber: row.rowNumber,
        }),
      ),
    ];
  },
};
