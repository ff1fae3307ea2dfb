import { sql } from 'drizzle-orm';
import type { Database, Executor } from './client';

/** The transaction `db.transaction` hands its callback. */
type OpenTransaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Who is changing the data (decision 0024). The audit triggers of migration 0017 read it from the
 * transaction's settings and refuse a change to a business table that declares nobody, so every
 * writing transaction names its author: the signed-in user of a request, or 'sistema' (migrations,
 * the data generator, operators' scripts, test set-up).
 */
export interface Actor {
  /** The signed-in user; null is 'sistema'. */
  userId: string | null;
  /** The HTTP request that makes the change, when one does. */
  requestId?: string | null;
  /** The request's instant (one clock per request; tests fix it); the transaction's own otherwise. */
  at?: Date | null;
}

export const SYSTEM_ACTOR: Actor = { userId: null };

/** Declares the actor for the rest of the open transaction (set_config's `is_local`). */
export async function declareActor(tx: Executor, actor: Actor): Promise<void> {
  await tx.execute(
    sql`select set_config('inmoflujo.actor', ${actor.userId ?? 'sistema'}, true),
               set_config('inmoflujo.request', ${actor.requestId ?? ''}, true),
               set_config('inmoflujo.at', ${actor.at?.toISOString() ?? ''}, true)`,
  );
}

/** Each database `actingAs` answered, and the database it wraps. */
const actingBases = new WeakMap<Database, Database>();

/**
 * The database as seen by one actor: every transaction it opens declares the actor first. Only
 * `transaction` differs; a write outside a transaction reaches the triggers with no actor and is
 * refused, so writes of a request always run in a transaction.
 */
export function actingAs(db: Database, actor: Actor): Database {
  // A database already acting as someone acts as the new actor instead: one declaration per
  // transaction, not one per wrapping (the last would win anyway). An import's chunks, declared as
  // the run, paid a statement more each.
  const base = actingBases.get(db) ?? db;
  const transaction: Database['transaction'] = (run, config) =>
    base.transaction(async (tx) => {
      await declareActor(tx, actor);
      return run(tx);
    }, config);
  const acting = new Proxy(base, {
    get(target, property, receiver) {
      if (property === 'transaction') return transaction;
      return Reflect.get(target, property, receiver);
    },
  });
  actingBases.set(acting, base);
  return acting;
}

/** Runs `work` in one transaction as 'sistema' (scripts, the generator, test set-up). */
export function asSystem<T>(db: Database, work: (tx: OpenTransaction) => Promise<T>): Promise<T> {
  return actingAs(db, SYSTEM_ACTOR).transaction(work);
}
