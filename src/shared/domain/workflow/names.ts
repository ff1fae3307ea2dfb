/**
 * The three workflows the product instantiates (spec part 1 §9, part 2 §9: fixed flow names). Their
 * stages and tasks are data; only which definition a reservation or a commission gets is named here.
 */
export const SALE_WORKFLOW = 'Flujo de Venta Regular';
export const FIRST_PAYMENT_WORKFLOW = 'Flujo de Pago Principal';
export const SECOND_PAYMENT_WORKFLOW = 'Flujo de Segundo Pago';

/**
 * The fixed stage order of the follow-up list (spec part 2 §9), across all three workflows.
 * 'Entrada' is listed by the spec though no seeded workflow has such a stage.
 */
export const FOLLOW_UP_STAGE_ORDER = [
  'Reparos',
  'Reserva',
  'Promesa',
  'Escrituración',
  'Solicitud Liquidación',
  'Aprobación Jefe Inversiones',
  'Aprobación Gerente Comercial',
  'Aprobación Operaciones',
  'Aprobación Control de Gestión',
  'Orden de Compra',
  'Facturación',
  'Pago',
  'Entrada',
] as const;

/**
 * The sale flow's task the buyer's account gates (decision 0074): it completes only when the
 * reservation's plan has its pie paid, or an administrator released it with a reason.
 */
export const PIE_LETTER_TASK = 'PENDIENTE CARTA PIE';
/** The sale flow's task whose panel shows the balance due at the deed. */
export const DEED_BALANCE_TASK = 'SALDOS ESCRITURA PENDIENTES';
