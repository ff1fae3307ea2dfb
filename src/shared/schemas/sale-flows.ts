import { z } from 'zod';
import { FLOW_STATUSES, TASK_STATUSES } from '../domain/workflow/statuses';
import { closed, optionalEmail, optionalText, pageOf, searchText, uuid } from './common';
import { flowCommandsView, flowPerson, taskCommandsView, taskRejectionView } from './workflows';

/**
 * The sale flows' screens (spec part 2 §2 'Flujo de Reservas' and its detail): the list, the detail
 * with its stages and tasks, the reservation fields the detail edits, and a task's comments. The
 * task commands themselves (status, assignees, dates, comments) are the workflows' shared ones
 * (`schemas/workflows.ts`).
 */

// --- List --------------------------------------------------------------------------------------

/** The orders the list offers; each is served by an index (newest reservation first by default). */
export const SALE_FLOW_SORTS = ['reservationDate', 'reservationNumber', 'clientName', 'projectName'] as const;
export type SaleFlowSort = (typeof SALE_FLOW_SORTS)[number];

export const saleFlowListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  /** Every word must appear in the client's name (accents and case ignored). */
  search: searchText(100).optional(),
  sort: z.enum(SALE_FLOW_SORTS).default('reservationDate'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type SaleFlowListQuery = z.input<typeof saleFlowListQuery>;

export const saleFlowListRow = z.object({
  /** The flow's id (what /flujo-reservas/{id} opens). */
  id: z.uuid(),
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  reservationDate: z.string(),
  clientId: z.uuid(),
  clientName: z.string(),
  projectId: z.uuid(),
  projectName: z.string(),
  projectStage: z.string(),
  apartmentNumber: z.string(),
  currentStageId: z.uuid().nullable(),
  /** Null when no stage is current (a completed flow): shown as 'No iniciado' or the status. */
  currentStageName: z.string().nullable(),
  status: z.enum(FLOW_STATUSES),
  isRescinded: z.boolean(),
  /** Everyone assigned to a task of the flow, in the order they were first assigned. */
  assignees: z.array(flowPerson),
});
export type SaleFlowListRow = z.infer<typeof saleFlowListRow>;
export const saleFlowListResponse = pageOf(saleFlowListRow);
export type SaleFlowPage = z.infer<typeof saleFlowListResponse>;

// --- Detail ------------------------------------------------------------------------------------

export const saleFlowTask = z.object({
  /** The flow task row (what the task commands address). */
  id: z.uuid(),
  /** The definition's task. */
  taskId: z.uuid(),
  name: z.string(),
  status: z.enum(TASK_STATUSES),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Whole days on the Santiago calendar from the start to the completion, or to today. */
  daysManaged: z.number().int().nullable(),
  /** The task's deadline in days (sale tasks have none unless one was set). */
  daysToComplete: z.number().int().nullable(),
  daysLate: z.number().int(),
  assignees: z.array(flowPerson.extend({ isActive: z.boolean() })),
  commentCount: z.number().int(),
  /** Sent back with a status change: a stale one answers 409. */
  version: z.number().int(),
  /** What the signed-in user may do on the task (the screen renders it, decides nothing). */
  commands: taskCommandsView,
  /** The rejection that keeps an approval blocked, if any. */
  rejection: taskRejectionView.nullable(),
  /** The documents completing it requires and the reservation lacks (names; none once completed). */
  requires: z.array(z.string()),
});
export type SaleFlowTask = z.infer<typeof saleFlowTask>;

export const saleFlowStage = z.object({
  id: z.uuid(),
  name: z.string(),
  order: z.number().int(),
  isComplete: z.boolean(),
  tasks: z.array(saleFlowTask),
});
export type SaleFlowStage = z.infer<typeof saleFlowStage>;

export const saleFlowDetail = z.object({
  id: z.uuid(),
  status: z.enum(FLOW_STATUSES),
  currentStageId: z.uuid().nullable(),
  currentStageName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  progress: z.number().int(),
  reservation: z.object({
    id: z.uuid(),
    reservationNumber: z.string(),
    reservationDate: z.string(),
    apartmentNumber: z.string(),
    promiseDate: z.string().nullable(),
    deedDate: z.string().nullable(),
    /** The first day of the month, or null. */
    commissionPaymentMonth: z.string().nullable(),
    commissionProjectionMonth: z.string().nullable(),
    bankName: z.string().nullable(),
    bankExecutive: z.string().nullable(),
    bankExecutiveEmail: z.string().nullable(),
    bankExecutivePhone: z.string().nullable(),
    isWithBroker: z.boolean(),
    isRescinded: z.boolean(),
    version: z.number().int(),
  }),
  /** Set when the reservation was rescinded: why, when and by whom. */
  rescission: z
    .object({
      reason: z.string().nullable(),
      rescindedAt: z.string().nullable(),
      rescindedBy: z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() }).nullable(),
    })
    .nullable(),
  client: z.object({
    id: z.uuid(),
    rut: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    isDeleted: z.boolean(),
    /** The holder opposed or blocked the processing of their data (Ley 21.719): marked on the screen. */
    restriction: z.enum(['opposition', 'blocking']).nullable(),
  }),
  project: z.object({
    id: z.uuid(),
    name: z.string(),
    stage: z.string(),
    deadline: z.string(),
    /** 'Banco Escrituración' is shown and editable once the project's deadline has passed. */
    isDeadlinePassed: z.boolean(),
  }),
  broker: z.object({ id: z.uuid(), name: z.string(), businessName: z.string() }).nullable(),
  commissionId: z.uuid().nullable(),
  /** The commission's first payment flow, once it exists. */
  paymentFlowId: z.uuid().nullable(),
  stages: z.array(saleFlowStage),
  commands: flowCommandsView,
});
export type SaleFlowDetail = z.infer<typeof saleFlowDetail>;
export const saleFlowResponse = z.object({ flow: saleFlowDetail });

// --- The reservation fields the detail edits ---------------------------------------------------

const MONTH_MESSAGE = 'Ingrese un mes válido (por ejemplo «marzo de 2027» o 2027-03)';

/**
 * A month as 'YYYY-MM' or any day of it ('YYYY-MM-DD'), stored as its first day; empty or null
 * clears it (spec part 2 §5).
 */
const month = () =>
  closed(z.string({ error: MONTH_MESSAGE }), 'mes')
    .trim()
    .nullish()
    .transform((value, ctx) => {
      if (!value) return null;
      const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(value);
      const year = Number(match?.[1]);
      const monthNumber = Number(match?.[2]);
      const day = match?.[3] === undefined ? 1 : Number(match[3]);
      const valid =
        match !== null &&
        year >= 1900 &&
        year <= 2100 &&
        monthNumber >= 1 &&
        monthNumber <= 12 &&
        day >= 1 &&
        day <= new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
      if (!valid) {
        ctx.addIssue({ code: 'custom', message: MONTH_MESSAGE });
        return z.NEVER;
      }
      return `${match![1]}-${match![2]}-01`;
    });

const DATE_MESSAGE = 'Ingrese una fecha válida';
const day = () =>
  closed(z.string({ error: DATE_MESSAGE }), 'fecha')
    .nullish()
    .transform((value) => (value ? value : null))
    .refine(
      (value) => {
        if (value === null) return true;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
        const year = Number(value.slice(0, 4));
        const date = new Date(`${value}T00:00:00Z`);
        return (
          year >= 1900 &&
          year <= 2100 &&
          !Number.isNaN(date.getTime()) &&
          date.toISOString().slice(0, 10) === value
        );
      },
      { error: DATE_MESSAGE },
    );

/** The 'Banco Escrituración' fields: only once the project's deadline has passed. */
export const BANK_FIELDS = ['bankName', 'bankExecutive', 'bankExecutiveEmail', 'bankExecutivePhone'] as const;

/**
 * PATCH /api/sale-flows/:flowId/reservation: any of the fields (a missing one is left as it is, null
 * clears it), with the reservation's version as read.
 */
export const saleFlowReservationBody = z
  .strictObject({
    version: z.number().int().min(1),
    promiseDate: day().optional(),
    deedDate: day().optional(),
    commissionPaymentMonth: month().optional(),
    commissionProjectionMonth: month().optional(),
    bankName: optionalText(120).optional(),
    bankExecutive: optionalText(120).optional(),
    bankExecutiveEmail: optionalEmail('Ingrese un correo electrónico válido').optional(),
    bankExecutivePhone: optionalText(40).optional(),
  })
  .refine((body) => Object.keys(body).some((key) => key !== 'version'), {
    error: 'Indique el dato a modificar',
  });
export type SaleFlowReservationBody = z.input<typeof saleFlowReservationBody>;
export type SaleFlowReservationChanges = Omit<z.output<typeof saleFlowReservationBody>, 'version'>;

export const saleFlowParams = z.strictObject({ flowId: uuid() });
