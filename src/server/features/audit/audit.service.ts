import { describeAuditRow } from '../../../shared/audit/describe';
import {
  AUDIT_RECORD_KINDS,
  AUDIT_RECORD_NOUNS,
  type AuditRecordKind,
  type HistoryKind,
} from '../../../shared/audit/fields';
import { santiagoDateOf, santiagoWallClock } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import {
  type AuditEntry,
  type AuditExportRow,
  type AuditFilters,
  type AuditPage,
  type AuditUser,
  changesInOneLine,
  type HistoryQuery,
} from '../../../shared/schemas/audit';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { keysetChunks } from '../../exports';
import { AppError } from '../../http/app-error';
import * as commissions from '../commissions/commissions.service';
import * as queries from './audit.queries';

/** Writes a sign-in or sign-out in the caller's transaction (the session change it records). */
export function recordSessionEventIn(
  tx: Executor,
  event: Parameters<typeof queries.insertSessionEvent>[1],
): Promise<void> {
  return queries.insertSessionEvent(tx, event);
}

/** Writes a holder's data-rights event in the caller's transaction (a redaction, a read of blocked values). */
export function recordPrivacyEventIn(
  tx: Executor,
  event: Parameters<typeof queries.insertPrivacyEvent>[1],
): Promise<void> {
  return queries.insertPrivacyEvent(tx, event);
}

/**
 * An export recorded in the log, in a transaction of its own once its rows were sent (decision 0027):
 * who exported what, in which format, how many rows, with which filters.
 */
export async function recordExport(
  ctx: Pick<ServiceContext, 'db' | 'user'>,
  exported: { name: string; title: string; format: string; rows: number; filters: Record<string, unknown> },
): Promise<void> {
  await ctx.db.transaction((tx) => queries.insertExportEvent(tx, { userId: ctx.user.id, ...exported }));
}

/** The `record` of an export (`sendExport`): the file's name, the format and the filters asked. */
export function exportRecorder(
  ctx: Pick<ServiceContext, 'db' | 'user'>,
  exported: { fileName: string; format: string; filters: Record<string, unknown> },
): (rows: number) => Promise<void> {
  return (rows) =>
    recordExport(ctx, {
      name: exported.fileName,
      title: `${exported.fileName}.${exported.format}`,
      format: exported.format,
      rows,
      filters: exported.filters,
    });
}

/** 'sistema' is the author of what no user did (migrations, the generator, scripts). */
export const SYSTEM_NAME = 'sistema';

/**
 * The folios, facts of the restricted document types (decision 0076), as their columns are logged:
 * whoever may not read those documents reads that they changed, not what they are.
 */
const FOLIO_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  broker_commissions: ['purchase_order', 'invoice_1', 'invoice_2'],
  broker_invoices: ['folio'],
};
const HIDDEN_FOLIO = '[oculto]';

function folioMask(row: queries.AuditRow, foliosShown: boolean) {
  const columns = foliosShown ? undefined : FOLIO_COLUMNS[row.tableName];
  const mask = (values: Record<string, unknown> | null) =>
    values && columns
      ? Object.fromEntries(
          Object.entries(values).map(([key, value]) => [
            key,
            columns.includes(key) && value !== null ? HIDDEN_FOLIO : value,
          ]),
        )
      : values;
  return { before: mask(row.before), after: mask(row.after) };
}

function entryOf(row: queries.AuditRow, foliosShown: boolean): AuditEntry {
  const { before, after } = folioMask(row, foliosShown);
  const { subject, summary, changes } = describeAuditRow({
    action: row.action,
    table: row.tableName,
    before,
    after,
    taskName: row.taskName,
    references: row.references,
    actorId: row.actorId,
    at: row.at,
    cause: row.cause,
  });
  const noun = AUDIT_RECORD_NOUNS[row.rootTable as AuditRecordKind] ?? row.rootTable;
  return {
    id: Number(row.id),
    at: row.at,
    actor: row.actorId ? { id: row.actorId, name: row.actorName ?? 'usuario eliminado' } : null,
    action: row.action,
    table: row.tableName,
    subject,
    summary,
    record: {
      kind: row.rootTable,
      id: row.rootId,
      label: row.recordLabel ?? `${noun} (eliminado)`,
      exists: row.recordLabel !== null,
      flowKind: row.flowKind,
    },
    changes,
    requestId: row.requestId,
  };
}

/**
 * A record's 'Historial': its changes and its parts' (a reservation's commission and promotions, a
 * flow's tasks, assignments and comments), newest first. Readable by whoever may read the record:
 * every signed-in user.
 */
export async function history(
  { db, user }: ReadContext,
  kind: HistoryKind,
  id: string,
  query: HistoryQuery,
): Promise<AuditPage> {
  const page = await queries.listHistory(db, kind, id, query);
  const foliosShown = commissions.mayReadFolios(user);
  return { ...page, rows: page.rows.map((row) => entryOf(row, foliosShown)) };
}

function assertMayAudit(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'audit.read')) throw new AppError('FORBIDDEN');
}

/** Configuración → Auditoría: the whole log, filtered, newest first (administrators). */
export async function list(
  ctx: Pick<ServiceContext, 'db' | 'user'>,
  query: AuditFilters & { page: number; pageSize: number },
): Promise<AuditPage> {
  assertMayAudit(ctx);
  const { page, pageSize, ...filters } = query;
  const result = await queries.listLog(ctx.db, filters, { page, pageSize });
  const foliosShown = commissions.mayReadFolios(ctx.user);
  return { ...result, rows: result.rows.map((row) => entryOf(row, foliosShown)) };
}

/** Every staff account, active or not, for the Auditoría's user filter (administrators). */
export async function users(ctx: Pick<ServiceContext, 'db' | 'user'>): Promise<AuditUser[]> {
  assertMayAudit(ctx);
  return queries.listUsers(ctx.db);
}

function exportRowOf(entry: AuditEntry): AuditExportRow {
  const wall = santiagoWallClock(entry.at);
  return {
    date: wall.date,
    time: wall.time,
    actorName: entry.actor?.name ?? SYSTEM_NAME,
    kind: AUDIT_RECORD_KINDS[entry.record.kind as keyof typeof AUDIT_RECORD_KINDS] ?? entry.record.kind,
    recordLabel: entry.record.label,
    summary: entry.summary,
    changes: changesInOneLine(entry.changes),
    requestId: entry.requestId,
  };
}

/** The Auditoría's export: the filtered log, newest first, in keyset chunks (administrators). */
export function exportRows(ctx: Pick<ServiceContext, 'db' | 'user' | 'now'>, filters: AuditFilters) {
  assertMayAudit(ctx);
  const foliosShown = commissions.mayReadFolios(ctx.user);
  let lastId: number | null = null;
  return {
    fileName: `auditoria_${santiagoDateOf(ctx.now)}`,
    sheetName: 'Auditoría',
    chunks: keysetChunks<AuditExportRow, number | null>(
      async (beforeId, limit) => {
        const rows = await queries.listLogChunk(ctx.db, filters, beforeId, limit);
        lastId = rows.at(-1)?.id ?? null;
        return rows.map((row) => exportRowOf(entryOf(row, foliosShown)));
      },
      () => lastId,
    ),
  };
}

/**
 * The names of a log row's references, as a subquery over a row aliased `page` with "tableName",
 * before and after (the holder's export names their own records with it, not 'registro eliminado').
 */
export { referencesOfPageRow, taskNameOfPageRow } from './audit.queries';
