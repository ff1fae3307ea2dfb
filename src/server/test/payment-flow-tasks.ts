// The seeded 'Flujo de Pago Principal' (workflows.md §1.2) by task name, in flow order, for the API
// tests and the journeys (which import it too: no database code here).

/** The first payment flow's tasks before 'Recepción Factura Broker', in the flow's order. */
export const FIRST_PAYMENT_BEFORE_INVOICE = [
  'Solicitud Liquidación',
  'Solicitud a Jefe Inversiones',
  'VB Jefe Inversiones',
  'Solicitud Gerente Comercial',
  'VB Gerente Comercial',
  'Solicitud Operaciones',
  'VB Operaciones',
  'Solicitud Control de Gestión',
  'VB Control de Gestión',
  'Generación de OC',
  'VB OC Gerencia Comercial',
  'VB OC Gerencia General',
  'Envío OC Broker',
];
/** From the broker's invoice to 'Notificación a Finanzas': done, they leave only 'Fecha de Pago' open. */
export const FIRST_PAYMENT_INVOICE_TO_FINANCE = [
  'Recepción Factura Broker',
  'Generación de Entrada',
  'Aprobación de Entrada',
  'Notificación a Finanzas',
];
/** Every task of the first payment flow, in order. */
export const FIRST_PAYMENT_TASKS = [
  ...FIRST_PAYMENT_BEFORE_INVOICE,
  ...FIRST_PAYMENT_INVOICE_TO_FINANCE,
  'Fecha de Pago',
];
