import { z } from 'zod';
import { AUDIT_RECORD_KIND_KEYS, type AuditRecordKind, HISTORY_KINDS } from '../audit/fields';
import { exportFormat, reportColumns } from '../reports/columns';
import { DEFAULT_PAGE_SIZE, isoDate, LIST_QUERY_MESSAGES, pageOf, searchText, uuid } from './common';

/**
 * The audit trail's API (decision 0024): the 'Historial' of a record (its changes and its parts',
 * newest first) and Configuración → Auditoría (the whole log, administrators, filtered and exported).
 */

export const AUDIT_ACTIONS = [
  'insert',
  'update',
  'delete',
  'sign_in',
  'sign_out',
  'export',
  'redact',
  'read_blocked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One changed field, its values as a user reads them ('UF 135,50', '12/03/2027', 'Camila Fuentes'). */
export const auditChange = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AuditChange = z.infer<typeof auditChange>;

export const auditEntry = z.object({
  id: z.number().int(),
  /** When (ISO instant): the instant of the transaction that made the change. */
  at: z.string(),
  /** Who: null is 'sistema' (migrations, the generator, scripts). */
  actor: z.object({ id: z.string(), name: z.string() }).nullable(),
  action: z.enum(AUDIT_ACTIONS),
  /** The changed table. */
  table: z.string(),
  /** The changed row, named in a sentence: 'la comisión del broker', 'la tarea COF PENDIENTE FIRMA'. */
  subject: z.string(),
  /** What the actor did, without the actor: 'cambió Monto comisión de UF 120,00 a UF 135,50 en …'. */
  summary: z.string(),
  /** The record the change belongs to (its 'Historial'): 'Reserva N° 1234', 'Cliente Juan Pérez'. */
  record: z.object({
    kind: z.string(),
    id: z.string().nullable(),
    label: z.string(),
    /** False once the record was deleted (its label then says so). */
    exists: z.boolean(),
    /** A flow's kind (its screen is the sale flow's or the payment flow's); null for other records. */
    flowKind: z.enum(['sale', 'payment']).nullable(),
  }),
  /** The changed fields (every shown field of an insert or a delete), in the table's field order. */
  changes: z.array(auditChange),
  /** The HTTP request that made it, when one did. */
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = pageOf(auditEntry);
export type AuditPage = z.infer<typeof auditPage>;

const M = LIST_QUERY_MESSAGES;
const pageFields = {
  page: z.coerce.number({ error: M.page }).int({ error: M.page }).min(1, { error: M.page }).default(1),
  pageSize: z.coerce
    .number({ error: M.pageSize })
    .int({ error: M.pageSize })
    .min(1, { error: M.pageSize })
    .max(100, { error: M.pageSize })
    .default(DEFAULT_PAGE_SIZE),
};

// --- Historial ----------------------------------------------------------------------------------

export const historyParams = z.strictObject({
  kind: z.enum(HISTORY_KINDS, { error: 'Tipo de registro no válido' }),
  id: uuid(),
});
export const historyQuery = z.strictObject(pageFields);
export type HistoryQuery = z.output<typeof historyQuery>;

// --- Auditoría ----------------------------------------------------------------------------------

/**
 * The text search reads the values of the newest changes the other filters leave, at most this many
 * (the log has no index on its values: decision 0024); the screen says so while a text is typed.
 */
export const AUDIT_TEXT_SEARCH_WINDOW = 5_000;

/** The user filter: a user's id, or 'sistema' for the changes no user made. */
export const SYSTEM_ACTOR_FILTER = 'sistema';

const auditFilters = {
  user: z.union([uuid('Seleccione un usuario'), z.literal(SYSTEM_ACTOR_FILTER)]).optional(),
  kind: z
    .enum(AUDIT_RECORD_KIND_KEYS as [AuditRecordKind, ...AuditRecordKind[]], {
      error: 'Tipo de registro no válido',
    })
    .optional(),
  from: isoDate('Ingrese una fecha de inicio válida').optional(),
  to: isoDate('Ingrese una fecha de término válida').optional(),
  search: searchText(100, M.search(100)).optional(),
};

const rangeInOrder = (query: { from?: string | undefined; to?: string | undefined }) =>
  !query.from || !query.to || query.from <= query.to;
const RANGE_MESSAGE = { error: 'La fecha de inicio debe ser anterior a la de término', path: ['to'] };

export const auditListQuery = z
  .strictObject({ ...pageFields, ...auditFilters })
  .refine(rangeInOrder, RANGE_MESSAGE);
export type AuditListQuery = z.output<typeof auditListQuery>;
export type AuditFilters = Omit<AuditListQuery, 'page' | 'pageSize'>;

export const auditExportQuery = z
  .strictObject({ ...auditFilters, format: exportFormat })
  .refine(rangeInOrder, RANGE_MESSAGE);

/** Every staff account, active or not, for the user filter. */
export const auditUsersResponse = z.object({
  users: z.array(z.object({ id: z.string(), name: z.string(), position: z.string(), isActive: z.boolean() })),
});
export type AuditUser = z.infer<typeof auditUsersResponse>['users'][number];

/** A row of the Auditoría's export: one change, its values in words. */
export interface AuditExportRow {
  date: string;
  time: string;
  actorName: string;
  kind: string;
  recordLabel: string;
  summary: string;
  changes: string;
  requestId: string | null;
}

export const AUDIT_EXPORT_COLUMNS = reportColumns<AuditExportRow>()([
  { key: 'date', header: 'Fecha', format: 'date' },
  { key: 'time', header: 'Hora', format: 'text', width: 8 },
  { key: 'actorName', header: 'Usuario', format: 'text', width: 26 },
  { key: 'kind', header: 'Tipo de registro', format: 'text', width: 18 },
  { key: 'recordLabel', header: 'Registro', format: 'text', width: 36 },
  { key: 'summary', header: 'Acción', format: 'text', width: 60 },
  { key: 'changes', header: 'Cambios', format: 'text', width: 80 },
  { key: 'requestId', header: 'Solicitud', format: 'text', width: 38 },
]);

/** The changes of an entry in one cell: 'Monto comisión: UF 120,00 → UF 135,50; …'. */
export function changesInOneLine(changes: readonly AuditChange[]): string {
  return changes
    .map((change) =>
      change.before === null && change.after === null
        ? change.field
        : `${change.field}: ${change.before ?? '(vacío)'} → ${change.after ?? '(vacío)'}`,
    )
    .join('; ');
}
