import { z } from 'zod';
import { FLOW_STATUSES, TASK_STATUSES } from '../domain/workflow/statuses';
import { requiredNote, uuid } from './common';

/**
 * The task and flow commands both flow screens send (sale flows and payment flows share them), and
 * the flow state they answer with.
 */

/** An instant an administrator gives (ISO 8601 with offset), within business years. */
const instant = (message = 'Ingrese una fecha y hora válidas') =>
  z.iso
    .datetime({ offset: true, error: message })
    .refine(
      (value) => {
        const year = new Date(value).getUTCFullYear();
        return year >= 2000 && year <= 2100;
      },
      { error: message },
    )
    .transform((value) => new Date(value));

export const flowTaskParams = z.strictObject({ flowId: uuid(), taskId: uuid() });
export const flowParams = z.strictObject({ flowId: uuid() });

export const taskStatusBody = z.strictObject({
  status: z.enum(TASK_STATUSES, { error: 'Seleccione un estado válido' }),
  /** Administrators may give the completion instant when completing. */
  completedAt: instant().optional(),
  /** The task's version as the user read it: a stale one answers 409. */
  version: z.number().int().min(1).optional(),
});
export type TaskStatusBody = z.input<typeof taskStatusBody>;

export const assignBody = z.strictObject({ userId: uuid('Seleccione un usuario') });
export const assigneeParams = z.strictObject({ flowId: uuid(), taskId: uuid(), userId: uuid() });

export const datesBody = z
  .strictObject({ startedAt: instant().nullable().optional(), completedAt: instant().nullable().optional() })
  .refine((value) => value.startedAt !== undefined || value.completedAt !== undefined, {
    error: 'Indique la fecha de inicio o la de término',
  });
export type DatesBody = z.input<typeof datesBody>;

export const commentBody = z.strictObject({
  content: requiredNote('El comentario es obligatorio', 4000),
  mentionedUserIds: z.array(uuid()).max(50).optional(),
});
export type CommentBody = z.input<typeof commentBody>;

export const flowTaskView = z.object({
  id: z.uuid(),
  taskId: z.uuid(),
  status: z.enum(TASK_STATUSES),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  completedBy: z.uuid().nullable(),
  daysToComplete: z.number().int().nullable(),
  assigneeIds: z.array(z.uuid()),
  version: z.number().int(),
});
export type FlowTaskView = z.infer<typeof flowTaskView>;

export const flowStateView = z.object({
  id: z.uuid(),
  status: z.enum(FLOW_STATUSES),
  currentStageId: z.uuid().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  progress: z.number().int().min(0).max(100),
  tasks: z.array(flowTaskView),
});
export type FlowStateView = z.infer<typeof flowStateView>;
export const flowStateResponse = z.object({ flow: flowStateView });

export const commentCreatedResponse = z.object({ id: z.uuid() });

/** A staff user as the flow screens show them (avatar, name on hover). */
export const flowPerson = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  avatarUrl: z.string().nullable(),
});
export type FlowPerson = z.infer<typeof flowPerson>;

/**
 * Whether the signed-in user may give a command now, and if not, why (the hint a screen shows beside a
 * disabled control). Decided by the workflow engine's authority (issue 26): screens render it.
 */
export const commandAllowance = z.object({ allowed: z.boolean(), reason: z.string().nullable() });
export type CommandAllowance = z.infer<typeof commandAllowance>;

/** What the signed-in user may do on one task. */
export const taskCommandsView = z.object({
  /**
   * The options the status select offers enabled, the current status first; empty when the status
   * cannot change (then `status.reason` says why).
   */
  statuses: z.array(z.enum(TASK_STATUSES)),
  status: commandAllowance,
  /** Assigning or removing responsibles. */
  assign: commandAllowance,
  /** Correcting the task's start and completion dates (administrators). */
  editDates: commandAllowance,
  comment: commandAllowance,
  /** 'Aprobar' and 'Rechazar' of an approval task (its assignee or an administrator, while open). */
  approve: commandAllowance,
  reject: commandAllowance,
  /**
   * Of the changes offered (`statuses`, 'completed' when `approve` is allowed, 'blocked' when `reject`
   * is), those the user could not take back afterwards — completing, for a non-administrator, and a
   * payment task blocked: the screens ask for a confirmation before these, and only these (issue 28
   * §5), and 'Rechazar' says it is final. Decided by the engine's authority.
   */
  irreversible: z.array(z.enum(TASK_STATUSES)),
});
export type TaskCommandsView = z.infer<typeof taskCommandsView>;

/** What the signed-in user may do on the flow as a whole. */
export const flowCommandsView = z.object({
  /** 'Proceder con Pago'. */
  start: commandAllowance,
  /** Correcting the flow's start and completion dates. */
  editDates: commandAllowance,
  deleteComments: commandAllowance,
  /** Its tasks take one responsible each (payment flows), not several: the assign popup picks one. */
  singleAssignee: z.boolean(),
});
export type FlowCommandsView = z.infer<typeof flowCommandsView>;

/** An approval's standing rejection: who, when, why (shown while the task stays blocked by it). */
export const taskRejectionView = z.object({
  /** Null when the rejecting user's account no longer exists. */
  by: flowPerson.nullable(),
  at: z.string(),
  reason: z.string(),
});
export type TaskRejectionView = z.infer<typeof taskRejectionView>;

/** A task's comment as listed: its author and the users it mentions (spec part 2 §3). */
export const flowTaskCommentView = z.object({
  id: z.uuid(),
  content: z.string(),
  createdAt: z.string(),
  /** Null when the author's account no longer exists. */
  author: flowPerson.nullable(),
  mentions: z.array(flowPerson.pick({ id: true, firstName: true, lastName: true })),
});
export type FlowTaskCommentView = z.infer<typeof flowTaskCommentView>;
export const flowTaskCommentsResponse = z.object({ comments: z.array(flowTaskCommentView) });
