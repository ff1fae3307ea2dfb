import { z } from 'zod';
import { OPEN_TASK_STATUSES } from '../domain/workflow/statuses';
import { closed, LIST_QUERY_MESSAGES, line, pageOf, uuid } from './common';
import { DATA_REQUEST_KINDS } from './data-requests';
import { flowPerson } from './workflows';

const tally = z.number().int().min(0);

/**
 * GET /api/notifications/count, for the bell badge: `count` is everything the bell counts (the field
 * every version answered); the parts say what: the signed-in user's pending tasks (workflows.md §6),
 * their unread mentions (decision 0030) and, for an administrator, the holders' requests past their
 * due date (decision 0027).
 */
export const notificationCountResponse = z.object({
  count: tally,
  tasks: tally,
  mentions: tally,
  dataRequests: tally,
});
export type NotificationCount = z.infer<typeof notificationCountResponse>;

// --- Mentions: '@Nombre Apellido' in a task's comment, in the mentioned user's inbox (0030) -------

export const MENTION_STATUSES = ['all', 'unread'] as const;
export type MentionStatus = (typeof MENTION_STATUSES)[number];
export const MENTIONS_PAGE_SIZE = 10;

const M = LIST_QUERY_MESSAGES;

/** The signed-in user's mentions, newest first: every one, or the unread only ('Sin leer'). */
export const mentionsQuery = z.strictObject({
  page: z.coerce.number({ error: M.page }).int({ error: M.page }).min(1, { error: M.page }).default(1),
  pageSize: z.coerce
    .number({ error: M.pageSize })
    .int({ error: M.pageSize })
    .min(1, { error: M.pageSize })
    .max(100, { error: M.pageSize })
    .default(MENTIONS_PAGE_SIZE),
  status: z.enum(MENTION_STATUSES, { error: 'Filtro no válido: use all o unread' }).default('all'),
});
export type MentionsQuery = z.input<typeof mentionsQuery>;

/**
 * One mention: who wrote the comment, where (the reservation, its project, the flow and the task),
 * what it says (with the users it mentions, to highlight them), when, and whether it was read.
 */
export const inboxMention = z.object({
  commentId: z.uuid(),
  flowId: z.uuid(),
  kind: z.enum(['sale', 'payment']),
  isSecondPayment: z.boolean(),
  /** The task row the comment is on. */
  taskId: z.uuid(),
  taskName: z.string(),
  stageName: z.string(),
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  apartmentNumber: z.string(),
  projectName: z.string(),
  projectStage: z.string(),
  /** Null when the author's account no longer exists. */
  author: flowPerson.nullable(),
  content: z.string(),
  mentions: z.array(z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() })),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type InboxMention = z.infer<typeof inboxMention>;

export const mentionsResponse = pageOf(inboxMention);
export type MentionsResponse = z.infer<typeof mentionsResponse>;

export const mentionParams = z.strictObject({ commentId: uuid() });

export const mentionReadResponse = z.object({
  mention: z.object({ commentId: z.uuid(), readAt: z.string() }),
});
export type MentionReadResponse = z.infer<typeof mentionReadResponse>;

/** 'Marcar todas como leídas': how many were unread. */
export const mentionsReadAllResponse = z.object({ marked: tally });
export type MentionsReadAllResponse = z.infer<typeof mentionsReadAllResponse>;

// --- The task inboxes: 'Mis Tareas Pendientes' of /notificaciones and /seguimiento ----------------

/**
 * Cards per group on the first page (every group at once: an overview of all stages, two rows of
 * three on a wide screen), then per 'Ver más' page of one group.
 */
export const INBOX_FIRST_PAGE_SIZE = 6;
export const INBOX_PAGE_SIZE = 12;
/** A group counts its cards up to this many; above it says 'más de 1.000'. */
export const INBOX_COUNT_CAP = 1_000;

const CURSOR_MESSAGE = 'La página pedida no es válida: vuelva a cargar la lista';
const STAGE_MESSAGE = 'Indique la etapa de la página pedida';

/**
 * Where a group's next page starts (opaque to the client): the last card's negated stage order,
 * assignment instant (microseconds), flow, negated task order, task row and assignee.
 */
export interface InboxCursor {
  negStageOrder: number;
  assignedAt: string;
  flowId: string;
  negTaskOrder: number;
  flowTaskId: string;
  userId: string;
}

const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeInboxCursor(cursor: InboxCursor): string {
  const text = [
    cursor.negStageOrder,
    cursor.assignedAt,
    cursor.flowId,
    cursor.negTaskOrder,
    cursor.flowTaskId,
    cursor.userId,
  ].join('|');
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function decodeInboxCursor(value: string): InboxCursor | null {
  let text: string;
  try {
    text = atob(value.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return null;
  }
  const [stageOrder, assignedAt, flowId, taskOrder, flowTaskId, userId, ...rest] = text.split('|');
  if (rest.length > 0 || !stageOrder || !assignedAt || !flowId || !taskOrder || !flowTaskId || !userId)
    return null;
  const negStageOrder = Number(stageOrder);
  const negTaskOrder = Number(taskOrder);
  if (!Number.isSafeInteger(negStageOrder) || !Number.isSafeInteger(negTaskOrder)) return null;
  if (!CURSOR_INSTANT.test(assignedAt) || Number.isNaN(Date.parse(assignedAt))) return null;
  if (!UUID.test(flowId) || !UUID.test(flowTaskId) || !UUID.test(userId)) return null;
  return { negStageOrder, assignedAt, flowId, negTaskOrder, flowTaskId, userId };
}

const cursor = closed(z.string(), 'cursor')
  .max(200, { error: CURSOR_MESSAGE })
  .transform((value, ctx) => {
    const decoded = decodeInboxCursor(value);
    if (!decoded) {
      ctx.addIssue({ code: 'custom', message: CURSOR_MESSAGE });
      return z.NEVER;
    }
    return decoded;
  });

/**
 * The first page of every group (no `stage`), or the page of one group after `after` (a 'Ver más').
 * `stage` is a stage name: groups are the stage names in the follow-up's fixed order.
 */
const inboxPageFields = {
  stage: line().trim().min(1, { error: STAGE_MESSAGE }).max(100, { error: STAGE_MESSAGE }).optional(),
  after: cursor.optional(),
};

const afterNeedsStage = (value: { stage?: string; after?: unknown }) =>
  value.after === undefined || value.stage !== undefined;

export const notificationsQuery = z
  .strictObject(inboxPageFields)
  .refine(afterNeedsStage, { error: STAGE_MESSAGE, path: ['stage'] });
export type NotificationsQuery = z.input<typeof notificationsQuery>;

/** /seguimiento: `userId` filters by assignee ('Todos los usuarios' when absent, for administrators). */
export const followUpQuery = z
  .strictObject({ ...inboxPageFields, userId: uuid('Seleccione un usuario').optional() })
  .refine(afterNeedsStage, { error: STAGE_MESSAGE, path: ['stage'] });
export type FollowUpQuery = z.input<typeof followUpQuery>;

export const inboxAssignee = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  avatarUrl: z.string().nullable(),
});

/** One card: a pending task of one assignee, with what the card shows and where it leads. */
export const inboxTask = z.object({
  /** The task row (unique with the assignee). */
  id: z.uuid(),
  flowId: z.uuid(),
  kind: z.enum(['sale', 'payment']),
  isSecondPayment: z.boolean(),
  taskName: z.string(),
  stageName: z.string(),
  status: z.enum(OPEN_TASK_STATUSES),
  reservationId: z.uuid(),
  reservationNumber: z.string(),
  apartmentNumber: z.string(),
  projectName: z.string(),
  projectStage: z.string(),
  clientName: z.string(),
  brokerName: z.string().nullable(),
  assignee: inboxAssignee.nullable(),
  assignedAt: z.string(),
  startedAt: z.string().nullable(),
  /** The flow's current stage: what a task of a later stage, not started yet, waits for. */
  flowStageName: z.string().nullable(),
  /** Whole Santiago days since the task started (null when it has not started). */
  daysSinceStart: z.number().int().nullable(),
  /** The deadline in days (payment tasks; sale tasks have none). */
  daysToComplete: z.number().int().nullable(),
  daysLate: z.number().int().min(0),
});
export type InboxTask = z.infer<typeof inboxTask>;

export const inboxGroup = z.object({
  stage: z.string(),
  total: z.number().int(),
  totalIsCapped: z.boolean(),
  rows: z.array(inboxTask),
  /** Pass as `after` (with `stage`) for the group's next page; null when this is its last. */
  nextCursor: z.string().nullable(),
});
export type InboxGroup = z.infer<typeof inboxGroup>;

/** A holder's request past its due date (Ley 21.719): on the administrators' bell and inbox. */
export const overdueDataRequest = z.object({
  id: z.uuid(),
  kind: z.enum(DATA_REQUEST_KINDS),
  holderRut: z.string(),
  clientName: z.string().nullable(),
  dueDate: z.string(),
  daysOverdue: z.number().int().min(1),
});
export type OverdueDataRequest = z.infer<typeof overdueDataRequest>;

/**
 * The groups in the fixed stage order, non-empty ones only (one group when a `stage` was asked); on
 * an administrator's own first page, the holders' requests past their due date too.
 */
export const inboxResponse = z.object({
  groups: z.array(inboxGroup),
  overdueDataRequests: z.array(overdueDataRequest),
});
export type InboxResponse = z.infer<typeof inboxResponse>;
