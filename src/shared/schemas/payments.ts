import { z } from 'zod';
import { isRescissionConfirmed } from '../domain/rescission';
import { FLOW_STATUSES } from '../domain/workflow/statuses';
import { closed, lines, pageOf, requiredNote, searchText, uuid } from './common';
import { saleFlowTask } from './sale-flows';
import { clpFigure } from './uf-values';
import { commandAllowance, flowCommandsView, flowPerson } from './workflows';

/**
 * The payments' screens (spec part 2 §2 'Pagos', 'Editar Comisión', 'Flujo de Pago', the rescission
 * wizard; workflows.md §3 and §5). The task commands of a payment flow are the workflows' shared ones
 * under /api/payment-flows (`schemas/workflows.ts`); the commission itself is edited with
 * PUT /api/reservations/:id/commission (`schemas/reservations.ts`).
 */

// --- List (/pagos) -----------------------------------------------------------------------------

export const paymentListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  /** The apartment number, or its beginning ('12' finds 12, 120, 1201…); case ignored. */
  search: searchText(20).optional(),
});
export type PaymentListQuery = z.input<typeof paymentListQuery>;

/**
 * How a payment stands in the list's badges: 'completed' (Completado), 'in_progress' (En Proceso),
 * 'pending' (Pendiente: no flow yet, or a flow not started), 'cancelled' (its flow was cancelled by a
 * rescission).
 */
export const PAYMENT_STANDINGS = FLOW_STATUSES;
export type { PaymentStanding } from '../domain/payments';

const paymentFlowRef = z.object({ id: z.uuid(), status: z.enum(FLOW_STATUSES) });

export const paymentListRow = z.object({
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  projectName: z.string(),
  projectStage: z.string(),
  apartmentNumber: z.string(),
  brokerName: z.string().nullable(),
  isRescinded: z.boolean(),
  /** Null: 'Sin comisión'. */
  commission: z
    .object({
      id: z.uuid(),
      commissionAmount: z.string(),
      netCommission: z.string(),
      numberOfPayments: z.union([z.literal(1), z.literal(2)]),
      firstPaymentPercentage: z.union([z.literal(25), z.literal(50), z.literal(100)]),
      atRisk: z.boolean(),
    })
    .nullable(),
  firstFlow: paymentFlowRef.nullable(),
  secondFlow: paymentFlowRef.nullable(),
  payment1: z.enum(PAYMENT_STANDINGS),
  /** Null for a one-payment commission (or none). Completed when its flow is, or payment 2 is dated. */
  payment2: z.enum(PAYMENT_STANDINGS).nullable(),
  /** 'Crear Segundo Pago' is offered: two payments, the first flow completed, no second flow yet. */
  canCreateSecondPayment: z.boolean(),
  /** Each payment in pesos: frozen once paid, estimated while unpaid (null: no such payment). */
  payment1Pesos: clpFigure.nullable(),
  payment2Pesos: clpFigure.nullable(),
});
export type PaymentListRow = z.infer<typeof paymentListRow>;
export const paymentListResponse = pageOf(paymentListRow);
export type PaymentPage = z.infer<typeof paymentListResponse>;

// --- Opening flows ------------------------------------------------------------------------------

export const reservationParams = z.strictObject({ reservationId: uuid() });

/**
 * POST /api/payments/:reservationId/first-flow (a row click) and .../second-flow ('Crear Segundo
 * Pago'): the flow's id, created on demand (idempotent: the same flow for every caller).
 */
export const openedFlowResponse = z.object({ flowId: z.uuid(), created: z.boolean() });
export type OpenedFlow = z.infer<typeof openedFlowResponse>;

// --- Detail (/pagos/flujo/{id}) -----------------------------------------------------------------

export const paymentFlowTask = saleFlowTask.extend({
  /** The task's default assignee (Configuración), offered as 'Asignar a {first name}'. */
  defaultAssignee: flowPerson.nullable(),
  /** The prerequisites it still waits for (workflows.md §1.4: not completed), by name, for a blocked task's hint. */
  waitsFor: z.array(z.string()),
});
export type PaymentFlowTask = z.infer<typeof paymentFlowTask>;

export const paymentFlowStage = z.object({
  id: z.uuid(),
  name: z.string(),
  order: z.number().int(),
  isComplete: z.boolean(),
  tasks: z.array(paymentFlowTask),
});
export type PaymentFlowStage = z.infer<typeof paymentFlowStage>;

export const paymentFlowDetail = z.object({
  id: z.uuid(),
  isSecondPayment: z.boolean(),
  status: z.enum(FLOW_STATUSES),
  currentStageId: z.uuid().nullable(),
  currentStageName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Whole Santiago days from the start to the completion, or to today; null before the start. */
  elapsedDays: z.number().int().nullable(),
  progress: z.number().int(),
  reservation: z.object({
    id: z.uuid(),
    reservationNumber: z.string(),
    apartmentNumber: z.string(),
    isRescinded: z.boolean(),
  }),
  /** The reservation's sale flow (the 'Flujo de Reservas' icon). */
  saleFlowId: z.uuid().nullable(),
  client: z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string(), rut: z.string() }),
  project: z.object({ id: z.uuid(), name: z.string(), stage: z.string() }),
  broker: z.object({ id: z.uuid(), name: z.string(), businessName: z.string() }).nullable(),
  commission: z.object({
    id: z.uuid(),
    commissionAmount: z.string(),
    /** Commission / base × 100, two decimals. */
    commissionPercentage: z.string(),
    numberOfPayments: z.union([z.literal(1), z.literal(2)]),
    firstPaymentPercentage: z.union([z.literal(25), z.literal(50), z.literal(100)]),
    /** The share this flow pays (the first payment's percentage, or the rest) and its amount. */
    paymentPercentage: z.number().int(),
    paymentAmount: z.string(),
    atRisk: z.boolean(),
    atRiskReason: z.string().nullable(),
    payment1Date: z.string().nullable(),
    payment2Date: z.string().nullable(),
    version: z.number().int(),
    /** This flow's payment in pesos: frozen with its date once paid, today's estimate while unpaid. */
    pesos: clpFigure,
  }),
  /** The other flow of the commission (the second from the first, the first from the second). */
  firstFlowId: z.uuid().nullable(),
  secondFlowId: z.uuid().nullable(),
  canCreateSecondPayment: z.boolean(),
  stages: z.array(paymentFlowStage),
  /** What the signed-in user may do on the flow: the engine's commands, and 'Marcar En Riesgo'. */
  commands: flowCommandsView.extend({ markAtRisk: commandAllowance }),
});
export type PaymentFlowDetail = z.infer<typeof paymentFlowDetail>;
export const paymentFlowResponse = z.object({ flow: paymentFlowDetail });

// --- At risk ------------------------------------------------------------------------------------

export const RISK_REASON_MESSAGE = 'Ingrese el motivo del riesgo';

/** PUT /api/payment-flows/:flowId/risk: on with its reason (required), or off (the reason is cleared). */
export const riskBody = z
  .strictObject({
    atRisk: z.boolean(),
    reason: lines().trim().max(500, { error: 'Máximo 500 caracteres' }).nullish(),
    /** The commission's version as read. */
    version: z.number().int().min(1),
  })
  .superRefine((body, ctx) => {
    if (body.atRisk && !body.reason)
      ctx.addIssue({ code: 'custom', message: RISK_REASON_MESSAGE, path: ['reason'] });
  })
  .transform((body) => ({ ...body, reason: body.atRisk ? body.reason! : null }));
export type RiskBody = z.input<typeof riskBody>;

export const riskResponse = z.object({
  commission: z.object({
    atRisk: z.boolean(),
    atRiskReason: z.string().nullable(),
    version: z.number().int(),
  }),
});

// --- Rescission ---------------------------------------------------------------------------------

export const RESCISSION_REASON_MESSAGE = 'Debe ingresar un motivo para la resciliación';
export const RESCISSION_CONFIRMATION_MESSAGE =
  'Debe confirmar la resciliación escribiendo "CONFIRMAR" o "CONFIRMACIÓN"';

/** POST /api/reservations/:id/rescission (administrators; irreversible). */
export const rescissionBody = z.strictObject({
  reason: requiredNote(RESCISSION_REASON_MESSAGE, 1000),
  /** Exactly one of the two words, as typed. */
  confirmation: closed(
    z.string({ error: RESCISSION_CONFIRMATION_MESSAGE }),
    'palabra de confirmación',
  ).refine(isRescissionConfirmed, { error: RESCISSION_CONFIRMATION_MESSAGE }),
  /** Only when the commission is paid (a payment dated). */
  applyPenalty: z.boolean().default(false),
});
export type RescissionBody = z.input<typeof rescissionBody>;

export const rescissionResponse = z.object({
  rescission: z.object({
    reservationId: z.uuid(),
    rescindedAt: z.string(),
    reason: z.string(),
    /** Null without a penalty. */
    penaltyAmount: z.string().nullable(),
    /** How many unfinished flows were cancelled. */
    cancelledFlows: z.number().int(),
  }),
});
export type RescissionResult = z.infer<typeof rescissionResponse>['rescission'];

/** What the wizard shows before the user confirms: whether a penalty may be chosen and its amount. */
export const rescissionPreviewResponse = z.object({
  preview: z.object({
    reservationNumber: z.string(),
    isRescinded: z.boolean(),
    hasCommission: z.boolean(),
    isCommissionPaid: z.boolean(),
    /** The penalty if chosen (null when the commission is not paid). */
    penaltyAmount: z.string().nullable(),
    /** Unfinished flows the rescission will cancel. */
    openFlows: z.number().int(),
  }),
});
export type RescissionPreview = z.infer<typeof rescissionPreviewResponse>['preview'];
