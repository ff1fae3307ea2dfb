import type pg from 'pg';
import type { Database } from '../../db/client';

/**
 * Who is applying a run (decision 0033). A run left 'Aplicando' by a server that stopped would block
 * every later import and keep its half-written rows; it must be told from one another instance is
 * applying right now. The applying process holds a lease on the run while it works:
 * - on PostgreSQL, a session-level advisory lock on a connection of its own, which the database
 *   lets go when the process or its connection dies, so every instance can tell;
 * - on the embedded database, a mark in this process's memory: only one process opens the data
 *   directory (its lock), so a run no mark names was left by a process that is gone.
 */
export interface ApplyLease {
  release(): Promise<void>;
}

const leasedHere = new Set<string>();

function postgresPool(db: Database): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client as {
    connect?: unknown;
    totalCount?: unknown;
  };
  return client && typeof client.connect === 'function' && typeof client.totalCount === 'number'
    ? (client as unknown as pg.Pool)
    : null;
}

const LOCK_KEY = "hashtextextended('inmoflujo.import-run:' || $1, 0)";

/**
 * The run's lease, or null when a process holds it already: the one about to apply a run takes it
 * before the run says 'Aplicando' (two clicks, two instances: one gets it) and holds it to the end;
 * a run 'Aplicando' whose lease anybody can take was left by a process that is gone.
 */
export async function leaseRun(db: Database, runId: string): Promise<ApplyLease | null> {
  const pool = postgresPool(db);
  let connection: pg.PoolClient | null = null;
  if (!pool) {
    if (leasedHere.has(runId)) return null;
  } else {
    connection = await pool.connect();
    // A lease whose connection dies is simply lost (the database let the lock go with it).
    connection.on('error', () => {});
    try {
      const { rows } = await connection.query<{ locked: boolean }>(
        `select pg_try_advisory_lock(${LOCK_KEY}) as locked`,
        [runId],
      );
      if (!rows[0]?.locked) {
        connection.release();
        return null;
      }
    } catch (error) {
      connection.release(true);
      throw error;
    }
  }
  if (!connection) leasedHere.add(runId);
  return {
    async release() {
      if (!connection) {
        leasedHere.delete(runId);
        return;
      }
      try {
        await connection.query(`select pg_advisory_unlock(${LOCK_KEY})`, [runId]);
        connection.release();
      } catch {
        // A connection that cannot unlock is closed: closing lets the lock go.
        connection.release(true);
      }
    },
  };
}
