import type { HolderRestriction } from '../../../shared/domain/privacy';
import { errorMessage } from '../../../shared/errors';
import { can } from '../../../shared/permissions';
import type { Client, ClientListParams, ClientPage, ClientValues } from '../../../shared/schemas/clients';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { clients as clientsTable } from '../../db/schema';
import { deleteByIds, lockRows, lockSnapshots, restoreSnapshots } from '../../db/snapshots';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as queries from './clients.queries';

/** The live-RUT unique index is the last line of defence when two saves race. */
async function guardRut<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'clients_rut_key')) throw new AppError('CLIENT_RUT_TAKEN', { cause: error });
    throw error;
  }
}

export function list({ db }: ReadContext, query: ClientListParams): Promise<ClientPage> {
  return queries.listClients(db, query);
}

/**
 * The answer of one client: whether its data may be edited now and, when not, the server's reason, so
 * the form disables 'Guardar' with the words the save would be refused with (issue 57).
 */
function answerOf({ isBlocked, ...client }: queries.ClientDetail): Client {
  return { ...client, canEdit: !isBlocked, editRefusal: isBlocked ? errorMessage('CLIENT_BLOCKED') : null };
}

export async function get({ db }: ReadContext, id: string): Promise<Client> {
  const client = await queries.findLiveClient(db, id);
  if (!client) throw new AppError('CLIENT_NOT_FOUND');
  return answerOf(client);
}

/** created_by / updated_by come from the session, never from the body. */
export async function create({ db, user }: ServiceContext, values: ClientValues): Promise<Client> {
  if (await queries.rutTaken(db, values.rut)) throw new AppError('CLIENT_RUT_TAKEN');
  return answerOf(await guardRut(() => db.transaction((tx) => queries.insertClient(tx, values, user.id))));
}

/**
 * Saves an edit read at `version`. Another live client with the same RUT refuses it (the client
 * itself is excluded); a stale version answers 409 and changes nothing.
 */
export async function update(
  { db, user }: ServiceContext,
  id: string,
  { version, ...values }: ClientValues & { version: number },
): Promise<Client> {
  // A blocked holder's data wait for the block to be lifted (Ley 21.719, decision 0027).
  if (await queries.isBlocked(db, id)) throw new AppError('CLIENT_BLOCKED');
  if (await queries.rutTaken(db, values.rut, id)) {
    if (!(await queries.findLiveClient(db, id))) throw new AppError('CLIENT_NOT_FOUND');
    throw new AppError('CLIENT_RUT_TAKEN');
  }
  const updated = await guardRut(() =>
    db.transaction((tx) => queries.updateClient(tx, id, version, values, user.id)),
  );
  if (updated) return answerOf(updated);
  if (await queries.findLiveClient(db, id)) throw new AppError('STALE_VERSION');
  throw new AppError('CLIENT_NOT_FOUND');
}

/**
 * Soft delete, administrators only (shared/permissions: clients.delete). Refused while the client
 * has live (not rescinded) reservations, naming them: deleting would let the same RUT be registered
 * again as another person and split the buyer's history. The client row is locked first, so a
 * reservation created meanwhile (which checks the client under a share lock) waits or is seen.
 */
export async function remove({ db, user }: ServiceContext, id: string): Promise<void> {
  if (!can(user, 'clients.delete')) throw new AppError('FORBIDDEN');
  await db.transaction(async (tx) => {
    if (!(await queries.lockLiveClient(tx, id))) throw new AppError('CLIENT_NOT_FOUND');
    const numbers = await queries.listLiveReservationNumbers(tx, id, 6);
    if (numbers.length > 0) {
      const shown = numbers.slice(0, 5).join(', ') + (numbers.length > 5 ? ' y otras' : '');
      throw new AppError('CLIENT_HAS_LIVE_RESERVATIONS', { params: { numbers: shown } });
    }
    await queries.updateClientDeleted(tx, id, user.id);
  });
}

// --- Holders' data rights (decision 0027): called by data-requests inside its transaction ------------

/** The holder's identifying values, the client row locked; null when there is no such client. */
export const lockHolderIn = (tx: Executor, id: string) => queries.lockHolder(tx, id);

/** Their reservations not rescinded whose sale is not completed, by number. */
export const salesInProgressIn = (tx: Executor, clientId: string) =>
  queries.listSalesInProgress(tx, clientId);

export const reservationIdsOfIn = (tx: Executor, clientId: string) => queries.reservationIdsOf(tx, clientId);

/** The client's identifying values replaced ('Titular suprimido'), soft-deleted. */
export const suppressIn = (tx: Executor, id: string, userId: string | null) =>
  queries.updateClientSuppressed(tx, id, userId);

export async function restrictIn(
  tx: Executor,
  id: string,
  restriction: HolderRestriction,
  reason: string,
  userId: string,
): Promise<void> {
  if (!(await queries.setRestriction(tx, id, restriction, reason, userId)))
    throw new AppError('CLIENT_NOT_FOUND');
}

/** False when the client had no restriction to lift. */
export const liftRestrictionIn = (tx: Executor, id: string, userId: string) =>
  queries.setRestriction(tx, id, null, null, userId);

/** Whether the holder blocked the processing of their data (edits and new reservations wait). */
export const isBlockedIn = (tx: Executor, id: string) => queries.isBlocked(tx, id);

// --- Imports (decision 0056): Configuración → Importar writes clients only through these -------------

/**
 * Inside an import's chunk: new clients set-based, updates at the version read (stale → 409) with
 * their rows as they were (for undo). A client whose processing is blocked is not changed
 * (CLIENT_BLOCKED, as on the form).
 */
export async function importIn(
  tx: Executor,
  rows: {
    creates: readonly (ClientValues & { id: string })[];
    updates: readonly { id: string; version: number; values: ClientValues }[];
  },
  userId: string,
): Promise<Map<string, Record<string, unknown>>> {
  await queries.insertClientsAsJson(tx, rows.creates, userId);
  const before = await lockSnapshots(
    tx,
    clientsTable,
    rows.updates.map((row) => row.id),
  );
  const blocked = await queries.listBlockedAmong(
    tx,
    rows.updates.map((row) => row.id),
  );
  if (blocked.length > 0) throw new AppError('CLIENT_BLOCKED');
  for (const row of rows.updates) {
    if (!(await queries.updateClient(tx, row.id, row.version, row.values, userId)))
      throw new AppError('STALE_VERSION');
  }
  return before;
}

/** Of these clients, the ids of those whose processing is blocked (a reservation for them is refused). */
export async function blockedAmongIn(tx: Executor, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await queries.listBlockedAmong(tx, ids)).map((row) => row.id));
}

/** An import's undo: its clients locked, its updates put back as a new version, its creations deleted. */
export const lockImportedIn = (tx: Executor, ids: readonly string[]) => lockRows(tx, clientsTable, ids);
export const restoreImportedIn = (
  tx: Executor,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  userId: string | null,
) => restoreSnapshots(tx, clientsTable, rows, userId);
export const removeImportedIn = (tx: Executor, ids: readonly string[]) => deleteByIds(tx, clientsTable, ids);
