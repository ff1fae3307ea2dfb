import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/page-header';
import { NOTIFICATIONS_URL, useMyTasks } from './inbox-api';
import { MentionsSection } from './mentions-section';
import { OverdueRequestsSection } from './overdue-requests-section';
import { TaskInbox } from './task-inbox';

const NO_QUERY: Record<string, string> = {};

/**
 * /notificaciones 'Mis Tareas Pendientes': the signed-in user's own pending tasks (spec part 2 §2);
 * above them, for administrators, the holders' requests past their due date (Ley 21.719), and for
 * everyone the comments that mention them (decision 0030) — what the bell counts, in that order.
 */
export default function NotificationsPage() {
  const { data, isPending, error } = useMyTasks();
  return (
    <>
      <PageHeader
        title="Mis Tareas Pendientes"
        description="Sus tareas abiertas de los flujos de venta y de pago, por etapa, y sus menciones en comentarios; lo más reciente primero."
      />
      <Stack gap="xl">
        <OverdueRequestsSection requests={data?.overdueDataRequests ?? []} />
        <MentionsSection />
        <TaskInbox
          data={data}
          isPending={isPending}
          error={error}
          url={NOTIFICATIONS_URL}
          query={NO_QUERY}
          showAssignee={false}
          emptyText="No tiene tareas pendientes"
        />
      </Stack>
    </>
  );
}
