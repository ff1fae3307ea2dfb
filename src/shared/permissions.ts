/**
 * Who may do what: the one catalogue (issue 56, decision 0060). Every action a user type may or may
 * not take, its words for the Permisos tab, the user types that hold it by default, and whether the
 * spec fixes it (its admin-only actions) or the office may grant and withdraw it (decision 0061).
 * The server answers "may this user do this" with `can` on every route that declares an action and in
 * the services; the session carries the actions its user holds, and the screens render from them.
 * No other file compares user types (`scripts/authority-homes.ts` fails the build on one).
 */
export const USER_TYPES = ['Administrador', 'KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'] as const;
export type UserType = (typeof USER_TYPES)[number];

const ADMINISTRATOR: UserType = 'Administrador';
const ADMINS: readonly UserType[] = [ADMINISTRATOR];
/** The payments team and administrators: who prepares, exports and pays 'Nómina de pago' (issue 33). */
const PAYMENTS: readonly UserType[] = [ADMINISTRATOR, 'Gestor de Pagos'];
const EVERYONE: readonly UserType[] = USER_TYPES;

export interface ActionDefinition {
  /** The user types that hold it when the office has changed nothing. */
  holders: readonly UserType[];
  /** Fixed by the spec (its admin-only actions) or by safety (who grants): never granted or withdrawn. */
  fixed: boolean;
}

function fixed(): ActionDefinition {
  return { holders: ADMINS, fixed: true };
}
function grantable(holders: readonly UserType[]): ActionDefinition {
  return { holders, fixed: false };
}

export const ACTIONS = {
  // Spec part 2 §6, administrators only.
  'flows.administer': fixed(),
  'comments.delete': fixed(),
  'reservations.rescind': fixed(),
  'payments.start': fixed(),
  'menu.followUp': fixed(),
  'menu.approvals': fixed(),
  // Fixed for safety: whoever may change users or these grants may give themselves anything.
  'users.manage': fixed(),
  'permissions.manage': fixed(),

  // The office decides.
  'clients.delete': grantable(ADMINS),
  'reservations.delete': grantable(ADMINS),
  'reservations.overridePolicy': grantable(ADMINS),
  'promotions.delete': grantable(ADMINS),
  'agencies.manage': grantable(ADMINS),
  'projects.manage': grantable(ADMINS),
  'flowSettings.manage': grantable(ADMINS),
  'audit.read': grantable(ADMINS),
  'dataRequests.manage': grantable(ADMINS),
  'mail.manage': grantable(ADMINS),
  'imports.manage': grantable(ADMINS),
  'stock.manage': grantable(ADMINS),
  'ufValues.manage': grantable(ADMINS),
  'backups.manage': grantable(ADMINS),
  'documents.delete': grantable(ADMINS),
  'documentTypes.manage': grantable(ADMINS),
  'documents.readRestricted': grantable(PAYMENTS),
  'quotes.configure': grantable(ADMINS),
  'reports.export': grantable(EVERYONE),
  'reports.brokerPayments': grantable(EVERYONE),
  'bankAccounts.change': grantable(PAYMENTS),
  'bankAccounts.verify': grantable(PAYMENTS),
  'brokerInvoices.record': grantable(PAYMENTS),
  'brokerInvoices.accept': grantable(ADMINS),
  'paymentBatches.manage': grantable(PAYMENTS),
  'brokerUsers.manage': grantable(ADMINS),
  'paymentSettings.manage': grantable(ADMINS),
  // The buyer's account (issue 60, decision 0073).
  'buyerAccounts.plan': grantable(EVERYONE),
  'buyerAccounts.payments': grantable(PAYMENTS),
  'buyerAccounts.waivePie': grantable(ADMINS),
} as const satisfies Record<string, ActionDefinition>;

export type Action = keyof typeof ACTIONS;
export const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

/**
 * What the Permisos tab says of each action (Spanish, the product's words). Beside the catalogue, not
 * in it: only the server's Permisos answer reads them, so they stay out of the client's first load
 * (DESIGN §6), while the session's schema needs the catalogue's names there.
 */
export const ACTION_LABELS: Record<Action, string> = {
  'flows.administer':
    'Modificar y reasignar tareas completadas, corregir las fechas de tareas y flujos, y decidir aprobaciones asignadas a otros',
  'comments.delete': 'Eliminar comentarios de las tareas',
  'reservations.rescind': 'Resciliar reservas (irreversible)',
  'payments.start': 'Iniciar un flujo de pago («Proceder con Pago»)',
  'menu.followUp': 'Ver el seguimiento de tareas de todos los usuarios (menú Seguimiento)',
  'menu.approvals': 'Ver el menú Aprobaciones',
  'users.manage': 'Crear, editar, desactivar y reactivar usuarios; cambiar sus contraseñas',
  'permissions.manage': 'Otorgar y retirar permisos a los tipos de usuario (Configuración → Permisos)',
  'clients.delete': 'Eliminar clientes',
  'reservations.delete': 'Eliminar reservas',
  'reservations.overridePolicy':
    'Aprobar una reserva que excede la política comercial del proyecto, indicando el motivo',
  'promotions.delete': 'Eliminar promociones',
  'agencies.manage': 'Crear y editar inmobiliarias',
  'projects.manage': 'Crear y editar proyectos (y sus logos)',
  'flowSettings.manage': 'Cambiar el vendedor por defecto y los responsables por defecto de los flujos',
  'audit.read': 'Ver y exportar la auditoría de todos los cambios (Configuración → Auditoría)',
  'dataRequests.manage':
    'Atender solicitudes de titulares de datos (Ley 21.719): exportar sus datos, suprimirlos, registrar oposición o bloqueo',
  'mail.manage':
    'Ver los correos enviados y por enviar, reintentarlos, enviar un correo de prueba y editar los feriados (Configuración → Correos)',
  'imports.manage': 'Importar clientes, brokers y reservas desde Excel o CSV, y deshacer una importación',
  'stock.manage':
    'Administrar el stock de los proyectos: unidades, bloqueos, listas de precios y política comercial',
  'ufValues.manage': 'Agregar, corregir e importar los valores UF (Configuración → Valores UF)',
  'backups.manage': 'Ver, crear y descargar los respaldos de la base de datos (Configuración → Respaldos)',
  'documents.delete': 'Eliminar documentos de una reserva (queda en el historial)',
  'documentTypes.manage':
    'Crear y editar los tipos de documento, quién los ve y qué tareas los requieren (Configuración → Documentos)',
  'documents.readRestricted':
    'Ver y descargar los documentos de tipos «Administradores y pagos», y la Liquidación de Comisión y los datos de factura que citan sus folios',
  'quotes.configure':
    'Configurar los días de vigencia y las cuotas máximas del pie de las cotizaciones de cada proyecto',
  'reports.export': 'Exportar informes y listados a CSV y Excel',
  'reports.brokerPayments': 'Ver el Informe de Pagos Brokers',
  'bankAccounts.change':
    'Cambiar los datos bancarios de un broker, del beneficiario de una promoción o de una inmobiliaria',
  'bankAccounts.verify': 'Verificar un cambio de cuenta bancaria (nunca quien hizo el cambio)',
  'brokerInvoices.record':
    'Registrar o corregir la factura del broker de un pago mientras la tarea no esté completada',
  'brokerInvoices.accept':
    'Aceptar, con un motivo, una factura del broker que no cuadra con el pago, para que la tarea se pueda completar',
  'paymentBatches.manage':
    'Preparar, exportar y marcar pagadas las nóminas de pago (dentro de los últimos días hábiles de Configuración → Pagos)',
  'brokerUsers.manage':
    'Invitar y desactivar a las personas de una corredora en el portal de brokers (el KAM de la corredora también puede)',
  'paymentSettings.manage':
    'Cambiar la configuración de pagos y el archivo del banco (Configuración → Pagos)',
  'buyerAccounts.plan': 'Armar el plan de pagos del comprador de una reserva',
  'buyerAccounts.payments':
    'Registrar y reversar los pagos recibidos de los compradores (cuenta del comprador)',
  'buyerAccounts.waivePie': 'Liberar la carta pie sin el pie pagado, indicando el motivo',
};

export function isAction(name: string): name is Action {
  return Object.hasOwn(ACTIONS, name);
}

/**
 * The office's changes to the defaults (decision 0061): for a grantable action and a user type,
 * whether it is held. Fixed actions never appear (the service refuses to record them).
 */
export type Grants = ReadonlyMap<Action, ReadonlyMap<UserType, boolean>>;
export const NO_GRANTS: Grants = new Map();

/** Whether a user type holds an action, after the office's grants. */
export function holds(userType: UserType | string, action: Action, grants: Grants = NO_GRANTS): boolean {
  const definition: ActionDefinition = ACTIONS[action];
  const granted = definition.fixed ? undefined : grants.get(action)?.get(userType as UserType);
  return granted ?? definition.holders.includes(userType as UserType);
}

/** Every user type that holds an action, in the spec's order. */
export function holdersOf(action: Action, grants: Grants = NO_GRANTS): UserType[] {
  return USER_TYPES.filter((userType) => holds(userType, action, grants));
}

const actionsByGrants = new WeakMap<Grants, Map<string, readonly Action[]>>();

/**
 * The actions a user type holds, in the catalogue's order: what the session carries. Worked out once
 * per set of grants and user type (every request asks), the same frozen list after.
 */
export function actionsOf(userType: UserType | string, grants: Grants = NO_GRANTS): Action[] {
  let byType = actionsByGrants.get(grants);
  if (!byType) {
    byType = new Map();
    actionsByGrants.set(grants, byType);
  }
  let actions = byType.get(userType);
  if (!actions) {
    actions = Object.freeze(ACTION_NAMES.filter((action) => holds(userType, action, grants)));
    byType.set(userType, actions);
  }
  return actions as Action[];
}

/** A principal who holds actions: the session's user (server and client alike). */
export interface Holder {
  actions: readonly string[];
}

/** May this principal take this action? The one question every check asks. */
export function can(holder: Holder, action: Action): boolean {
  return holder.actions.includes(action);
}

/**
 * Whether a user type is the administrators' type: the type the spec's admin role follows (part 2 §6,
 * `user_roles`) and the one that must keep an active member. Not a permission: ask `can` for those.
 */
export function isAdministratorType(userType: string): boolean {
  return userType === ADMINISTRATOR;
}
