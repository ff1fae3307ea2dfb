import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Random bytes for the ids, drawn from a pool filled 4 KiB at a time: one `crypto.getRandomValues` call
 * per id (uuid's default) cost ~7 µs, a second of an import of 5,000 reservations (150,000 task rows).
 */
const pool = new Uint8Array(16 * 256);
let poolOffset = pool.length;

function poolRandom16(): Uint8Array {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

/**
 * A new row id that sorts by creation time (UUID version 7, RFC 9562: a millisecond timestamp, then
 * random bits), for the rows written by the thousand: a flow's ~25 task rows. Random ids (version 4)
 * put each new row on a random page of every index keyed by them — flow_tasks' primary key and its
 * (flow, task) and open-task indexes, hundreds of MB at 100,000 reservations — so each insert read
 * and dirtied pages no cache held; time-ordered ids land beside the last ones. Creating a reservation
 * (its sale flow's 25 tasks): that INSERT 13.4 → 5.4 ms on PostgreSQL at bench scale (decision 0042).
 * Ids of one millisecond are in random order among themselves (RFC 9562 makes order within a
 * millisecond optional); they still land on the same index pages.
 */
export function newRowId(): string {
  return v7({ random: poolRandom16() });
}
