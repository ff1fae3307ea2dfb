/**
 * The tabs of Configuración, in the order they are shown; each is a segment of the address.
 * 'auditoria', 'solicitudes-titulares' and 'importar' are shown to administrators only (`audit.read`,
 * `dataRequests.manage`, `imports.manage`).
 */
export const SETTINGS_TABS = [
  'proyectos',
  'inmobiliarias',
  'usuarios',
  'flujo-venta',
  'flujo-pago',
  'permisos',
  'auditoria',
  'solicitudes-titulares',
  'correos',
  'importar',
  'valores-uf',
  'respaldos',
  'documentos',
  'pagos',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
/** The tabs whose records have a form view (…/nuevo, …/editar/{id}). */
export type SettingsRecordTab = Extract<SettingsTab, 'proyectos' | 'inmobiliarias' | 'usuarios'>;

/**
 * A flow screen's query parameter that opens a task's comments: `?comentarios={task row id}` (the
 * link of a mention on /notificaciones, decision 0030).
 */
export const TASK_COMMENTS_PARAM = 'comentarios';

/** Every URL of the app, with typed builders for the ones that take an id. */
export const paths = {
  root: '/',
  login: '/login',
  /** The brokers' portal (issue 58): its own sign-in, the invitation's link, its screens. */
  portal: '/portal',
  portalPassword: '/portal/clave',
  portalHome: '/portal/operaciones',
  register: '/register',
  dashboard: '/dashboard',
  notifications: '/notificaciones',
  clients: '/clientes',
  newClient: '/clientes/nuevo',
  editClient: (id: string) => `/clientes/editar/${id}`,
  /** Cotizaciones (issue 59): the list, a new quote, one quote. */
  quotes: '/cotizaciones',
  newQuote: '/cotizaciones/nueva',
  quote: (id: string) => `/cotizaciones/${id}`,
  reservations: '/reservas',
  newReservation: '/reservas/nueva',
  editReservation: (id: string) => `/reservas/editar/${id}`,
  /** A reservation's documents (issue 35): reached from its flows and its form. */
  reservationDocuments: (id: string) => `/reservas/${id}/documentos`,
  reservationFlows: '/flujo-reservas',
  availability: '/disponibilidad',
  reservationFlow: (id: string) => `/flujo-reservas/${id}`,
  followUp: '/seguimiento',
  approvals: '/aprobaciones',
  brokers: '/brokers',
  newBroker: '/brokers/nuevo',
  editBroker: (id: string) => `/brokers/editar/${id}`,
  payments: '/pagos',
  /** 'Nómina de pago' (issue 33): the payments ready and the batches; one batch. */
  paymentBatches: '/pagos/nomina',
  paymentBatch: (id: string) => `/pagos/nomina/${id}`,
  commission: (reservationId: string) => `/pagos/${reservationId}`,
  /** Without a flow's id: redirects to the payments list. */
  paymentFlows: '/pagos/flujo',
  paymentFlow: (commissionFlowId: string) => `/pagos/flujo/${commissionFlowId}`,
  reports: '/informes',
  commissionReport: '/informes/comisiones',
  commissionProjectionReport: '/informes/proyeccion-comisiones',
  salesReport: '/informes/ventas',
  brokersReport: '/informes/brokers',
  brokerPaymentsReport: '/informes/pagos-brokers',
  brokerConsolidatedReport: '/informes/consolidado-brokers',
  /** 'Cuotas vencidas' of the buyers' accounts (issue 60). */
  overdueInstallments: '/informes/cuotas-vencidas',
  settlementApprovals: '/informes/aprobacion-liquidaciones',
  settlementApproval: (id: string) => `/informes/aprobacion-liquidaciones/${id}`,
  settings: '/configuracion',
  settingsTab: (tab: SettingsTab | ':tab') => `/configuracion/${tab}`,
  newSettingsRecord: (tab: SettingsRecordTab | ':tab') => `/configuracion/${tab}/nuevo`,
  editSettingsRecord: (tab: SettingsRecordTab | ':tab', id: string) => `/configuracion/${tab}/editar/${id}`,
  /** A holder's request (Ley 21.719), under Configuración → Solicitudes de titulares. */
  dataRequest: (id: string) => `/configuracion/solicitudes-titulares/${id}`,
} as const;
