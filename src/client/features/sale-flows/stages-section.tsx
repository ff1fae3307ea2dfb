import {
  Accordion,
  ActionIcon,
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle, IconMessageCircle, IconPencil, IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  type FlowStatus,
  type TaskStatus,
  taskStatusBadges,
  taskStatusOptions,
} from '../../../shared/domain/workflow/statuses';
import { formatDateTime, formatPersonName } from '../../../shared/format';
import type { SaleFlowTask } from '../../../shared/schemas/sale-flows';
import type { UserOption } from '../../../shared/schemas/users';
import type { FlowCommandsView, FlowPerson, TaskRejectionView } from '../../../shared/schemas/workflows';
import { TASK_COMMENTS_PARAM } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { AvatarStack, PersonAvatar } from '../../components/user-avatars';
import { errorMessage } from '../../lib/api';
import { useUserOptions } from '../users/api';
import {
  type FlowKind,
  useAddComment,
  useDeleteComment,
  useSetTaskAssignees,
  useSetTaskDates,
  useSetTaskStatus,
  useTaskComments,
} from './api';
import { AssignDialog } from './assign-dialog';
import { CommentsDialog } from './comments-dialog';
import { DatesDialog } from './task-dates-dialog';

/**
 * A task as both flow screens show it: a payment task also names its default assignee (offered as
 * 'Asignar a {nombre}') and the tasks it waits for.
 */
export type FlowTaskView = SaleFlowTask & {
  defaultAssignee?: FlowPerson | null;
  waitsFor?: readonly string[];
};

export interface FlowStageView {
  id: string;
  name: string;
  isComplete: boolean;
  tasks: readonly FlowTaskView[];
}

/**
 * What the stages need of a flow (a sale flow's detail and a payment flow's both fit). What the user
 * may do comes from the server (`commands`, decided by the workflow engine): this screen renders it.
 */
export interface FlowStagesView {
  id: string;
  /** A cancelled (or not started, or completed) flow has no stage under way. */
  status: FlowStatus;
  currentStageId: string | null;
  stages: readonly FlowStageView[];
  commands: Pick<FlowCommandsView, 'deleteComments' | 'singleAssignee'>;
}

const listFormat = new Intl.ListFormat('es', { type: 'conjunction' });

type Dialog = 'assign' | 'comments' | 'dates' | null;

function Days({ task }: { task: FlowTaskView }) {
  return (
    <Group gap="md" wrap="wrap">
      <Text size="xs" c="dimmed">
        Días gestión:{' '}
        <Text span size="xs" c="dark" fw={500}>
          {task.daysManaged ?? '—'}
        </Text>
      </Text>
      <Text size="xs" c="dimmed">
        Plazo:{' '}
        <Text span size="xs" c="dark" fw={500}>
          {task.daysToComplete === null
            ? '—'
            : `${task.daysToComplete} ${task.daysToComplete === 1 ? 'día' : 'días'}`}
        </Text>
      </Text>
      <Text size="xs" c={task.daysLate > 0 ? 'red' : 'dimmed'} fw={task.daysLate > 0 ? 700 : undefined}>
        Atraso:{' '}
        <Text span size="xs" c={task.daysLate > 0 ? 'red' : 'dark'} fw={task.daysLate > 0 ? 700 : 500}>
          {task.daysLate}
        </Text>
      </Text>
    </Group>
  );
}

/**
 * An approval's standing rejection: 'Rechazada por {nombre} el {fecha}: {motivo}', as the approval's
 * chain says it (who, when and why, recorded by the workflow engine with the blocked status).
 */
export function RejectionNote({ rejection }: { rejection: TaskRejectionView }) {
  return (
    <Text size="xs" c="red.8" data-testid="task-rejection">
      <Text span inherit fw={700}>
        Rechazada por {rejection.by ? formatPersonName(rejection.by) : 'un usuario eliminado'}
      </Text>{' '}
      el {formatDateTime(rejection.at)}: {rejection.reason}
    </Text>
  );
}

/**
 * One task: its status select, assignees with the assign popup, comments, dates and days. Which
 * controls are on, and the hint of those that are off, is what the server sent in `task.commands`
 * (the workflow engine's authority: issue 26); a refusal shows here, and when it means the screen was
 * out of date the flow is read again.
 */
function TaskRow({
  kind,
  flow,
  task,
  users,
  commentsAsked = false,
  onCommentsClosed,
}: {
  kind: FlowKind;
  flow: FlowStagesView;
  task: FlowTaskView;
  users: readonly UserOption[];
  /** The address asks for this task's comments (`?comentarios=`: a mention's link). */
  commentsAsked?: boolean;
  onCommentsClosed?: () => void;
}) {
  const [dialog, setDialog] = useState<Dialog>(commentsAsked ? 'comments' : null);
  useEffect(() => {
    if (commentsAsked) setDialog('comments');
  }, [commentsAsked]);
  const ref = { kind, id: flow.id };
  const status = useSetTaskStatus(ref);
  const assignees = useSetTaskAssignees(ref);
  const dates = useSetTaskDates(ref);
  const addComment = useAddComment(ref);
  const deleteComment = useDeleteComment(ref);
  const comments = useTaskComments(ref, task.id, dialog === 'comments');
  const { commands } = task;
  const single = flow.commands.singleAssignee;
  const statusReason = commands.statuses.length === 0 ? commands.status.reason : null;
  const assignReason = commands.assign.allowed ? null : commands.assign.reason;
  const rowError = status.error ?? (dialog === 'assign' ? null : assignees.error);
  const waitsFor =
    task.status === 'blocked' && task.waitsFor && task.waitsFor.length > 0 ? task.waitsFor : null;
  const offeredAssignee =
    task.assignees.length === 0 && task.status !== 'completed' ? task.defaultAssignee : null;
  const singleAssignee = single && task.assignees.length === 1 ? task.assignees[0] : null;
  const statusOptions = taskStatusOptions.map((option) => ({
    ...option,
    disabled: !commands.statuses.includes(option.value),
  }));
  // A status the server says this user could not take back is asked for first.
  const [confirming, setConfirming] = useState<TaskStatus | null>(null);
  const changeStatus = (next: TaskStatus) => {
    assignees.reset();
    status.mutate({ taskId: task.id, status: next, version: task.version });
  };

  return (
    <Paper withBorder radius="md" p="sm" role="listitem" aria-label={task.name} data-status={task.status}>
      {/* Wide screens: one line per task; narrower ones stack its parts. */}
      <Grid gap="xs" align="center">
        <Grid.Col span={{ base: 12, lg: 3 }}>
          <Text fw={600} size="sm">
            {task.name}
          </Text>
          {waitsFor ? (
            <Text size="xs" c="dimmed" data-testid="task-waits-for">
              Espera: {listFormat.format(waitsFor)}
            </Text>
          ) : null}
          {task.rejection ? <RejectionNote rejection={task.rejection} /> : null}
          {task.requires.length > 0 ? (
            <Text size="xs" c="orange.9" data-testid="task-requires">
              Requiere: {listFormat.format(task.requires)}
            </Text>
          ) : null}
        </Grid.Col>
        <Grid.Col span={{ base: 'content', lg: 2 }}>
          <Tooltip label={statusReason} disabled={!statusReason} withArrow multiline maw={280}>
            <div>
              <Select
                aria-label={`Estado de ${task.name}`}
                aria-description={statusReason ?? undefined}
                size="xs"
                w={150}
                data={statusOptions}
                value={task.status}
                allowDeselect={false}
                disabled={statusReason !== null || status.isPending}
                leftSection={
                  <span
                    aria-hidden
                    style={{
                      width: 8,
                      height: 8,
                      borderRadius: '50%',
                      background: `var(--mantine-color-${taskStatusBadges[task.status].color}-6)`,
                    }}
                  />
                }
                onChange={(value) => {
                  if (!value || value === task.status) return;
                  const next = value as TaskStatus;
                  if (commands.irreversible.includes(next)) setConfirming(next);
                  else changeStatus(next);
                }}
              />
            </div>
          </Tooltip>
        </Grid.Col>
        <Grid.Col span={{ base: 'content', lg: 1 }} order={{ lg: 6 }}>
          <Group justify="flex-end">
            <Tooltip label="Comentarios" withArrow>
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconMessageCircle size={16} />}
                aria-label={`Comentarios de ${task.name}: ${task.commentCount}`}
                onClick={() => {
                  addComment.reset();
                  deleteComment.reset();
                  setDialog('comments');
                }}
              >
                {task.commentCount}
              </Button>
            </Tooltip>
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 3 }}>
          <Group gap="xs" wrap="nowrap">
            {singleAssignee ? (
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }} data-testid="task-assignee">
                <PersonAvatar person={singleAssignee} size={26} />
                <Text size="sm" truncate>
                  {formatPersonName(singleAssignee)}
                </Text>
              </Group>
            ) : offeredAssignee ? null : (
              <AvatarStack people={task.assignees} size={26} empty="Sin asignar" />
            )}
            {offeredAssignee ? (
              <Tooltip label={assignReason} disabled={!assignReason} withArrow multiline maw={280}>
                <Button
                  size="compact-xs"
                  variant="light"
                  leftSection={<PersonAvatar person={offeredAssignee} size={18} />}
                  disabled={assignReason !== null}
                  loading={assignees.isPending}
                  onClick={() =>
                    assignees.mutate({ taskId: task.id, current: [], userIds: [offeredAssignee.id] })
                  }
                >
                  Asignar a {offeredAssignee.firstName}
                </Button>
              </Tooltip>
            ) : null}
            <Tooltip
              label={assignReason ?? (single ? 'Asignar responsable' : 'Asignar responsables')}
              withArrow
              multiline
              maw={280}
            >
              <ActionIcon
                variant="subtle"
                aria-label={`${single ? 'Asignar responsable' : 'Asignar responsables'} a ${task.name}`}
                disabled={assignReason !== null}
                onClick={() => {
                  assignees.reset();
                  setDialog('assign');
                }}
              >
                <IconUserPlus size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 3 }}>
          {/* The pencil beside the dates, on the start's line: it never wraps under them alone. */}
          <Group gap={4} wrap="nowrap" align="flex-start">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="md" wrap="wrap" style={{ rowGap: 2 }}>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  Inicio:{' '}
                  <Text span size="xs" c="dark" data-testid="task-started">
                    {task.startedAt ? formatDateTime(task.startedAt) : '—'}
                  </Text>
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  Término:{' '}
                  <Text span size="xs" c="dark" data-testid="task-completed">
                    {task.completedAt ? formatDateTime(task.completedAt) : '—'}
                  </Text>
                </Text>
              </Group>
              <Days task={task} />
            </Stack>
            {commands.editDates.allowed ? (
              <Tooltip label="Editar fechas" withArrow>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  mt={-3}
                  aria-label={`Editar fechas de ${task.name}`}
                  onClick={() => {
                    dates.reset();
                    setDialog('dates');
                  }}
                >
                  <IconPencil size={14} />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        </Grid.Col>
      </Grid>
      {rowError ? (
        <Alert color="red" icon={<IconAlertCircle size={16} />} p="xs" mt="xs" role="alert">
          {errorMessage(rowError)}
        </Alert>
      ) : null}

      <IrreversibleStatusDialog
        taskName={task.name}
        from={task.status}
        to={confirming}
        onConfirm={(next) => {
          setConfirming(null);
          changeStatus(next);
        }}
        onCancel={() => setConfirming(null)}
      />
      {dialog === 'assign' ? (
        <AssignDialog
          opened
          task={task}
          users={users}
          single={single}
          saving={assignees.isPending}
          error={assignees.error}
          onClose={() => setDialog(null)}
          onSave={(userIds) =>
            assignees.mutate(
              { taskId: task.id, current: task.assignees.map((a) => a.id), userIds },
              { onSuccess: () => setDialog(null) },
            )
          }
        />
      ) : null}
      {dialog === 'dates' ? (
        <DatesDialog
          opened
          title="Editar fechas de la tarea"
          subject={
            <>
              Tarea: <strong>{task.name}</strong>
            </>
          }
          startedAt={task.startedAt}
          completedAt={task.completedAt}
          isCompleted={task.status === 'completed'}
          saving={dates.isPending}
          error={dates.error}
          onClose={() => setDialog(null)}
          onSave={(values) =>
            dates.mutate({ taskId: task.id, ...values }, { onSuccess: () => setDialog(null) })
          }
        />
      ) : null}
      {dialog === 'comments' ? (
        <CommentsDialog
          opened
          taskId={task.id}
          taskName={task.name}
          comments={comments.data}
          loading={comments.isLoading}
          loadError={comments.error}
          users={users}
          canDelete={flow.commands.deleteComments.allowed}
          composeDisabledReason={commands.comment.reason}
          error={addComment.error ?? deleteComment.error}
          sending={addComment.isPending}
          deletingId={deleteComment.isPending ? (deleteComment.variables ?? null) : null}
          onClose={() => {
            setDialog(null);
            if (commentsAsked) onCommentsClosed?.();
          }}
          onSend={(content, mentionedUserIds) =>
            addComment.mutateAsync({ taskId: task.id, content, mentionedUserIds })
          }
          onDelete={(commentId) => deleteComment.mutate(commentId)}
        />
      ) : null}
    </Paper>
  );
}

/**
 * Asks before a status change the user could not take back (the server's `commands.irreversible`,
 * issue 28 §5): what will happen, and that they will not be able to undo it. 'Cancelar' changes
 * nothing.
 */
export function IrreversibleStatusDialog({
  taskName,
  from,
  to,
  onConfirm,
  onCancel,
}: {
  taskName: string;
  from: TaskStatus;
  /** The status chosen, or null while nothing is asked. */
  to: TaskStatus | null;
  onConfirm: (status: TaskStatus) => void;
  onCancel: () => void;
}) {
  const label = to ? taskStatusBadges[to].label : '';
  const fromLabel = taskStatusBadges[from].label;
  return (
    <ConfirmDialog
      opened={to !== null}
      title={`¿Cambiar a «${label}»?`}
      confirmColor="blue"
      onConfirm={() => {
        if (to) onConfirm(to);
      }}
      onClose={onCancel}
    >
      La tarea <strong>{taskName}</strong> pasará de {`«${fromLabel}» a «${label}»`}.{' '}
      <strong>Después usted no podrá deshacer este cambio</strong>
      {` ni volver a dejarla en «${fromLabel}».`}
    </ConfirmDialog>
  );
}

/**
 * A stage's name, its count of completed tasks and where the flow stands: 'Completada', 'Etapa
 * actual' (a flow in progress only), or, for a cancelled flow, 'Flujo cancelado' on the stage it
 * stopped at — not 'Etapa actual' beside a status that says nothing is under way.
 */
function StageTitle({ stage, flow }: { stage: FlowStageView; flow: FlowStagesView }) {
  const done = stage.tasks.filter((task) => task.status === 'completed').length;
  const here = stage.id === flow.currentStageId;
  return (
    <Group gap="sm" wrap="wrap">
      <Text fw={700}>{stage.name}</Text>
      <Text size="sm" c="dimmed">
        {done}/{stage.tasks.length}
      </Text>
      {stage.isComplete ? (
        <Badge color="green" variant="light" size="sm">
          Completada
        </Badge>
      ) : here && flow.status === 'in_progress' ? (
        <Badge color="blue" variant="light" size="sm">
          Etapa actual
        </Badge>
      ) : here && flow.status === 'cancelled' ? (
        <Badge color="gray" variant="light" size="sm">
          Flujo cancelado
        </Badge>
      ) : null}
    </Group>
  );
}

/**
 * A flow's stages in order, collapsible; those not complete start expanded (spec part 2 §2). The
 * same for a sale flow and a payment flow: `kind` says where the commands go. An address with
 * `?comentarios={task}` (a mention's link) opens that task's comments, its stage expanded; closing
 * them leaves the parameter behind.
 */
export function StagesSection({ kind, flow }: { kind: FlowKind; flow: FlowStagesView }) {
  // The active users the assign popup and the mentions offer.
  const users = useUserOptions().data ?? [];
  const [searchParams, setSearchParams] = useSearchParams();
  const commentsOf = searchParams.get(TASK_COMMENTS_PARAM);
  const askedStage = flow.stages.find((stage) => stage.tasks.some((task) => task.id === commentsOf));
  const [open, setOpen] = useState<string[]>(() =>
    flow.stages.filter((stage) => !stage.isComplete || stage.id === askedStage?.id).map((stage) => stage.id),
  );
  const askedStageId = askedStage?.id;
  useEffect(() => {
    if (askedStageId)
      setOpen((current) => (current.includes(askedStageId) ? current : [...current, askedStageId]));
  }, [askedStageId]);
  const closeAskedComments = () =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(TASK_COMMENTS_PARAM);
        return next;
      },
      { replace: true },
    );
  return (
    <Accordion
      multiple
      value={open}
      onChange={setOpen}
      variant="separated"
      radius="md"
      chevronPosition="left"
    >
      {flow.stages.map((stage) => (
        <Accordion.Item key={stage.id} value={stage.id}>
          <Accordion.Control>
            <StageTitle stage={stage} flow={flow} />
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs" role="list" aria-label={`Tareas de ${stage.name}`}>
              {stage.tasks.map((task) => (
                <TaskRow
                  key={task.id}
                  kind={kind}
                  flow={flow}
                  task={task}
                  users={users}
                  commentsAsked={task.id === commentsOf}
                  onCommentsClosed={closeAskedComments}
                />
              ))}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
