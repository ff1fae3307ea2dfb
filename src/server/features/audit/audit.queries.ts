import { and, asc, eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { type AuditCause, auditSearchWords, EXPORT_FILTER_PREFIX } from '../../../shared/audit/describe';
import {
  AUDIT_TABLES,
  type AuditField,
  type AuditReference,
  type HistoryKind,
} from '../../../shared/audit/fields';
import {
  AUDIT_TEXT_SEARCH_WINDOW,
  type AuditAction,
  type AuditFilters,
  SYSTEM_ACTOR_FILTER,
} from '../../../shared/schemas/audit';
import { type Executor, isoInstant } from '../../db/client';
import { type PageSpec, selectPage } from '../../db/paging';
import { PLANNED_PER_RUN } from '../../db/planned-per-run';
import { santiagoDayStart } from '../../db/santiago-day';
import { auditLog, profiles } from '../../db/schema';
import { escapeLike } from '../../db/search';

export type SessionEventAction = 'sign_in' | 'sign_out';

/**
 * A sign-in or sign-out in the audit trail (the sessions table itself is not audited: it holds token
 * hashes). The user is the author and the record; where from, never the token.
 */
/**
 * An export recorded (decision 0027: every export may hold personal data): who, what, in which format,
 * how many rows, with which filters. Its own root, 'exports': no record's Historial shows it.
 */
export async function insertExportEvent(
  tx: Executor,
  event: {
    userId: string;
    name: string;
    title: string;
    format: string;
    rows: number;
    filters: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(auditLog).values({
    occurredAt: sql`audit_instant()`,
    actorId: event.userId,
    requestId: sql`nullif(current_setting('inmoflujo.request', true), '')`,
    action: 'export',
    tableName: event.name,
    recordId: event.name,
    rootTable: 'exports',
    rootId: null,
    // Flat, as every log row's values are (a suppression redacts values one by one): 'filtro.<name>'.
    after: {
      nombre: event.title,
      formato: event.format,
      filas: event.rows,
      ...Object.fromEntries(
        Object.entries(event.filters)
          .filter(([, value]) => value !== undefined && value !== null && value !== '')
          .map(([name, value]) => [
            `${EXPORT_FILTER_PREFIX}${name}`,
            typeof value === 'object' ? JSON.stringify(value) : value,
          ]),
      ),
    },
  });
}

export async function insertSessionEvent(
  tx: Executor,
  event: {
    action: SessionEventAction;
    userId: string;
    ip: string | null;
    userAgent: string | null;
    /** The staff's sessions, or the brokers' portal's (decision 0069). */
    table?: 'sessions' | 'broker_sessions';
  },
): Promise<void> {
  await tx.insert(auditLog).values({
    occurredAt: sql`audit_instant()`,
    actorId: event.userId,
    // The request the transaction declared (src/server/db/actor.ts), as the triggers read it.
    requestId: sql`nullif(current_setting('inmoflujo.request', true), '')`,
    action: event.action,
    tableName: event.table ?? 'sessions',
    recordId: event.userId,
    rootTable: event.table ?? 'sessions',
    rootId: event.userId,
    after: event.action === 'sign_in' ? { ip: event.ip, user_agent: event.userAgent } : null,
  });
}

// --- Reading the log ------------------------------------------------------------------------------

/** A log row as the page reads it, with the names its presenter needs (resolved for the page only). */
export interface AuditRow {
  id: number;
  at: string;
  actorId: string | null;
  actorName: string | null;
  action: AuditAction;
  tableName: string;
  recordId: string;
  rootTable: string;
  rootId: string | null;
  requestId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The record's name ('Reserva N° 1234'); null when it no longer exists. */
  recordLabel: string | null;
  /** A flow's kind, for its screen. */
  flowKind: 'sale' | 'payment' | null;
  /** The workflow task a task row, assignment, comment or mention is about. */
  taskName: string | null;
  /** The names of the records the row's values point to: `<kind>:<id>` -> name. */
  references: Record<string, string> | null;
  /** A task completed or reopened by the same change, when the row is its effect. */
  cause: AuditCause | null;
}

const personName = (alias: string) => sql.raw(`${alias}.first_name || ' ' || ${alias}.last_name`);

/** How each kind of reference is named, by the row's value `d.value` (a uuid as text). */
const REFERENCE_NAMES: Record<AuditReference, SQL> = {
  user: sql`(select ${personName('x')} from profiles x where x.id = d.value::uuid)`,
  client: sql`(select ${personName('x')} from clients x where x.id = d.value::uuid)`,
  project: sql`(select x.name || ' ' || x.stage from projects x where x.id = d.value::uuid)`,
  broker: sql`(select x.name from brokers x where x.id = d.value::uuid)`,
  agency: sql`(select x.business_name from real_estate_agencies x where x.id = d.value::uuid)`,
  reservation: sql`(select 'N° ' || x.reservation_number from reservations x where x.id = d.value::uuid)`,
  commission: sql`(select 'Comisión de la reserva N° ' || r.reservation_number from broker_commissions x
                    join reservations r on r.id = x.reservation_id where x.id = d.value::uuid)`,
  flow: sql`(select w.name || ' · Reserva N° ' || r.reservation_number from flows x
              join workflows w on w.id = x.workflow_id join reservations r on r.id = x.reservation_id
             where x.id = d.value::uuid)`,
  flowTask: sql`(select t.name from flow_tasks x join workflow_tasks t on t.id = x.task_id where x.id = d.value::uuid)`,
  comment: sql`(select left(x.content, 80) from flow_task_comments x where x.id = d.value::uuid)`,
  workflow: sql`(select x.name from workflows x where x.id = d.value::uuid)`,
  stage: sql`(select x.name from workflow_stages x where x.id = d.value::uuid)`,
  workflowTask: sql`(select x.name from workflow_tasks x where x.id = d.value::uuid)`,
  role: sql`(select x.name from roles x where x.id = d.value::uuid)`,
  unit: sql`(select case x.kind when 'apartment' then 'Departamento ' when 'parking' then 'Estacionamiento '
              else 'Bodega ' end || x.number from units x where x.id = d.value::uuid)`,
  priceList: sql`(select 'Lista vigente desde ' || to_char(x.effective_date, 'DD-MM-YYYY') from price_lists x
                   where x.id = d.value::uuid)`,
  documentType: sql`(select x.name from document_types x where x.id = d.value::uuid)`,
};

/** `<table>.<column>` of every column that points to a record of each kind (from AUDIT_TABLES). */
function referenceColumns(): Map<AuditReference, string[]> {
  const columns = new Map<AuditReference, string[]>();
  for (const [table, { fields }] of Object.entries(AUDIT_TABLES)) {
    for (const [column, definition] of Object.entries(fields as Record<string, AuditField>)) {
      if (typeof definition.format !== 'object') continue;
      const list = columns.get(definition.format.ref) ?? [];
      list.push(`${table}.${column}`);
      columns.set(definition.format.ref, list);
    }
  }
  return columns;
}

/**
 * The names of the page row's references, in one subquery: each value of its before and after whose
 * column points to a record, looked up by that record's key.
 */
export const referencesOfPageRow: SQL = (() => {
  const columns = referenceColumns();
  const cases = [...columns].map(
    ([kind, names]) =>
      sql`when page."tableName" || '.' || d.key = any(${`{${names.join(',')}}`}::text[]) then ${REFERENCE_NAMES[kind]}`,
  );
  const kinds = [...columns].map(
    ([kind, names]) =>
      sql`when page."tableName" || '.' || d.key = any(${`{${names.join(',')}}`}::text[]) then ${kind}`,
  );
  return sql`(select jsonb_object_agg(named.reference, named.name) from (
    select distinct (case ${sql.join(kinds, sql` `)} end) || ':' || d.value as reference,
           case ${sql.join(cases, sql` `)} end as name
      from (select e.key, e.value from jsonb_each_text(coalesce(page.before, '{}'::jsonb)) e
            union all select e.key, e.value from jsonb_each_text(coalesce(page.after, '{}'::jsonb)) e) d
     where d.value ~ '^[0-9a-f]{8}-' and (case ${sql.join(kinds, sql` `)} end) is not null) named
    where named.name is not null)`;
})();

/** The record a change belongs to, named as the Auditoría lists it. */
const recordLabelOfPageRow = sql`case page."rootTable"
  when 'clients' then (select 'Cliente ' || ${personName('x')} from clients x where x.id = page."rootId")
  when 'brokers' then (select 'Broker ' || x.name from brokers x where x.id = page."rootId")
  when 'reservations' then (select 'Reserva N° ' || x.reservation_number from reservations x where x.id = page."rootId")
  when 'flows' then (select w.name || ' · Reserva N° ' || r.reservation_number from flows x
                       join workflows w on w.id = x.workflow_id join reservations r on r.id = x.reservation_id
                      where x.id = page."rootId")
  when 'projects' then (select 'Proyecto ' || x.name || ' ' || x.stage from projects x where x.id = page."rootId")
  when 'real_estate_agencies' then (select 'Inmobiliaria ' || x.business_name from real_estate_agencies x where x.id = page."rootId")
  when 'profiles' then (select 'Usuario ' || ${personName('x')} from profiles x where x.id = page."rootId")
  when 'sessions' then (select 'Sesión de ' || ${personName('x')} from profiles x where x.id = page."rootId")
  when 'workflows' then (select x.name from workflows x where x.id = page."rootId")
  when 'roles' then (select 'Rol ' || x.name from roles x where x.id = page."rootId")
  when 'default_seller' then 'Vendedor por defecto'
  when 'exports' then 'Exportación'
  when 'data_subject_requests' then (select 'Solicitud de titular del ' || to_char(x.received_date, 'DD/MM/YYYY')
                                       from data_subject_requests x where x.id = page."rootId")
  when 'privacy_settings' then 'Configuración de privacidad'
  when 'payment_settings' then 'Configuración de pagos'
  when 'holidays' then 'Feriados'
  when 'uf_values' then 'Valores UF'
  when 'payment_batches' then (select 'Nómina de pago N° ' || x.number from payment_batches x where x.id = page."rootId")
  when 'quotes' then (select 'Cotización N° ' || x.number from quotes x where x.id = page."rootId")
  when 'document_types' then (select 'Tipo de documento ' || x.name from document_types x where x.id = page."rootId")
end`;

/**
 * The workflow task of a task row, an assignment, a comment or a mention: each found by its key (a
 * uuid compared as a uuid, so the primary key answers; never `id::text = …`, which reads every task).
 */
export const taskNameOfPageRow = sql`case page."tableName"
  when 'flow_tasks' then (select t.name from flow_tasks x join workflow_tasks t on t.id = x.task_id
                           where x.id = page."recordId"::uuid)
  when 'flow_task_assignees' then (select t.name from flow_tasks x join workflow_tasks t on t.id = x.task_id
                                    where x.id = split_part(page."recordId", ':', 1)::uuid)
  when 'flow_task_comments' then (select t.name from flow_tasks x join workflow_tasks t on t.id = x.task_id
                                   where x.id = (coalesce(page.after, page.before) ->> 'flow_task_id')::uuid)
  when 'flow_task_comment_mentions' then (select t.name from flow_task_comments c
                                            join flow_tasks x on x.id = c.flow_task_id
                                            join workflow_tasks t on t.id = x.task_id
                                           where c.id = split_part(page."recordId", ':', 1)::uuid)
  when 'flow_task_rejections' then (select t.name from flow_tasks x join workflow_tasks t on t.id = x.task_id
                                     where x.id = (coalesce(page.after, page.before) ->> 'flow_task_id')::uuid)
end`;

/**
 * How far apart (in log ids) the rows of one change to one flow may lie: they are written together,
 * under the flow's lock, so only other records' rows of concurrent changes can come between them.
 */
const SAME_CHANGE_ID_SPAN = 2_000;

/**
 * What a flow row, task row or assignment followed from (the engine's automatic effects): a task of
 * the same flow completed, or reopened, by the same change — the same transaction's instant and
 * request. Its own task's first (an assignee leaving the task she completed), else the nearest. Read
 * off `audit_log_root_idx`, within a bounded range of ids around the row.
 */
const causeOfPageRow = sql`case when page."rootTable" = 'flows'
    and page."tableName" in ('flows', 'flow_tasks', 'flow_task_assignees') then (
  select jsonb_build_object(
           'kind', case when c.after ->> 'status' = 'completed' then 'taskCompleted' else 'taskReopened' end,
           'flowTaskId', c.record_id,
           'taskName', (select t.name from flow_tasks x join workflow_tasks t on t.id = x.task_id
                         where x.id = c.record_id::uuid))
    from audit_log c
   where c.root_id = page."rootId"
     and c.id between page.id - ${SAME_CHANGE_ID_SPAN} and page.id + ${SAME_CHANGE_ID_SPAN}
     and c.id <> page.id
     and c.table_name = 'flow_tasks' and c.action = 'update'
     and (c.after ->> 'status' = 'completed' or c.before ->> 'status' = 'completed')
     and c.request_id is not distinct from page."requestId"
     and c.occurred_at = (select o.occurred_at from audit_log o where o.id = page.id)
   order by c.record_id = split_part(page."recordId", ':', 1) desc, abs(c.id - page.id)
   limit 1) end`;

const logColumns = {
  id: auditLog.id,
  at: isoInstant(auditLog.occurredAt),
  actorId: auditLog.actorId,
  action: auditLog.action,
  tableName: auditLog.tableName,
  recordId: auditLog.recordId,
  rootTable: auditLog.rootTable,
  rootId: auditLog.rootId,
  requestId: auditLog.requestId,
  before: auditLog.before,
  after: auditLog.after,
};

const logPageColumns = {
  actorName: sql`(select ${personName('x')} from profiles x where x.id = page."actorId")`,
  recordLabel: recordLabelOfPageRow,
  flowKind: sql`case when page."rootTable" = 'flows' then (select x.kind from flows x where x.id = page."rootId") end`,
  taskName: taskNameOfPageRow,
  references: referencesOfPageRow,
  cause: causeOfPageRow,
};

/** A page of log rows, newest first; the names are looked up for the page's rows only. */
function pageOf(spec: { where: SQL | undefined; page: number; pageSize: number }): PageSpec {
  return {
    columns: logColumns,
    pageColumns: logPageColumns,
    from: auditLog,
    where: spec.where,
    orderBy: [sql`${auditLog.id} desc`],
    page: spec.page,
    pageSize: spec.pageSize,
  };
}

/**
 * The changes of one record and of its parts, newest first (its 'Historial'): the record of that kind
 * only — an id of another kind (a user's, whose sign-ins say where from) finds nothing.
 */
export function listHistory(
  db: Executor,
  kind: HistoryKind,
  rootId: string,
  page: { page: number; pageSize: number },
) {
  return selectPage<AuditRow>(
    db,
    pageOf({ where: and(eq(auditLog.rootId, rootId), eq(auditLog.rootTable, kind)), ...page }),
  );
}

/** The filter of the Auditoría (and its export). Dates are Santiago calendar days, both included. */
export function auditFilterSql(filters: AuditFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filters.user === SYSTEM_ACTOR_FILTER) conditions.push(isNull(auditLog.actorId));
  else if (filters.user) conditions.push(eq(auditLog.actorId, filters.user));
  if (filters.kind) conditions.push(eq(auditLog.rootTable, filters.kind));
  if (filters.from)
    conditions.push(sql`${auditLog.occurredAt} >= ${santiagoDayStart(sql`${filters.from}::date`)}`);
  if (filters.to)
    conditions.push(sql`${auditLog.occurredAt} < ${santiagoDayStart(sql`${filters.to}::date + 1`)}`);
  // The values only (not the column names), folded as the words are; every word must appear. The
  // folded text is `audit_search_text(before, after)` (migration 0050), the very expression the
  // trigram index `audit_log_search_trgm_idx` holds, so each word is looked up in the index and only
  // the rows it names are read and checked (decision 0076; before, every row of the window was
  // decoded, twice per request). In that text a value is JSON-escaped, so the words are escaped
  // alike. The search still covers only the newest AUDIT_TEXT_SEARCH_WINDOW changes the other filters
  // leave (through their index, then a range of the primary key): a word in most rows (a year, 'true')
  // would otherwise have the index name millions of them.
  const words = auditSearchWords(filters.search);
  if (words.length > 0) {
    const others = and(...conditions);
    conditions.push(
      sql`${auditLog.id} >= coalesce((select min(w.id) from (select id from audit_log
            ${others ? sql`where ${others}` : sql``} order by id desc limit ${AUDIT_TEXT_SEARCH_WINDOW}) w), 0)`,
    );
    const values = sql`audit_search_text(${auditLog.before}, ${auditLog.after})`;
    // A word's selectivity is the plan (the index for a rare one): planned at each run, as 0064's.
    for (const word of words)
      conditions.push(
        sql`${PLANNED_PER_RUN} ${values} like ${`%${escapeLike(JSON.stringify(word).slice(1, -1))}%`}`,
      );
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** A page of the whole log, newest first, filtered. */
export function listLog(db: Executor, filters: AuditFilters, page: { page: number; pageSize: number }) {
  return selectPage<AuditRow>(db, pageOf({ where: auditFilterSql(filters), ...page }));
}

/** One export chunk: up to `limit` rows older than `beforeId`, newest first. */
export async function listLogChunk(
  db: Executor,
  filters: AuditFilters,
  beforeId: number | null,
  limit: number,
): Promise<AuditRow[]> {
  const where = and(auditFilterSql(filters), beforeId === null ? undefined : lt(auditLog.id, beforeId));
  const { rows } = await selectPage<AuditRow>(db, { ...pageOf({ where, page: 1, pageSize: limit }), cap: 0 });
  return rows;
}

/** Every staff account, active or not, for the Auditoría's user filter. */
export function listUsers(db: Executor) {
  return db
    .select({
      id: profiles.id,
      name: sql<string>`${profiles.firstName} || ' ' || ${profiles.lastName}`,
      position: profiles.position,
      isActive: profiles.isActive,
    })
    .from(profiles)
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id));
}

/** A holder's data-rights event (data-requests calls the service): a redaction, a read of blocked values. */
export async function insertPrivacyEvent(
  tx: Executor,
  event: {
    action: 'redact' | 'read_blocked';
    clientId: string;
    /** None when a restore carries out a suppression again (decision 0054). */
    actorId: string | null;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await tx.execute(sql`
    insert into audit_log (occurred_at, actor_id, request_id, action, table_name, record_id, root_table, root_id, after)
    values (audit_instant(), ${event.actorId}, nullif(current_setting('inmoflujo.request', true), ''), ${event.action},
            'clients', ${event.clientId}, 'clients', ${event.clientId}, ${JSON.stringify(event.details)}::jsonb)`);
}
