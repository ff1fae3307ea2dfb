import { type SQL, sql } from 'drizzle-orm';
import type { HolderRestriction } from '../../../shared/domain/privacy';
import type {
  DataRequestKind,
  DataRequestListParams,
  DataRequestStatus,
  DataRequestValues,
} from '../../../shared/schemas/data-requests';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';
import { textArray } from '../../db/privacy';

/**
 * The register of holders' requests (decision 0027) and what a suppression reads and writes of its
 * own tables. Other features' rows (clients, promotions, comments) are changed through their services.
 */

export interface RequestRow {
  id: string;
  kind: DataRequestKind;
  holderRut: string;
  clientId: string | null;
  clientName: string | null;
  isSuppressed: boolean | null;
  isDeleted: boolean | null;
  restriction: HolderRestriction | null;
  reservations: number | null;
  receivedDate: string;
  dueDate: string;
  status: DataRequestStatus;
  handledById: string | null;
  handledByFirstName: string | null;
  handledByLastName: string | null;
  answeredAt: string | null;
}

export interface RequestDetailRow extends RequestRow {
  details: string | null;
  response: string | null;
  createdById: string | null;
  createdByFirstName: string | null;
  createdByLastName: string | null;
  createdAt: string;
  version: number;
  blockedValues: number;
}

const rowColumns = {
  id: sql`r.id`,
  kind: sql`r.kind`,
  holderRut: sql`r.holder_rut`,
  clientId: sql`r.client_id`,
  clientName: sql`c.first_name || ' ' || c.last_name`,
  isSuppressed: sql`c.suppressed_at is not null`,
  isDeleted: sql`c.deleted_at is not null`,
  restriction: sql`c.restriction`,
  reservations: sql`(select count(*)::int from reservations x where x.client_id = r.client_id)`,
  receivedDate: sql`r.received_date`,
  dueDate: sql`r.due_date`,
  status: sql`r.status`,
  handledById: sql`h.id`,
  handledByFirstName: sql`h.first_name`,
  handledByLastName: sql`h.last_name`,
  answeredAt: isoInstant(sql`r.answered_at`),
} satisfies Record<keyof RequestRow, SQL>;

const from = sql`data_subject_requests r
  left join clients c on c.id = r.client_id
  left join profiles h on h.id = r.handled_by`;

export function listRequests(db: Executor, query: DataRequestListParams): Promise<Page<RequestRow>> {
  const filters: SQL[] = [];
  if (query.status === 'open') filters.push(sql`r.status in ('pending', 'in_progress')`);
  else if (query.status !== 'all') filters.push(sql`r.status = ${query.status}`);
  if (query.kind) filters.push(sql`r.kind = ${query.kind}`);
  for (const word of (query.search ?? '').split(/\s+/).filter(Boolean)) {
    const digits = word.replace(/[^0-9kK]/g, '');
    filters.push(
      sql`(privacy_fold(c.first_name || ' ' || c.last_name) like ${`%${foldWord(word)}%`}
           or (${digits.length > 0} and replace(r.holder_rut, '-', '') like ${`%${digits.toLowerCase()}%`}))`,
    );
  }
  const direction = query.direction === 'asc' ? sql`asc` : sql`desc`;
  const column = query.sort === 'receivedDate' ? sql`r.received_date` : sql`r.due_date`;
  return selectPage<RequestRow>(db, {
    columns: rowColumns,
    from,
    where: filters.length > 0 ? sql.join(filters, sql` and `) : undefined,
    orderBy: [sql`${column} ${direction}`, sql`r.id ${direction}`],
    page: query.page,
    pageSize: query.pageSize,
  });
}

/** Lower-cased, accents off, as the SQL function `privacy_fold`; wildcards escaped. */
function foldWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function findRequest(db: Executor, id: string): Promise<RequestDetailRow | null> {
  const [row] = await queryRows<RequestDetailRow>(
    db,
    sql`select ${sql.join(
      Object.entries(rowColumns).map(([alias, expression]) => sql`${expression} as ${sql.identifier(alias)}`),
      sql`, `,
    )},
           r.details, r.response, cb.id as "createdById", cb.first_name as "createdByFirstName",
           cb.last_name as "createdByLastName", ${isoInstant(sql`r.created_at`)} as "createdAt", r.version,
           (select count(*)::int from client_blocked_values b where b.client_id = r.client_id) as "blockedValues"
      from ${from}
      left join profiles cb on cb.id = r.created_by
     where r.id = ${id}`,
  );
  return row ?? null;
}

/** The request, locked for the rest of the transaction. */
interface LockedRequest {
  id: string;
  kind: DataRequestKind;
  clientId: string | null;
  status: DataRequestStatus;
  receivedDate: string;
  details: string | null;
}

export async function lockRequest(tx: Executor, id: string): Promise<LockedRequest | null> {
  const [row] = await queryRows<LockedRequest>(
    tx,
    sql`select id, kind, client_id as "clientId", status, received_date as "receivedDate", details
          from data_subject_requests where id = ${id} for update`,
  );
  return row ?? null;
}

export async function insertRequest(
  tx: Executor,
  values: DataRequestValues & { clientId: string | null; status: DataRequestStatus; response: string | null },
  userId: string,
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into data_subject_requests (kind, holder_rut, client_id, received_date, details, status, response,
                                           answered_at, handled_by, created_by, updated_by)
        values (${values.kind}, ${values.holderRut}, ${values.clientId}, ${values.receivedDate}, ${values.details},
                ${values.status}, ${values.response},
                ${values.status === 'answered' ? sql`now()` : sql`null`},
                ${values.status === 'answered' ? userId : null}, ${userId}, ${userId})
        returning id`,
  );
  return row!.id;
}

/** Optimistic update of the progress and the answer; false when the version is stale. */
export async function updateRequest(
  tx: Executor,
  id: string,
  version: number,
  values: { status: DataRequestStatus; response: string | null },
  userId: string,
): Promise<boolean> {
  const closes = values.status === 'answered' || values.status === 'rejected';
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update data_subject_requests
           set status = ${values.status}, response = ${values.response},
               answered_at = case when ${closes} then coalesce(answered_at, now()) else null end,
               handled_by = ${userId}, updated_by = ${userId}, updated_at = now(), version = version + 1
         where id = ${id} and version = ${version}
        returning id`,
  );
  return rows.length > 0;
}

/** The request answered by an action (a suppression, an opposition): its answer and who gave it. */
export async function updateRequestAnswerIn(
  tx: Executor,
  id: string,
  response: string,
  userId: string | null,
): Promise<void> {
  await tx.execute(sql`
    update data_subject_requests
       set status = 'answered', response = coalesce(response, ${response}), answered_at = now(),
           handled_by = ${userId}, updated_by = ${userId}, updated_at = now(), version = version + 1
     where id = ${id}`);
}

/**
 * The client a request by this RUT concerns: a live one; else one deleted but not suppressed; else
 * one whose RUT a suppression kept blocked (a second request of the same person).
 */
export async function findHolderByRut(db: Executor, rut: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from (
          select c.id, 0 as rank from clients c where c.rut = ${rut} and c.deleted_at is null
          union all
          select c.id, 1 from clients c where c.rut = ${rut} and c.deleted_at is not null and c.suppressed_at is null
          union all
          select b.client_id, 2 from client_blocked_values b
           where b.table_name = 'clients' and b.column_name = 'rut' and b.value = ${rut}) found
        order by rank limit 1`,
  );
  return row?.id ?? null;
}

/** Requests still open past their due date (the administrators' bell). */
export async function countOverdue(db: Executor, today: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from data_subject_requests
         where status in ('pending', 'in_progress') and due_date < ${today}::date`,
  );
  return row?.count ?? 0;
}

export interface OverdueRequest {
  id: string;
  kind: DataRequestKind;
  holderRut: string;
  clientName: string | null;
  dueDate: string;
}

export function listOverdue(db: Executor, today: string, limit: number): Promise<OverdueRequest[]> {
  return queryRows<OverdueRequest>(
    db,
    sql`select r.id, r.kind, r.holder_rut as "holderRut", c.first_name || ' ' || c.last_name as "clientName",
               r.due_date as "dueDate"
          from data_subject_requests r left join clients c on c.id = r.client_id
         where r.status in ('pending', 'in_progress') and r.due_date < ${today}::date
         order by r.due_date, r.id limit ${limit}`,
  );
}

// --- Blocked values ----------------------------------------------------------------------------------

export async function insertBlockedValues(
  tx: Executor,
  values: { clientId: string; tableName: string; recordId: string; columnName: string; value: string }[],
  context: { requestId: string; userId: string | null; at: Date },
): Promise<void> {
  if (values.length === 0) return;
  await tx.execute(sql`
    insert into client_blocked_values (client_id, table_name, record_id, column_name, value, request_id, blocked_at, blocked_by)
    values ${sql.join(
      values.map(
        (value) =>
          sql`(${value.clientId}, ${value.tableName}, ${value.recordId}, ${value.columnName}, ${value.value},
               ${context.requestId}, ${context.at.toISOString()}::timestamptz, ${context.userId})`,
      ),
      sql`, `,
    )}`);
}

export function listBlockedValues(db: Executor, clientId: string) {
  return queryRows<{
    tableName: string;
    recordId: string;
    columnName: string;
    value: string;
    blockedAt: string;
  }>(
    db,
    sql`select table_name as "tableName", record_id as "recordId", column_name as "columnName", value,
               ${isoInstant(sql`blocked_at`)} as "blockedAt"
          from client_blocked_values where client_id = ${clientId} order by blocked_at, table_name, column_name`,
  );
}

/** The redaction of the log (migration 0021's `audit_redact`); needles folded. Returns the rows changed. */
export async function updateAuditLogRedacted(
  tx: Executor,
  roots: readonly string[],
  ownNeedles: readonly string[],
  globalNeedles: readonly string[],
): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    tx,
    sql`select audit_redact(${sql`array[${sql.join(
      roots.map((root) => sql`${root}::uuid`),
      sql`, `,
    )}]::uuid[]`}, ${textArray(ownNeedles)}, ${textArray(globalNeedles)}) as count`,
  );
  return Number(row?.count ?? 0);
}

// --- Retention ---------------------------------------------------------------------------------------

export async function findRetentionSettings(db: Executor): Promise<{
  retentionYears: number;
  importFileDays: number;
  mailCopyDays: number;
  version: number;
}> {
  const [row] = await queryRows<{
    retentionYears: number;
    importFileDays: number;
    mailCopyDays: number;
    version: number;
  }>(
    db,
    sql`select retention_years as "retentionYears", import_file_days as "importFileDays",
               mail_copy_days as "mailCopyDays", version from privacy_settings where id`,
  );
  return row ?? { retentionYears: 5, importFileDays: 30, mailCopyDays: 30, version: 1 };
}

export async function updateRetentionYears(
  tx: Executor,
  values: { retentionYears: number; importFileDays?: number; mailCopyDays?: number },
  version: number,
  userId: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: boolean }>(
    tx,
    sql`update privacy_settings set retention_years = ${values.retentionYears},
               import_file_days = coalesce(${values.importFileDays ?? null}::int, import_file_days),
               mail_copy_days = coalesce(${values.mailCopyDays ?? null}::int, mail_copy_days), updated_by = ${userId},
               updated_at = now(), version = version + 1
         where id and version = ${version} returning id`,
  );
  return rows.length > 0;
}

export interface RetentionRow {
  clientId: string;
  rut: string;
  name: string;
  lastActivityDate: string;
  reservations: number;
}

/**
 * Live clients with no live reservation whose last activity — their newest reservation, its
 * rescission, or their registration — is older than `before`.
 */
export function listRetention(
  db: Executor,
  before: string,
  page: { page: number; pageSize: number },
): Promise<Page<RetentionRow>> {
  const lastActivity = sql`greatest(
    santiago_date(c.created_at),
    (select max(greatest(x.reservation_date, santiago_date(x.rescinded_at)))
       from reservations x where x.client_id = c.id))`;
  return selectPage<RetentionRow>(db, {
    columns: {
      clientId: sql`c.id`,
      rut: sql`c.rut`,
      name: sql`c.first_name || ' ' || c.last_name`,
      lastActivityDate: sql`(${lastActivity})::text`,
      reservations: sql`(select count(*)::int from reservations x where x.client_id = c.id)`,
    },
    from: sql`clients c`,
    where: sql`c.deleted_at is null
      and not exists (select 1 from reservations x where x.client_id = c.id and not x.is_rescinded)
      and ${lastActivity} < ${before}::date`,
    orderBy: [sql`c.created_at asc`, sql`c.id asc`],
    page: page.page,
    pageSize: page.pageSize,
  });
}

/**
 * Every value the holder's record had, as the audit trail remembers it (their client row's inserts
 * and updates, before and after), column by column: a suppression looks for the old ones too.
 */
export async function listPastHolderValues(
  tx: Executor,
  clientId: string,
): Promise<Record<string, string[]>> {
  const rows = await queryRows<{ column: string; values: string[] }>(
    tx,
    sql`select d.key as column, array_agg(distinct d.value) as values
          from audit_log l
          cross join lateral (select e.key, e.value from jsonb_each_text(coalesce(l.before, '{}'::jsonb)) e
                              union all
                              select e.key, e.value from jsonb_each_text(coalesce(l.after, '{}'::jsonb)) e) d
         where l.root_id = ${clientId} and l.table_name = 'clients'
           and d.key in ('rut', 'first_name', 'last_name', 'birth_date', 'phone', 'email') and d.value is not null
         group by d.key`,
  );
  return Object.fromEntries(rows.map((row) => [row.column, row.values]));
}

// --- The ledger of suppressions (decision 0054) ---------------------------------------------------

export async function insertLedgerEntry(
  tx: Executor,
  entry: { requestId: string; receivedDate: string; rutSalt: string; rutHash: string },
): Promise<void> {
  await tx.execute(sql`
    insert into suppression_ledger (request_id, received_date, suppressed_at, rut_salt, rut_hash)
    values (${entry.requestId}, ${entry.receivedDate}::date, now(), ${entry.rutSalt}, ${entry.rutHash})
    on conflict (request_id) do nothing`);
}

export async function listLedger(db: Executor) {
  if (!(await hasLedger(db))) return [];
  return queryRows<{
    requestId: string;
    receivedDate: string;
    suppressedAt: string;
    rutSalt: string;
    rutHash: string;
  }>(
    db,
    sql`select request_id as "requestId", received_date::text as "receivedDate",
               ${isoInstant(sql`suppressed_at`)} as "suppressedAt", rut_salt as "rutSalt", rut_hash as "rutHash"
          from suppression_ledger order by suppressed_at, request_id`,
  );
}

/** Whether the ledger's table exists (a backup before migrating may find a database without it). */
export async function hasLedger(db: Executor): Promise<boolean> {
  const [row] = await queryRows<{ exists: boolean }>(
    db,
    sql`select to_regclass('public.suppression_ledger') is not null as exists`,
  );
  return row?.exists === true;
}

/** The suppressions whose old values are still in the embedded database's files. */
export async function listUnscrubbed(db: Executor): Promise<string[]> {
  if (!(await hasLedger(db))) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select request_id as id from suppression_ledger where scrubbed_at is null order by suppressed_at`,
  );
  return rows.map((row) => row.id);
}

export async function updateLedgerScrubbed(
  db: Executor,
  requestIds: readonly string[],
  at: Date,
): Promise<void> {
  if (requestIds.length === 0) return;
  await db.execute(sql`
    update suppression_ledger set scrubbed_at = ${at.toISOString()}::timestamptz
     where request_id = any(${textArray(requestIds)}::uuid[])`);
}

export async function findScrubState(
  db: Executor,
): Promise<{ pending: number; oldestPendingAt: string | null; lastScrubbedAt: string | null }> {
  const [row] = await queryRows<{
    pending: number;
    oldestPendingAt: string | null;
    lastScrubbedAt: string | null;
  }>(
    db,
    sql`select count(*) filter (where scrubbed_at is null)::int as pending,
               ${isoInstant(sql`min(suppressed_at) filter (where scrubbed_at is null)`)} as "oldestPendingAt",
               ${isoInstant(sql`max(scrubbed_at)`)} as "lastScrubbedAt"
          from suppression_ledger`,
  );
  return row ?? { pending: 0, oldestPendingAt: null, lastScrubbedAt: null };
}

/** The live (not suppressed) clients' RUTs, for matching a replayed ledger entry. */
export function listUnsuppressedRuts(db: Executor) {
  return queryRows<{ id: string; rut: string }>(
    db,
    sql`select id, rut from clients where suppressed_at is null order by id`,
  );
}

export async function hasLedgerEntry(db: Executor, requestId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from suppression_ledger where request_id = ${requestId}`,
  );
  return rows.length > 0;
}

/** A ledger entry carried over as it was (a replay that found its holder suppressed already). */
export async function insertReplayedLedgerEntry(
  tx: Executor,
  entry: { requestId: string; receivedDate: string; suppressedAt: string; rutSalt: string; rutHash: string },
): Promise<void> {
  await tx.execute(sql`
    insert into suppression_ledger (request_id, received_date, suppressed_at, rut_salt, rut_hash)
    values (${entry.requestId}, ${entry.receivedDate}::date, ${entry.suppressedAt}::timestamptz, ${entry.rutSalt},
            ${entry.rutHash})
    on conflict (request_id) do nothing`);
}

/**
 * The suppression request a replay acts on: the one of the ledger when the backup holds it (made open
 * again if it was closed before it was carried out), otherwise registered again under its id (or a
 * new one, when the hash names several clients).
 */
export async function upsertReplayedRequest(
  tx: Executor,
  request: { id: string | null; clientId: string; holderRut: string; receivedDate: string },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into data_subject_requests (id, kind, holder_rut, client_id, received_date, status, details)
        values (coalesce(${request.id}::uuid, gen_random_uuid()), 'suppression', ${request.holderRut},
                ${request.clientId}, ${request.receivedDate}::date, 'in_progress',
                'Registrada de nuevo al restaurar un respaldo anterior a su supresión.')
        on conflict (id) do update
           set kind = 'suppression', client_id = excluded.client_id, status = 'in_progress',
               response = null, version = data_subject_requests.version + 1
        returning id`,
  );
  return row!.id;
}
