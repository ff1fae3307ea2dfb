import { Avatar, Badge, Group, Stack, Text } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { formatDate } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { ProjectRow } from '../../../shared/schemas/settings';
import { ErrorAlert } from '../../components/error-alert';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { useNarrow } from '../../lib/layout';
import { useListParams } from '../../lib/list-params';
import { useCurrentUser } from '../../lib/session';
import { useProjects } from './api';
import { editColumn, ListToolbar, useBackState, useOpenRecord } from './settings-list';

/** The project's logo, or a building icon when it has none. */
export function ProjectLogo({ url, name, size = 40 }: { url: string | null; name: string; size?: number }) {
  return (
    <Avatar
      src={url}
      alt={`Logo de ${name}`}
      size={size}
      radius="md"
      color="violet"
      styles={{ image: { objectFit: 'contain' } }}
      style={{ border: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}
    >
      <IconBuildingSkyscraper size={size / 2} aria-hidden />
    </Avatar>
  );
}

export function DeliveryBadge({ delivery }: { delivery: ProjectRow['delivery'] }) {
  return (
    <Badge variant="light" color={delivery === 'Inmediata' ? 'green' : 'blue'}>
      {delivery}
    </Badge>
  );
}

/** Proyectos: logo, name plus stage, agency, commune, delivery, installments; search on Enter. */
export function ProjectsSection() {
  const canManage = can(useCurrentUser(), 'projects.manage');
  const list = useListParams();
  const projects = useProjects(list.query);
  const back = useBackState();
  const narrow = useNarrow();
  const openRecord = useOpenRecord<ProjectRow>('proyectos', canManage);

  const columns: DataTableColumn<ProjectRow>[] = [
    {
      accessor: 'name',
      title: 'Proyecto',
      render: (project) => (
        <Group gap="sm" wrap="nowrap" justify={narrow ? 'flex-end' : 'flex-start'}>
          <ProjectLogo url={project.logoUrl} name={project.name} />
          <Stack gap={0} style={{ minWidth: 0 }} ta="left">
            <Text size="sm" fw={600}>
              {project.name}
            </Text>
            <Text size="xs" c="dimmed">
              {project.stage}
            </Text>
          </Stack>
        </Group>
      ),
    },
    { accessor: 'agencyName', title: 'Inmobiliaria' },
    { accessor: 'commune', title: 'Comuna' },
    {
      accessor: 'delivery',
      title: 'Entrega',
      noWrap: true,
      render: (project) => (
        <Stack gap={2} align={narrow ? 'flex-end' : 'flex-start'}>
          <DeliveryBadge delivery={project.delivery} />
          <Text size="xs" c="dimmed">
            {formatDate(project.deadline)}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'installments', title: 'Cuotas', textAlign: 'right', width: narrow ? undefined : 90 },
  ];
  if (canManage) columns.push(editColumn<ProjectRow>('proyectos', back, (project) => project.name, narrow));

  return (
    <Stack gap="md">
      <ListToolbar
        list={list}
        placeholder="Buscar por nombre o comuna (Enter)"
        searchOn="enter"
        newLabel="Nuevo Proyecto"
        tab="proyectos"
        canManage={canManage}
      />
      <ErrorAlert error={projects.error} />
      <ServerTable<ProjectRow>
        aria-label="Proyectos"
        records={projects.data?.rows}
        total={projects.data?.total}
        totalIsCapped={projects.data?.totalIsCapped}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        fetching={projects.isFetching}
        error={projects.error}
        columns={columns}
        onRowClick={openRecord}
        noRecordsText={
          list.search ? 'Ningún proyecto coincide con la búsqueda' : 'Aún no hay proyectos registrados'
        }
      />
    </Stack>
  );
}
