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
import { useState } from 'react';
import {
  type TaskStatus,
  taskStatusBadges,
  taskStatusOptions,
} from '../../../shared/domain/workflow/statuses';
import { formatDateTime } from '../../../shared/format';
import type { SaleFlowDetail, SaleFlowStage, SaleFlowTask } from '../../../shared/schemas/sale-flows';
import type { UserOption } from '../../../shared/schemas/users';
import { AvatarStack } from '../../components/user-avatars';
import { errorMessage } from '../../lib/api';
import {
  useAddComment,
  useDeleteComment,
  useSetTaskAssignees,
  useSetTaskDates,
  useSetTaskStatus,
  useTaskComments,
} from './api';
import { AssignDialog } from './assign-dialog';
import { CommentsDialog } from './comments-dialog';
import { TaskDatesDialog } from './task-dates-dialog';

type Dialog = 'assign' | 'comments' | 'dates' | null;

function Days({ task }: { task: SaleFlowTask }) {
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
          {task.daysToComplete === null ? '—' : `${task.daysToComplete} días`}
        </Text>
      </Text>
      <Text size="xs" c={task.daysLate > 0 ? 'red.7' : 'dimmed'} fw={task.daysLate > 0 ? 700 : undefined}>
        Atraso:{' '}
        <Text span size="xs" c={task.daysLate > 0 ? 'red.7' : 'dark'} fw={task.daysLate > 0 ? 700 : 500}>
          {task.daysLate}
        </Text>
      </Text>
    </Group>
  );
}

/**
 * One task: its status select, assignees with the assign popup, comments, dates and days. Changes of
 * a completed task are for administrators (the controls say so); a refusal shows here, and when it
 * means the screen was out of date the flow is read again.
 */
function TaskRow({
  flow,
  task,
  users,
  isAdmin,
}: {
  flow: SaleFlowDetail;
  task: SaleFlowTask;
  users: readonly UserOption[];
  isAdmin: boolean;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const status = useSetTaskStatus(flow.id);
  const assignees = useSetTaskAssignees(flow.id);
  const dates = useSetTaskDates(flow.id);
  const addComment = useAddComment(flow.id);
  const deleteComment = useDeleteComment(flow.id);
  const comments = useTaskComments(flow.id, task.id, dialog === 'comments');
  const closed = flow.status === 'cancelled' || flow.reservation.isRescinded;
  const adminOnly = task.status === 'completed' && !isAdmin;
  const rowError = status.error ?? (dialog === 'assign' ? null : assignees.error);

  return (
    <Paper withBorder radius="md" p="sm" role="listitem" aria-label={task.name} data-status={task.status}>
      {/* Wide screens: one line per task; narrower ones stack its parts. */}
      <Grid gap="xs" align="center">
        <Grid.Col span={{ base: 12, lg: 3 }}>
          <Text fw={600} size="sm">
            {task.name}
          </Text>
        </Grid.Col>
        <Grid.Col span={{ base: 'content', lg: 2 }}>
          <Tooltip
            label="Solo los administradores pueden modificar tareas completadas"
            disabled={!adminOnly || closed}
            withArrow
          >
            <div>
              <Select
                aria-label={`Estado de ${task.name}`}
                size="xs"
                w={150}
                data={taskStatusOptions}
                value={task.status}
                allowDeselect={false}
                disabled={closed || adminOnly || status.isPending}
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
                  assignees.reset();
                  status.mutate({ taskId: task.id, status: value as TaskStatus, version: task.version });
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
        <Grid.Col span={{ base: 12, lg: 2 }}>
          <Group gap="xs" wrap="nowrap">
            <AvatarStack people={task.assignees} size={26} empty="Sin asignar" />
            {closed ? null : (
              <Tooltip
                label={
                  adminOnly ? 'No se pueden asignar usuarios a tareas completadas' : 'Asignar responsables'
                }
                withArrow
              >
                <ActionIcon
                  variant="subtle"
                  aria-label={`Asignar responsables a ${task.name}`}
                  disabled={adminOnly}
                  onClick={() => {
                    assignees.reset();
                    setDialog('assign');
                  }}
                >
                  <IconUserPlus size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap={2}>
            <Group gap="md" wrap="wrap">
              <Text size="xs" c="dimmed">
                Inicio:{' '}
                <Text span size="xs" c="dark" data-testid="task-started">
                  {task.startedAt ? formatDateTime(task.startedAt) : '—'}
                </Text>
              </Text>
              <Text size="xs" c="dimmed">
                Término:{' '}
                <Text span size="xs" c="dark">
                  {task.completedAt ? formatDateTime(task.completedAt) : '—'}
                </Text>
              </Text>
              {isAdmin && !closed ? (
                <Tooltip label="Editar fechas" withArrow>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
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
            <Days task={task} />
          </Stack>
        </Grid.Col>
      </Grid>
      {rowError ? (
        <Alert color="red" icon={<IconAlertCircle size={16} />} p="xs" mt="xs" role="alert">
          {errorMessage(rowError)}
        </Alert>
      ) : null}

      {dialog === 'assign' ? (
        <AssignDialog
          opened
          task={task}
          users={users}
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
        <TaskDatesDialog
          opened
          task={task}
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
          taskName={task.name}
          comments={comments.data}
          loading={comments.isLoading}
          loadError={comments.error}
          users={users}
          isAdmin={isAdmin}
          error={addComment.error ?? deleteComment.error}
          sending={addComment.isPending}
          deletingId={deleteComment.isPending ? (deleteComment.variables ?? null) : null}
          onClose={() => setDialog(null)}
          onSend={(content, mentionedUserIds) =>
            addComment.mutateAsync({ taskId: task.id, content, mentionedUserIds })
          }
          onDelete={(commentId) => deleteComment.mutate(commentId)}
        />
      ) : null}
    </Paper>
  );
}

function StageTitle({ stage, isCurrent }: { stage: SaleFlowStage; isCurrent: boolean }) {
  const done = stage.tasks.filter((task) => task.status === 'completed').length;
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
      ) : isCurrent ? (
        <Badge color="blue" variant="light" size="sm">
          Etapa actual
        </Badge>
      ) : null}
    </Group>
  );
}

/** The flow's stages in order, collapsible; those not complete start expanded (spec part 2 §2). */
export function StagesSection({
  flow,
  users,
  isAdmin,
}: {
  flow: SaleFlowDetail;
  users: readonly UserOption[];
  isAdmin: boolean;
}) {
  const [open, setOpen] = useState<string[]>(() =>
    flow.stages.filter((stage) => !stage.isComplete).map((stage) => stage.id),
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
            <StageTitle stage={stage} isCurrent={stage.id === flow.currentStageId} />
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs" role="list" aria-label={`Tareas de ${stage.name}`}>
              {stage.tasks.map((task) => (
                <TaskRow key={task.id} flow={flow} task={task} users={users} isAdmin={isAdmin} />
              ))}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
