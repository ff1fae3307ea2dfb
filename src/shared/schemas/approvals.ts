import { z } from 'zod';
import { TASK_STATUSES } from '../domain/workflow/statuses';
import { exportFormat, reportColumns } from '../reports/columns';
import { line, pageOf, requiredNote, searchText, uuid } from './common';
import { clpFigure } from './uf-values';
import { flowPerson, taskCommandsView } from './workflows';

/**
 * Aprobaciones → Liquidaciones (spec part 2 §2 'Aprobación de Liquidaciones' and its detail;
 * workflows.md §4). The inbox lists the signed-in user's own open approval tasks of the payment flows:
 * a task is an approval when its definition says so (`workflow_tasks.is_approval`), so the whole chain
 * ('VB Jefe Inversiones', 'VB Gerente Comercial', …, 'Aprobación de Entrada') is served by one list,
 * filtered by approval; the spec's list ('VB Jefe Inversiones') is the default view.
 */

/** The spec's list: the approval shown when no other is chosen. */
export const DEFAULT_APPROVAL = 'VB Jefe Inversiones';
/** The filter value that lists every approval of the chain. */
export const ALL_APPROVALS = 'todas';

/** The comment a rejection writes (spec part 2 §4: 'RECHAZO: ' followed by the reason). */
export const REJECTION_PREFIX = 'RECHAZO: ';
export const rejectionComment = (reason: string) => `${REJECTION_PREFIX}${reason.trim()}`;

export const APPROVAL_MESSAGES = {
  reason: 'Debe ingresar el motivo del rechazo',
  noSelection: 'Seleccione al menos una aprobación',
  tooMany: 'Se pueden aprobar hasta 100 aprobaciones a la vez',
} as const;

// --- List ------------------------------------------------------------------------------------------

export const approvalListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  /** Every word must appear in the reservation or apartment number, the client, RUT, project or broker. */
  search: searchText(100).optional(),
  /** An approval task's name, or 'todas'; absent: the spec's list ('VB Jefe Inversiones'). */
  approval: line().trim().min(1).max(100).optional(),
});
export type ApprovalListQuery = z.input<typeof approvalListQuery>;

export const approvalListRow = z.object({
  /** The approval task's row (the detail's id). */
  taskId: z.uuid(),
  flowId: z.uuid(),
  taskName: z.string(),
  status: z.enum(TASK_STATUSES),
  isSecondPayment: z.boolean(),
  startedAt: z.string().nullable(),
  /** Whole Santiago days since the task opened. */
  daysPending: z.number().int().nullable(),
  daysToComplete: z.number().int().nullable(),
  daysLate: z.number().int(),
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  apartmentNumber: z.string(),
  projectName: z.string(),
  clientName: z.string(),
  clientRut: z.string(),
  brokerName: z.string().nullable(),
  commissionAmount: z.string(),
  /** The share this flow pays (the first payment, or the second), from `shared/domain/pricing`. */
  paymentAmount: z.string(),
  paymentPercentage: z.number(),
});
export type ApprovalListRow = z.infer<typeof approvalListRow>;
export const approvalListResponse = pageOf(approvalListRow).extend({
  /**
   * The signed-in user could not take back an approval once given (only administrators change a
   * completed task: the engine's authority, `mayChangeCompletedTasks`): 'Aprobar Seleccionados' asks
   * for a confirmation first (issue 28 §5). The list holds the user's own open approvals only, so this
   * is the same for every row.
   */
  isApprovalFinal: z.boolean(),
});
export type ApprovalPage = z.infer<typeof approvalListResponse>;

/** The list's CSV/XLSX ('aprobaciones_pendientes_{date}'): the same filters, every row, in the list's order. */
export const approvalExportQuery = approvalListQuery
  .omit({ page: true, pageSize: true })
  .extend({ format: exportFormat });
export type ApprovalExportQuery = z.input<typeof approvalExportQuery>;
export const APPROVALS_FILE_PREFIX = 'aprobaciones_pendientes';

/** The export's columns (header, key, format), once (DESIGN §11). */
export const APPROVAL_EXPORT_COLUMNS = reportColumns<ApprovalListRow>()([
  { key: 'reservationNumber', header: 'N° Reserva', format: 'text', width: 14 },
  { key: 'clientName', header: 'Cliente', format: 'text', width: 30 },
  { key: 'clientRut', header: 'RUT', format: 'text', width: 14 },
  { key: 'projectName', header: 'Proyecto', format: 'text', width: 24 },
  { key: 'apartmentNumber', header: 'Depto.', format: 'text', width: 10 },
  { key: 'brokerName', header: 'Broker', format: 'text', width: 26 },
  { key: 'taskName', header: 'Aprobación', format: 'text', width: 26 },
  { key: 'startedAt', header: 'Inicio', format: 'date' },
  { key: 'daysPending', header: 'Días Pendiente', format: 'integer' },
  { key: 'daysLate', header: 'Días de Atraso', format: 'integer' },
  { key: 'commissionAmount', header: 'Comisión', format: 'uf' },
  { key: 'paymentAmount', header: 'Monto a Pagar', format: 'uf' },
]);

/** The approvals of the chain (the filter's choices, in flow order) with the user's open ones of each. */
export const approvalKindsResponse = z.object({
  approvals: z.array(z.object({ name: z.string(), pending: z.number().int() })),
});
export type ApprovalKinds = z.infer<typeof approvalKindsResponse>;

// --- Detail ----------------------------------------------------------------------------------------

export const approvalParams = z.strictObject({ taskId: uuid() });

const person = flowPerson.pick({ id: true, firstName: true, lastName: true });

/** One approval of the payment flow, as the detail's chain shows it. */
export const approvalStep = z.object({
  taskId: z.uuid(),
  name: z.string(),
  status: z.enum(TASK_STATUSES),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Who approved it (a completed task keeps no assignees). */
  completedBy: person.nullable(),
  assignees: z.array(person),
  /** The rejection that keeps this approval blocked, if any: who, when, why. */
  rejection: z.object({ by: person.nullable(), at: z.string(), reason: z.string() }).nullable(),
});
export type ApprovalStep = z.infer<typeof approvalStep>;

export const approvalDetail = z.object({
  task: z.object({
    id: z.uuid(),
    name: z.string(),
    stageName: z.string(),
    status: z.enum(TASK_STATUSES),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    daysPending: z.number().int().nullable(),
    daysToComplete: z.number().int().nullable(),
    daysLate: z.number().int(),
    assignees: z.array(person),
    /**
     * What the signed-in user may do on it now, as the workflow engine decides (approve and reject:
     * its assignee or an administrator, while it is open).
     */
    commands: taskCommandsView,
  }),
  flow: z.object({
    id: z.uuid(),
    status: z.string(),
    isSecondPayment: z.boolean(),
    progress: z.number().int(),
  }),
  client: z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string(), rut: z.string() }),
  broker: z.object({ id: z.uuid(), name: z.string(), businessName: z.string() }).nullable(),
  reservation: z.object({
    id: z.uuid(),
    reservationNumber: z.string(),
    reservationDate: z.string(),
    promiseDate: z.string().nullable(),
    deedDate: z.string().nullable(),
    projectName: z.string(),
    projectStage: z.string(),
    apartmentNumber: z.string(),
    parkingNumber: z.string().nullable(),
    storageNumber: z.string().nullable(),
    sellerName: z.string().nullable(),
    isRescinded: z.boolean(),
  }),
  commission: z.object({
    commissionAmount: z.string(),
    commissionIncludesTax: z.boolean(),
    netCommission: z.string(),
    commissionForDiscount: z.boolean(),
    paysSecondary: z.boolean(),
    commissionBase: z.string(),
    commissionPercentage: z.string(),
    numberOfPayments: z.union([z.literal(1), z.literal(2)]),
    firstPaymentAmount: z.string(),
    firstPaymentPercentage: z.string(),
    secondPaymentAmount: z.string(),
    secondPaymentPercentage: z.string(),
    /** What this flow pays. */
    paymentAmount: z.string(),
    paymentPercentage: z.string(),
    atRisk: z.boolean(),
    atRiskReason: z.string().nullable(),
    /** This payment in pesos (issue 33): frozen once paid, today's estimate while unpaid. */
    pesos: clpFigure,
  }),
  prices: z.object({
    apartmentPrice: z.string(),
    parkingPrice: z.string(),
    storagePrice: z.string(),
    totalPrice: z.string(),
    /** Fractions 0..1. */
    columnDiscount: z.string(),
    additionalDiscount: z.string(),
    otherDiscount: z.string(),
    minimumPrice: z.string(),
  }),
  paymentForm: z.object({
    reservationPayment: z.string(),
    promisePayment: z.string(),
    downPayment: z.string(),
    creditPayment: z.string(),
    subsidyPayment: z.string(),
    totalPayment: z.string(),
  }),
  summary: z.object({
    totalPayment: z.string(),
    recoveryPayment: z.string(),
    minimumPrice: z.string(),
    commissionAmount: z.string(),
    /** Recovery − minimum price − commission (may be negative). */
    difference: z.string(),
  }),
  /** Every approval of this payment flow, in flow order. */
  chain: z.array(approvalStep),
});
export type ApprovalDetail = z.infer<typeof approvalDetail>;
export const approvalDetailResponse = z.object({ approval: approvalDetail });

// --- Commands --------------------------------------------------------------------------------------

export const APPROVAL_OUTCOMES = ['approved', 'alreadyCompleted'] as const;
export type ApprovalOutcome = (typeof APPROVAL_OUTCOMES)[number];

/** POST /api/approvals/:taskId/approve. 'alreadyCompleted': nothing changed (someone approved it first). */
export const approveResponse = z.object({
  approval: z.object({
    taskId: z.uuid(),
    flowId: z.uuid(),
    outcome: z.enum(APPROVAL_OUTCOMES),
    /** The tasks the approval opened on its flow. */
    openedTasks: z.array(z.string()),
  }),
});
export type ApproveResult = z.infer<typeof approveResponse>['approval'];

export const rejectBody = z.strictObject({
  reason: requiredNote(APPROVAL_MESSAGES.reason, 1000),
});
export type RejectBody = z.input<typeof rejectBody>;
export const rejectResponse = z.object({
  approval: z.object({
    taskId: z.uuid(),
    flowId: z.uuid(),
    status: z.enum(TASK_STATUSES),
  }),
});

/** 'Aprobar Seleccionados (n)': one transaction per task. */
export const bulkApproveBody = z.strictObject({
  taskIds: z
    .array(uuid(), { error: APPROVAL_MESSAGES.noSelection })
    .min(1, { error: APPROVAL_MESSAGES.noSelection })
    .max(100, { error: APPROVAL_MESSAGES.tooMany }),
});
export const bulkApproveResponse = z.object({
  approved: z.number().int(),
  alreadyCompleted: z.number().int(),
  results: z.array(
    z.discriminatedUnion('outcome', [
      z.object({
        taskId: z.uuid(),
        outcome: z.enum(APPROVAL_OUTCOMES),
        openedTasks: z.array(z.string()),
      }),
      z.object({
        taskId: z.uuid(),
        outcome: z.literal('failed'),
        code: z.string(),
        /** Why, in Spanish (the message of the refusal). */
        message: z.string(),
      }),
    ]),
  ),
});
export type BulkApproveResult = z.infer<typeof bulkApproveResponse>;
