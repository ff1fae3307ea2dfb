import type { AuditAction, AuditChange } from '../../../shared/schemas/audit';

const EMPTY = '(vacío)';

/**
 * One changed field as a line: 'Monto comisión: UF 120,00 → UF 135,50' for an update; the value it
 * was created with or held when deleted ('Monto comisión: UF 120,00') for an insert or a delete; a
 * secret that changed, without its value.
 */
export function changeLine(action: AuditAction, change: AuditChange): string {
  if (action === 'insert' || action === 'sign_in') return `${change.field}: ${change.after ?? EMPTY}`;
  if (action === 'delete' || action === 'sign_out') return `${change.field}: ${change.before ?? EMPTY}`;
  if (change.before === null && change.after === null) return `${change.field}: (valor oculto)`;
  return `${change.field}: ${change.before ?? EMPTY} → ${change.after ?? EMPTY}`;
}

/** Whether an entry made or removed a whole record (its fields listed under 'Ver detalle'). */
export function isWholeRecord(action: AuditAction): boolean {
  return action === 'insert' || action === 'delete';
}
