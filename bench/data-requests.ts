// Holders' data rights for `npm run bench` (issue 27): the register, the export of a holder with 50
// reservations (JSON and XLSX; target 1 s) and suppressions timed one by one (target 2 s each: a
// suppression is irreversible, so each run suppresses holders of its own). The holders are prepared
// on the dataset before the server starts (the embedded database admits one process).
import { sql } from 'drizzle-orm';
import { asSystem } from '../src/server/db/actor';
import { type Database, queryRows } from '../src/server/db/client';

/** How many reservations the exported holder has (the issue's figure). */
export const EXPORTED_RESERVATIONS = 50;
/** How many suppressions a run times. */
const SUPPRESSIONS = 5;

export interface DataRequestTargets {
  /** A client with EXPORTED_RESERVATIONS reservations. */
  exportedClientId: string;
  /** RUTs of holders that may be suppressed: every sale of theirs rescinded or completed, with history. */
  suppressibleRuts: string[];
}

/**
 * Makes sure one client holds EXPORTED_RESERVATIONS reservations (the oldest by number are moved to
 * the first one's client, as 'sistema'), and finds holders a suppression accepts. Null before issue 27.
 */
export async function prepareDataRequestTargets(db: Database): Promise<DataRequestTargets | null> {
  const [table] = await queryRows<{ exists: boolean }>(
    db,
    sql`select to_regclass('data_subject_requests') is not null as exists`,
  );
  if (!table?.exists) return null;
  const reservations = await queryRows<{ id: string; clientId: string }>(
    db,
    sql`select id, client_id as "clientId" from reservations order by reservation_number limit ${EXPORTED_RESERVATIONS}`,
  );
  const holder = reservations[0]!.clientId;
  const moved = reservations.filter((reservation) => reservation.clientId !== holder).map((r) => r.id);
  if (moved.length > 0) {
    await asSystem(db, (tx) =>
      tx.execute(sql`update reservations set client_id = ${holder}
                      where id in (${sql.join(
                        moved.map((id) => sql`${id}::uuid`),
                        sql`, `,
                      )})`),
    );
  }
  const suppressible = await queryRows<{ rut: string }>(
    db,
    sql`select c.rut from clients c
         where c.deleted_at is null and c.suppressed_at is null and c.id <> ${holder}
           and exists (select 1 from reservations r where r.client_id = c.id)
           and not exists (select 1 from reservations r
                            where r.client_id = c.id and not r.is_rescinded
                              and exists (select 1 from flows f where f.reservation_id = r.id and f.kind = 'sale'
                                            and f.status <> 'completed'))
         order by c.created_at desc limit ${SUPPRESSIONS}`,
  );
  return { exportedClientId: holder, suppressibleRuts: suppressible.map((row) => row.rut) };
}

/** The endpoints to measure (in `bench/run.ts`'s shape): reads only. */
export function dataRequestEndpoints(targets: DataRequestTargets | null) {
  const exportPath = (format: 'json' | 'xlsx') =>
    `/api/data-requests/holders/${targets?.exportedClientId ?? '00000000-0000-4000-8000-000000000000'}/export?format=${format}`;
  return [
    {
      key: 'dataRequests',
      label: 'data requests register (open)',
      method: 'GET' as const,
      path: '/api/data-requests',
      target: 25,
    },
    {
      key: 'holderExportJson',
      label: `holder export JSON (${EXPORTED_RESERVATIONS} reservations)`,
      method: 'GET' as const,
      path: exportPath('json'),
      target: 1000,
    },
    {
      key: 'holderExportXlsx',
      label: `holder export XLSX (${EXPORTED_RESERVATIONS} reservations)`,
      method: 'GET' as const,
      path: exportPath('xlsx'),
      target: 1000,
    },
  ];
}

/** Registers a suppression request for each holder and times its suppression, one at a time. */
export async function measureSuppressions(
  origin: string,
  cookie: string,
  targets: DataRequestTargets | null,
): Promise<number[] | null> {
  if (!targets || targets.suppressibleRuts.length === 0) return null;
  const headers = { cookie, origin, 'content-type': 'application/json' };
  // The office's day (Santiago), not UTC's: after 21:00 in Chile UTC is already tomorrow, a date the
  // register refuses as 'posterior a hoy'.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
  const times: number[] = [];
  for (const rut of targets.suppressibleRuts) {
    const created = await fetch(`${origin}/api/data-requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ kind: 'suppression', holderRut: rut, receivedDate: today }),
    });
    if (!created.ok) throw new Error(`register: ${created.status} ${await created.text()}`);
    const { request } = (await created.json()) as { request: { id: string } };
    const started = performance.now();
    const suppressed = await fetch(`${origin}/api/data-requests/${request.id}/suppress`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ confirmation: 'SUPRIMIR' }),
    });
    times.push(Math.round(performance.now() - started));
    if (!suppressed.ok) throw new Error(`suppress: ${suppressed.status} ${await suppressed.text()}`);
  }
  return times.sort((a, b) => a - b);
}

export interface ScrubMeasured {
  /** The backup that ran the pending scrub first (the scrub and the copy). */
  backupWithScrubMs: number;
  /** A backup right after, nothing pending (the copy alone). */
  backupAloneMs: number;
  /** The scrub's share: the difference. */
  scrubMs: number;
  /** The longest /api/health wait while the scrub and its backup ran (other users' wait). */
  longestHealthMs: number;
  healthPolls: number;
}

/**
 * The scrub of issue 54 at scale (decision 0054): after the suppressions above, 'Crear respaldo ahora'
 * runs the pending scrub (VACUUM FULL of the touched tables, the log checkpointed and recycled) before
 * it copies; a second backup right after copies alone. /api/health is polled every 10 ms during the
 * first (another user's longest wait). Embedded only (PostgreSQL's backups are the operator's).
 */
export async function measureScrub(origin: string, cookie: string): Promise<ScrubMeasured | null> {
  const headers = { cookie, origin };
  const state = await fetch(`${origin}/api/backups`, { headers });
  if (!state.ok) return null;
  const { scrub } = (await state.json()) as { scrub?: { pending: number } };
  if (!scrub || scrub.pending === 0) return null;
  let running = true;
  let longest = 0;
  let polls = 0;
  const poller = (async () => {
    while (running) {
      const began = performance.now();
      try {
        await (await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(120_000) })).arrayBuffer();
      } catch {
        // counted as the wait it was
      }
      longest = Math.max(longest, performance.now() - began);
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const backup = async () => {
    const began = performance.now();
    const made = await fetch(`${origin}/api/backups`, { method: 'POST', headers });
    if (!made.ok) throw new Error(`backup: ${made.status} ${await made.text()}`);
    return Math.round(performance.now() - began);
  };
  let backupWithScrubMs: number;
  try {
    backupWithScrubMs = await backup();
  } finally {
    running = false;
    await poller;
  }
  const backupAloneMs = await backup();
  return {
    backupWithScrubMs,
    backupAloneMs,
    scrubMs: Math.max(0, backupWithScrubMs - backupAloneMs),
    longestHealthMs: Math.round(longest),
    healthPolls: polls,
  };
}
