import { Alert, Badge, Button, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { formatInteger } from '../../../shared/format';
import type { InboxGroup, InboxResponse } from '../../../shared/schemas/notifications';
import { ErrorAlert } from '../../components/error-alert';
import { useGroupPages } from './inbox-api';
import { TaskCard } from './task-card';

/** '12 tareas', or 'más de 1.000' when the group's count stopped at its cap. */
export function groupCountLabel(group: Pick<InboxGroup, 'total' | 'totalIsCapped'>): string {
  if (group.totalIsCapped) return `más de ${formatInteger(group.total)}`;
  return `${formatInteger(group.total)} ${group.total === 1 ? 'tarea' : 'tareas'}`;
}

function StageGroup({
  group,
  url,
  query,
  showAssignee,
}: {
  group: InboxGroup;
  url: string;
  query: Record<string, string>;
  showAssignee: boolean;
}) {
  const pages = useGroupPages(url, query, group);
  const headingId = `etapa-${group.stage.replaceAll(/\s+/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby={headingId} data-testid="stage-group" data-stage={group.stage}>
      <Group gap="sm" mb="sm" align="center">
        <Title order={3} size="h4" id={headingId}>
          {group.stage}
        </Title>
        <Badge variant="light" color="gray" miw="max-content">
          {groupCountLabel(group)}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
        {pages.rows.map((task) => (
          <TaskCard key={`${task.id}:${task.assignee?.id ?? ''}`} task={task} showAssignee={showAssignee} />
        ))}
      </SimpleGrid>
      <ErrorAlert error={pages.error} />
      {pages.hasMore ? (
        <Center mt="sm">
          <Button variant="default" onClick={() => void pages.loadMore()} loading={pages.loading}>
            Ver más de {group.stage}
          </Button>
        </Center>
      ) : null}
    </section>
  );
}

/**
 * The stage groups of an inbox in the fixed stage order, each with its count and its cards, paged
 * on the server ('Ver más'); the empty text when there is nothing.
 */
export function TaskInbox({
  data,
  isPending,
  error,
  url,
  query,
  showAssignee,
  emptyText,
}: {
  data: InboxResponse | undefined;
  isPending: boolean;
  error: unknown;
  url: string;
  query: Record<string, string>;
  showAssignee: boolean;
  emptyText: string;
}) {
  if (error) return <ErrorAlert error={error} />;
  if (isPending || !data) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Cargando tareas" />
      </Center>
    );
  }
  if (data.groups.length === 0) {
    return (
      <Alert color="gray" icon={<IconChecks size={18} />} variant="light">
        <Text size="sm">{emptyText}</Text>
      </Alert>
    );
  }
  return (
    <Stack gap="xl">
      {data.groups.map((group) => (
        <StageGroup key={group.stage} group={group} url={url} query={query} showAssignee={showAssignee} />
      ))}
    </Stack>
  );
}
