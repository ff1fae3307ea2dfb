import type { SessionUser } from '../../../shared/schemas/auth';
import type { Broker, BrokerListParams, BrokerPage, BrokerValues } from '../../../shared/schemas/brokers';
import type { Database } from '../../db/client';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as queries from './brokers.queries';

const NOT_FOUND_MESSAGE = 'El broker no existe.';

function notFound(): AppError {
  return new AppError('NOT_FOUND', { message: NOT_FOUND_MESSAGE });
}

function rutTaken(cause?: unknown): AppError {
  return new AppError('BROKER_RUT_TAKEN', { fields: { rut: 'Ya existe un broker con este RUT' }, cause });
}

/** The unique index on brokers.rut is the last line of defence when two saves race. */
async function guardRut<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'brokers_rut_unique')) throw rutTaken(error);
    throw error;
  }
}

export function list(db: Database, query: BrokerListParams): Promise<BrokerPage> {
  return queries.listBrokers(db, query);
}

/** The KAM names the brokers carry, for the list's filter. */
export function listKams(db: Database): Promise<string[]> {
  return queries.listKamNames(db);
}

export async function get(db: Database, id: string): Promise<Broker> {
  const broker = await queries.findBroker(db, id);
  if (!broker) throw notFound();
  return broker;
}

/** created_by / updated_by come from the session, never from the body. */
export async function create(db: Database, user: SessionUser, values: BrokerValues): Promise<Broker> {
  if (await queries.rutTaken(db, values.rut)) throw rutTaken();
  return guardRut(() => queries.insertBroker(db, values, user.id));
}

/** Saves an edit read at `version`; a stale version answers 409 and changes nothing. */
export async function update(
  db: Database,
  user: SessionUser,
  id: string,
  { version, ...values }: BrokerValues & { version: number },
): Promise<Broker> {
  if (await queries.rutTaken(db, values.rut, id)) {
    if (!(await queries.findBroker(db, id))) throw notFound();
    throw rutTaken();
  }
  const updated = await guardRut(() => queries.updateBroker(db, id, version, values, user.id));
  if (updated) return updated;
  if (await queries.findBroker(db, id)) throw new AppError('STALE_VERSION');
  throw notFound();
}
