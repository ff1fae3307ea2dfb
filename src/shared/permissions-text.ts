import type { PolicyAction } from './policies';

// The actions' own words live in the catalogue (permissions.ts); these rules over records are for the
// Permisos tab only and stay out of the initial bundle.

/**
 * The record-level rules in words, for the Permisos tab: the policies the services check with
 * `allow`, then the rules of the flows' tasks, which the workflow engine's authority decides
 * (`shared/domain/workflow/authority.ts`; its tests hold each of these).
 */
export const policyDescriptions: Record<PolicyAction, string> = {
  'tasks.readOf':
    'Ver las tareas pendientes de otro usuario (Seguimiento): quienes ven el seguimiento de todos los usuarios',
  'documents.read':
    'Ver, previsualizar y descargar documentos de un tipo «Administradores y pagos», y la Liquidación de Comisión que cita sus folios: quienes ven los documentos de esos tipos',
  'brokerInvoices.record':
    'Registrar o corregir la factura del broker de un pago: quienes registran facturas mientras la tarea no esté completada; quienes administran los flujos, siempre',
  'paymentBatches.markPaid':
    'Marcar pagada una nómina de pago con la fecha del banco: dentro de los últimos días hábiles de Configuración → Pagos; quienes administran los flujos, con cualquier fecha pasada',
  'bankAccounts.change':
    'Cambiar los datos bancarios de un broker, del beneficiario de una promoción o de una inmobiliaria: quienes tienen ese permiso',
  'bankAccounts.verify':
    'Verificar un cambio de cuenta bancaria: quienes tienen ese permiso, nunca quien hizo el cambio',
};

export const taskRuleDescriptions: readonly string[] = [
  'Aprobar, rechazar o reasignar una aprobación: la persona asignada a la tarea, o un administrador',
  'Rechazar una aprobación: con «Rechazar» e indicando el motivo, nunca cambiando su estado a Bloqueada',
  'Modificar o reasignar una tarea completada, y corregir las fechas de tareas y flujos: solo administradores',
  'Una tarea de pago bloqueada se habilita cuando se completan las tareas que espera, para todos, administradores incluidos',
  'Un flujo de pago pendiente no admite cambios, asignaciones ni comentarios hasta «Proceder con Pago»',
  'Un flujo cancelado o de una reserva resciliada no admite cambios',
];
