import type { Broker, BrokerListParams, BrokerPage, BrokerValues } from '../../../shared/schemas/brokers';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { brokers as brokersTable } from '../../db/schema';
import { deleteByIds, lockRows, lockSnapshots, restoreSnapshots } from '../../db/snapshots';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as queries from './brokers.queries';

/** The unique index on brokers.rut is the last line of defence when two saves race. */
async function guardRut<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'brokers_rut_unique'))
      throw new AppError('BROKER_RUT_TAKEN', { cause: error });
    throw error;
  }
}

export function list({ db }: ReadContext, query: BrokerListParams): Promise<BrokerPage> {
  return queries.listBrokers(db, query);
}

/** The KAM names the brokers carry, for the list's filter. */
export function listKams({ db }: ReadContext): Promise<string[]> {
  return queries.listKamNames(db);
}

export async function get({ db }: ReadContext, id: string): Promise<Broker> {
  const broker = await queries.findBroker(db, id);
  if (!broker) throw new AppError('BROKER_NOT_FOUND');
  return broker;
}

/** created_by / updated_by come from the session, never from the body. */
export async function create({ db, user }: ServiceContext, values: BrokerValues): Promise<Broker> {
  if (await queries.rutTaken(db, values.rut)) throw new AppError('BROKER_RUT_TAKEN');
  return guardRut(() => db.transaction((tx) => queries.insertBroker(tx, values, user.id)));
}

/** Saves an edit read at `version`; a stale version answers 409 and changes nothing. */
export async function update(
  { db, user }: ServiceContext,
  id: string,
  { version, ...values }: BrokerValues & { version: number },
): Promise<Broker> {
  if (await queries.rutTaken(db, values.rut, id)) {
    if (!(await queries.findBroker(db, id))) throw new AppError('BROKER_NOT_FOUND');
    throw new AppError('BROKER_RUT_TAKEN');
  }
  const updated = await guardRut(() =>
    db.transaction((tx) => queries.updateBroker(tx, id, version, values, user.id)),
  );
  if (updated) return updated;
  if (await queries.findBroker(db, id)) throw new AppError('STALE_VERSION');
  throw new AppError('BROKER_NOT_FOUND');
}

// --- Imports (decision 0056): Configuración → Importar writes brokers only through these -------------

/**
 * Inside an import's chunk: new brokers set-based, updates at the version read (stale → 409) with
 * their rows as they were (for undo).
 */
export async function importIn(
  tx: Executor,
  rows: {
    creates: readonly (BrokerValues & { id: string })[];
    updates: readonly { id: string; version: number; values: BrokerValues }[];
  },
  userId: string,
): Promise<Map<string, Record<string, unknown>>> {
  await queries.insertBrokersAsJson(tx, rows.creates, userId);
  const before = await lockSnapshots(
    tx,
    brokersTable,
    rows.updates.map((row) => row.id),
  );
  for (const row of rows.updates) {
    if (!(await queries.updateBroker(tx, row.id, row.version, row.values, userId)))
      throw new AppError('STALE_VERSION');
  }
  return before;
}

/** An import's undo: its brokers locked, its updates put back as a new version, its creations deleted. */
export const lockImportedIn = (tx: Executor, ids: readonly string[]) => lockRows(tx, brokersTable, ids);
export const restoreImportedIn = (
  tx: Executor,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  userId: string | null,
) => restoreSnapshots(tx, brokersTable, rows, userId);
export const removeImportedIn = (tx: Executor, ids: readonly string[]) => deleteByIds(tx, brokersTable, ids);
