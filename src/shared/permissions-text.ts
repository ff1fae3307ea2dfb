import type { Action } from './permissions';
import type { PolicyAction } from './policies';

// Apart from permissions.ts, which every screen's menu reads: these words are for the Permisos tab
// only and stay out of the initial bundle.

/** The actions in words, for the Permisos tab (generated from the same list the server checks). */
export const actionDescriptions: Record<Action, string> = {
  'clients.delete': 'Eliminar clientes',
  'reservations.delete': 'Eliminar reservas',
  'reservations.rescind': 'Resciliar reservas (irreversible)',
  'payments.start': 'Iniciar un flujo de pago («Proceder con Pago»)',
  'promotions.delete': 'Eliminar promociones',
  'menu.followUp': 'Ver el seguimiento de tareas de todos los usuarios (menú Seguimiento)',
  'menu.approvals': 'Ver el menú Aprobaciones',
  'agencies.manage': 'Crear y editar inmobiliarias',
  'projects.manage': 'Crear y editar proyectos (y sus logos)',
  'users.manage': 'Crear, editar, desactivar y reactivar usuarios; cambiar sus contraseñas',
  'flowSettings.manage': 'Cambiar el vendedor por defecto y los responsables por defecto de los flujos',
  'audit.read': 'Ver y exportar la auditoría de todos los cambios (Configuración → Auditoría)',
  'comments.delete': 'Eliminar comentarios de las tareas',
  'dataRequests.manage':
    'Atender solicitudes de titulares de datos (Ley 21.719): exportar sus datos, suprimirlos, registrar oposición o bloqueo',
  'mail.manage':
    'Ver los correos enviados y por enviar, reintentarlos, enviar un correo de prueba y editar los feriados (Configuración → Correos)',
  'imports.manage': 'Importar clientes, brokers y reservas desde Excel o CSV, y deshacer una importación',
  'stock.manage':
    'Administrar el stock de los proyectos: unidades, bloqueos, listas de precios y política comercial',
  'reservations.overridePolicy':
    'Aprobar una reserva que excede la política comercial del proyecto, indicando el motivo',
  'ufValues.manage': 'Agregar, corregir e importar los valores UF (Configuración → Valores UF)',
  'backups.manage': 'Ver, crear y descargar los respaldos de la base de datos (Configuración → Respaldos)',
  'documents.delete': 'Eliminar documentos de una reserva (queda en el historial)',
  'documentTypes.manage':
    'Crear y editar los tipos de documento, quién los ve y qué tareas los requieren (Configuración → Documentos)',
  'brokerInvoices.accept':
    'Aceptar, con un motivo, una factura del broker que no cuadra con el pago, para que la tarea se pueda completar',
};

/**
 * The record-level rules in words, for the Permisos tab: the policies the services check with
 * `allow`, then the rules of the flows' tasks, which the workflow engine's authority decides
 * (`shared/domain/workflow/authority.ts`; its tests hold each of these).
 */
export const policyDescriptions: Record<PolicyAction, string> = {
  'tasks.readOf': 'Ver las tareas pendientes de otro usuario (Seguimiento): solo administradores',
  'documents.read':
    'Ver, previsualizar y descargar documentos de un tipo «Administradores y pagos»: administradores y Gestores de Pagos',
  'brokerInvoices.record':
    'Registrar o corregir la factura del broker de un pago: Gestores de Pagos mientras la tarea no esté completada, y administradores',
  'paymentBatches.markPaid':
    'Marcar pagada una nómina de pago con la fecha del banco: Gestores de Pagos dentro de los últimos días hábiles de Configuración → Pagos, administradores con cualquier fecha pasada',
  'bankAccounts.change':
    'Cambiar los datos bancarios de un broker, del beneficiario de una promoción o de una inmobiliaria: Gestores de Pagos y administradores',
  'bankAccounts.verify':
    'Verificar un cambio de cuenta bancaria: otro Gestor de Pagos o un administrador, nunca quien hizo el cambio',
};

export const taskRuleDescriptions: readonly string[] = [
  'Aprobar, rechazar o reasignar una aprobación: la persona asignada a la tarea, o un administrador',
  'Rechazar una aprobación: con «Rechazar» e indicando el motivo, nunca cambiando su estado a Bloqueada',
  'Modificar o reasignar una tarea completada, y corregir las fechas de tareas y flujos: solo administradores',
  'Una tarea de pago bloqueada se habilita cuando se completan las tareas que espera, para todos, administradores incluidos',
  'Un flujo de pago pendiente no admite cambios, asignaciones ni comentarios hasta «Proceder con Pago»',
  'Un flujo cancelado o de una reserva resciliada no admite cambios',
];
