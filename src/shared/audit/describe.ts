import {
  BROKER_INVOICE_KIND_LABELS,
  BROKER_INVOICE_SOURCE_LABELS,
  type BrokerInvoiceKind,
  type BrokerInvoiceSource,
} from '../domain/broker-invoices';
import { formatRut } from '../domain/rut';
import { foldForSearch } from '../domain/search';
import { type UnitKind, unitKindLabels } from '../domain/stock';
import { flowStatusBadges, taskStatusBadges } from '../domain/workflow/statuses';
import {
  formatCLP,
  formatDate,
  formatDateTime,
  formatFractionAsPercent,
  formatInteger,
  formatMonthYear,
  formatPercent,
  formatUF,
  formatUfValue,
} from '../format';
import type { AuditAction, AuditChange } from '../schemas/audit';
import {
  type DataRequestKind,
  type DataRequestStatus,
  dataRequestKindLabels,
  dataRequestStatusLabels,
} from '../schemas/data-requests';
import { PAYMENT_BATCH_STATUS_LABELS, type PaymentBatchStatus } from '../schemas/payment-batches';
import { AUDIT_TABLES, type AuditField, type AuditFormat, isAuditedTable } from './fields';

/**
 * The audit trail in words (decision 0024): a log row's values as a user reads them, and the
 * sentence that says what happened, as a person would write it ('cambió Monto comisión de UF 120,00
 * a UF 135,50', 'marcó la tarea COF PENDIENTE FIRMA como Completada', 'quitó a Ana Rojas de la tarea
 * COF PENDIENTE FIRMA al completarla'). Pure: the server presents the log with it, for the screens
 * and for the exports alike.
 */

/** What a log row holds, with the names of the records its values point to (`<kind>:<id>`). */
export interface AuditFacts {
  action: AuditAction;
  table: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The workflow task the row is about (task rows, assignments, comments, mentions, rejections). */
  taskName: string | null;
  references: Record<string, string> | null;
  /** Who made the change (null: sistema); a person removing or assigning herself reads so. */
  actorId?: string | null;
  /** When (the transaction's instant): a date a change set to that very instant goes without saying. */
  at?: string | null;
  /** What else the same change did that this row followed from (the engine's automatic effects). */
  cause?: AuditCause | null;
}

/**
 * A task of the same flow completed or reopened by the same change (transaction) as a log row: the
 * row is its effect — assignees leave a completed task, the next tasks start, the flow moves on, a
 * reopened task gets its default assignee (workflows.md §2–§3). The server finds it in the log.
 */
export interface AuditCause {
  kind: 'taskCompleted' | 'taskReopened';
  /** The task row completed or reopened. */
  flowTaskId: string;
  taskName: string | null;
}

export interface AuditDescription {
  /** The changed row, named: 'la comisión del broker', 'la tarea COF PENDIENTE FIRMA'. */
  subject: string;
  /** What the actor did, without the actor: 'marcó la tarea … como Completada'. */
  summary: string;
  changes: AuditChange[];
}

/** An export's filters are kept flat in the log's values, each under this prefix ('filtro.search'). */
export const EXPORT_FILTER_PREFIX = 'filtro.';

const UF_SOURCE_LABELS: Record<string, string> = {
  file: 'Archivo',
  user: 'Usuario',
  automatic: 'Automático',
};

const FLOW_KIND_LABELS: Record<string, string> = { sale: 'Flujo de venta', payment: 'Flujo de pago' };

/** A value of the log as a user reads it; null for an empty value. */
export function formatAuditValue(
  format: AuditFormat,
  value: unknown,
  references: Record<string, string> | null = null,
): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof format === 'object') {
    return references?.[`${format.ref}:${String(value)}`] ?? 'registro eliminado';
  }
  const text = String(value);
  switch (format) {
    case 'uf':
      return formatUF(text);
    case 'clp':
      return text.includes('.') ? formatUfValue(text) : formatCLP(text);
    case 'ufSource':
      return UF_SOURCE_LABELS[text] ?? text;
    case 'fraction':
      return formatFractionAsPercent(text);
    case 'percent':
      return formatPercent(text);
    case 'integer':
      return Number.isFinite(Number(text)) ? formatInteger(Number(text)) : text;
    case 'date':
      return formatDate(text);
    case 'month':
      return formatMonthYear(text);
    case 'instant':
      return formatDateTime(text);
    case 'boolean':
      return value === true || text === 'true' ? 'Sí' : 'No';
    case 'rut':
      return formatRut(text) || text;
    case 'secret':
      return null;
    case 'taskStatus':
      return taskStatusBadges[text as keyof typeof taskStatusBadges]?.label ?? text;
    case 'flowStatus':
      return flowStatusBadges[text as keyof typeof flowStatusBadges]?.label ?? text;
    case 'flowKind':
      return FLOW_KIND_LABELS[text] ?? text;
    case 'restriction':
      return text === 'opposition' ? 'Oposición' : text === 'blocking' ? 'Bloqueo' : text;
    case 'dataRequestKind':
      return dataRequestKindLabels[text as DataRequestKind] ?? text;
    case 'dataRequestStatus':
      return dataRequestStatusLabels[text as DataRequestStatus] ?? text;
    case 'unitKind':
      return unitKindLabels[text as UnitKind] ?? text;
    case 'invoiceKind':
      return BROKER_INVOICE_KIND_LABELS[text as BrokerInvoiceKind] ?? text;
    case 'invoiceSource':
      return BROKER_INVOICE_SOURCE_LABELS[text as BrokerInvoiceSource] ?? text;
    case 'batchStatus':
      return PAYMENT_BATCH_STATUS_LABELS[text as PaymentBatchStatus] ?? text;
    default:
      return text;
  }
}

const quoted = (text: string | null) => (text === null ? '(vacío)' : text);

/** The shown fields of a row, in the table's order, with their values on each side. */
function changesOf(facts: AuditFacts): AuditChange[] {
  if (facts.action === 'export') {
    return Object.entries(facts.after ?? {})
      .filter(([key]) => key.startsWith(EXPORT_FILTER_PREFIX))
      .map(([key, value]) => ({
        field: `Filtro ${key.slice(EXPORT_FILTER_PREFIX.length)}`,
        before: null,
        after: String(value),
      }));
  }
  if (facts.action === 'redact' || facts.action === 'read_blocked') return [];
  if (!isAuditedTable(facts.table)) {
    // A session event: where from.
    const after = facts.after ?? {};
    return [
      { field: 'Dirección IP', before: null, after: after.ip ? String(after.ip) : null },
      { field: 'Navegador', before: null, after: after.user_agent ? String(after.user_agent) : null },
    ].filter((change) => change.after !== null);
  }
  const fields = AUDIT_TABLES[facts.table].fields as Record<string, AuditField>;
  const changes: AuditChange[] = [];
  for (const [column, definition] of Object.entries(fields)) {
    if (definition.hidden) continue;
    const inBefore = facts.before !== null && Object.hasOwn(facts.before, column);
    const inAfter = facts.after !== null && Object.hasOwn(facts.after, column);
    if (!inBefore && !inAfter) continue;
    const before = inBefore
      ? formatAuditValue(definition.format, facts.before![column], facts.references)
      : null;
    const after = inAfter
      ? formatAuditValue(definition.format, facts.after![column], facts.references)
      : null;
    // A new or removed row lists what it held, not its empty fields.
    if (facts.action !== 'update' && before === null && after === null) continue;
    changes.push({ field: definition.label, before, after });
  }
  return changes;
}

/** The value of one column of the row, named: the responsible of an assignment, a comment's text. */
function namedValue(facts: AuditFacts, column: string): string {
  const fields = isAuditedTable(facts.table)
    ? (AUDIT_TABLES[facts.table].fields as Record<string, AuditField>)
    : {};
  const definition = fields[column];
  const raw = (facts.after ?? facts.before)?.[column];
  return quoted(definition ? formatAuditValue(definition.format, raw, facts.references) : null);
}

function subjectOf(facts: AuditFacts): string {
  if (facts.taskName !== null) return `la tarea ${facts.taskName}`;
  if (facts.action === 'export') return 'la exportación';
  if (facts.action === 'redact' || facts.action === 'read_blocked') return 'los datos del titular';
  if (isAuditedTable(facts.table)) return AUDIT_TABLES[facts.table].noun;
  return 'la sesión';
}

/** What happened to a row of the log, in Spanish, for 'Historial', Auditoría and their exports. */
export function describeAuditRow(facts: AuditFacts): AuditDescription {
  const subject = subjectOf(facts);
  const changes = changesOf(facts);
  const summary = (() => {
    switch (facts.action) {
      case 'sign_in':
        return 'inició sesión';
      case 'sign_out':
        return 'cerró sesión';
      case 'export': {
        const after = facts.after ?? {};
        const rows = Number(after.filas ?? 0);
        return `exportó ${String(after.nombre ?? facts.table)} (${String(after.formato ?? '').toUpperCase()}, ${formatInteger(rows)} ${rows === 1 ? 'fila' : 'filas'})`;
      }
      case 'redact': {
        const rows = Number(facts.after?.registros_redactados ?? 0);
        return `suprimió los datos personales del titular y redactó ${formatInteger(rows)} ${rows === 1 ? 'valor del historial' : 'valores del historial'}`;
      }
      case 'read_blocked':
        return 'leyó los datos bloqueados del titular';
      case 'insert':
        if (facts.table === 'flow_task_assignees') {
          const because = becauseOf(facts.cause, assignmentTaskId(facts));
          return isOwnAssignment(facts) && !because
            ? `se asignó ${subject}`
            : `asignó a ${namedValue(facts, 'user_id')} a ${subject}${because}`;
        }
        if (facts.table === 'flow_task_rejections')
          return `rechazó ${subject}: «${namedValue(facts, 'reason')}»`;
        if (facts.table === 'flow_task_comments')
          return `comentó en ${subject}: «${namedValue(facts, 'content')}»`;
        if (facts.table === 'flow_task_comment_mentions')
          return `mencionó a ${namedValue(facts, 'user_id')} en ${subject}`;
        if (facts.table === 'workflow_task_default_assignees')
          return `asignó a ${namedValue(facts, 'user_id')} como responsable por defecto de ${namedValue(facts, 'task_id')}`;
        return `creó ${subject}`;
      case 'delete':
        if (facts.table === 'flow_task_assignees') {
          // Completing a task removes its assignees (workflows.md §2): the sentence says why.
          const because = becauseOf(facts.cause, assignmentTaskId(facts));
          if (isOwnAssignment(facts))
            return because ? `dejó de ser responsable de ${subject}${because}` : `se quitó de ${subject}`;
          return `quitó a ${namedValue(facts, 'user_id')} de ${subject}${because}`;
        }
        if (facts.table === 'flow_task_comments') return `eliminó un comentario de ${subject}`;
        if (facts.table === 'flow_task_comment_mentions')
          return `quitó la mención a ${namedValue(facts, 'user_id')}`;
        if (facts.table === 'workflow_task_default_assignees')
          return `quitó a ${namedValue(facts, 'user_id')} como responsable por defecto de ${namedValue(facts, 'task_id')}`;
        return `eliminó ${subject}`;
      case 'update': {
        if (facts.table === 'flow_tasks') return taskUpdate(facts, subject, changes);
        if (facts.table === 'flows') return flowUpdate(facts, subject, changes);
        return `${changeSentences(changes)} en ${subject}`;
      }
    }
  })();
  return { subject, summary, changes };
}

/** Changed fields as a person says them: 'cambió A de x a y', 'agregó B (z)', 'borró C (era w)'. */
function changeSentences(changes: readonly AuditChange[]): string {
  return changes
    .map((change) => {
      if (change.before === null && change.after === null) return `cambió ${change.field}`;
      if (change.before === null) return `agregó ${change.field} (${change.after})`;
      if (change.after === null) return `borró ${change.field} (era ${change.before})`;
      return `cambió ${change.field} de ${change.before} a ${change.after}`;
    })
    .join('; ');
}

/** Whether a value is the change's own instant (within a second: a clock read apart from the log's). */
const sameInstant = (value: unknown, at: string | null | undefined) =>
  typeof value === 'string' && typeof at === 'string' && Math.abs(Date.parse(value) - Date.parse(at)) < 1000;

/** ' al completar la tarea X' / ' al completarla' (the row's own task): an automatic effect says so. */
function becauseOf(cause: AuditCause | null | undefined, ownTaskId: string | null): string {
  if (!cause) return '';
  const own = ownTaskId !== null && cause.flowTaskId === ownTaskId;
  if (cause.kind === 'taskCompleted')
    return own ? ' al completarla' : ` al completar la tarea ${cause.taskName ?? '(eliminada)'}`;
  return own ? ' al reabrirla' : ` al reabrir la tarea ${cause.taskName ?? '(eliminada)'}`;
}

/** The task row an assignment row belongs to. */
const assignmentTaskId = (facts: AuditFacts) => {
  const value = (facts.before ?? facts.after)?.flow_task_id;
  return typeof value === 'string' ? value : null;
};

/** Whether the assignment is of the person who made the change (she assigned or removed herself). */
const isOwnAssignment = (facts: AuditFacts) =>
  facts.actorId != null && (facts.before ?? facts.after)?.user_id === facts.actorId;

/**
 * A task row changed: 'marcó la tarea X como Completada' (the end, who and when going without saying
 * when they are the change's own), 'dio inicio a la tarea X al completar la tarea Y' (a stage reached);
 * other fields as any change says them.
 */
function taskUpdate(facts: AuditFacts, subject: string, changes: AuditChange[]): string {
  const before = facts.before ?? {};
  const after = facts.after ?? {};
  const fields = AUDIT_TABLES.flow_tasks.fields;
  const said = new Set<string>();
  const parts: string[] = [];
  const because = becauseOf(facts.cause, null);
  if (Object.hasOwn(after, 'status')) {
    const status = formatAuditValue('taskStatus', after.status) ?? String(after.status);
    let sentence = `marcó ${subject} como ${status}`;
    said.add(fields.status.label);
    if (after.status === 'completed') {
      // Completed now by whoever made the change: nothing to add; a date given by hand is said.
      if (Object.hasOwn(after, 'completed_at')) {
        said.add(fields.completed_at.label);
        if (!sameInstant(after.completed_at, facts.at))
          sentence += ` con término el ${formatAuditValue('instant', after.completed_at) ?? '(vacío)'}`;
      }
      if (Object.hasOwn(after, 'completed_by') && after.completed_by === facts.actorId)
        said.add(fields.completed_by.label);
    } else if (before.status === 'completed') {
      // Reopened: its end and who completed it are cleared with it.
      if (Object.hasOwn(after, 'completed_at') && after.completed_at === null)
        said.add(fields.completed_at.label);
      if (Object.hasOwn(after, 'completed_by') && after.completed_by === null)
        said.add(fields.completed_by.label);
    }
    // A task that begins with the change starts at its instant.
    if (before.started_at === null && sameInstant(after.started_at, facts.at))
      said.add(fields.started_at.label);
    parts.push(sentence + because);
  } else if (
    facts.cause &&
    Object.keys(after).length === 1 &&
    before.started_at === null &&
    sameInstant(after.started_at, facts.at)
  ) {
    // Its stage became the current one: the engine started it.
    return `dio inicio a ${subject}${because}`;
  }
  const rest = changes.filter((change) => !said.has(change.field));
  if (rest.length > 0)
    parts.push(`${changeSentences(rest)} en ${subject}${parts.length === 0 ? because : ''}`);
  return parts.join('; ');
}

/** A flow changed: 'pasó el flujo a la etapa Promesa', 'marcó el flujo como Completado'. */
function flowUpdate(facts: AuditFacts, subject: string, changes: AuditChange[]): string {
  const after = facts.after ?? {};
  const fields = AUDIT_TABLES.flows.fields;
  const said = new Set<string>();
  const parts: string[] = [];
  if (Object.hasOwn(after, 'status')) {
    parts.push(
      `marcó ${subject} como ${formatAuditValue('flowStatus', after.status) ?? String(after.status)}`,
    );
    said.add(fields.status.label);
    // Completed at the change's instant, or back in progress with its end cleared: implied.
    if (
      Object.hasOwn(after, 'completed_at') &&
      (after.completed_at === null || sameInstant(after.completed_at, facts.at))
    )
      said.add(fields.completed_at.label);
  }
  if (Object.hasOwn(after, 'current_stage_id')) {
    said.add(fields.current_stage_id.label);
    const stage = formatAuditValue(fields.current_stage_id.format, after.current_stage_id, facts.references);
    // A completed flow has no current stage: its status says it.
    if (stage !== null) parts.push(`pasó ${subject} a la etapa ${stage}`);
    else if (parts.length === 0) parts.push(`dejó ${subject} sin etapa actual`);
  }
  const rest = changes.filter((change) => !said.has(change.field));
  if (rest.length > 0) parts.push(`${changeSentences(rest)} en ${subject}`);
  return parts.join('; ') + becauseOf(facts.cause, null);
}

/**
 * The words of an Auditoría search, as the log stores values: folded like the search columns, an
 * amount typed the Chilean way ('1.234,50', '135,5') as the decimal string the log holds ('1234.50',
 * '135.5'), a RUT without its dots ('12.345.678-5' -> '12345678-5'), a date dd/mm/aaaa as the log
 * holds it ('12/03/2027' -> '2027-03-12'). Every word must appear.
 */
export function auditSearchWords(query: string | null | undefined): string[] {
  if (!query) return [];
  const words = foldForSearch(query.trim())
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      if (/^\d{1,3}(\.\d{3})*(,\d+)?$/.test(word) || /^\d+,\d+$/.test(word))
        return word.replaceAll('.', '').replace(',', '.');
      if (/^\d[\d.]*-[\dk]$/.test(word)) return word.replaceAll('.', '');
      const date = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(word);
      if (date) return `${date[3]}-${date[2]}-${date[1]}`;
      return word;
    });
  return [...new Set(words)];
}
