import { ActionIcon, Box, Button, Group, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths, type SettingsRecordTab } from '../../app/paths';
import { SearchInput } from '../../components/search-input';
import type { DataTableColumn } from '../../components/server-table';
import type { ListParams } from '../../lib/list-params';

/** Where a form goes back to: its tab, with the list's search and page as they were. */
export interface BackState {
  from?: string;
}

/** The state a list hands to its forms (the list's query string), so 'Volver' finds it as it was. */
export function useBackState(): BackState {
  return { from: useLocation().search };
}

/** Search box and the new button (administrators only) above a settings list. */
export function ListToolbar({
  list,
  placeholder,
  searchOn,
  newLabel,
  tab,
  canManage,
}: {
  list: ListParams;
  placeholder: string;
  searchOn: 'pause' | 'enter';
  newLabel: string;
  tab: SettingsRecordTab;
  canManage: boolean;
}) {
  const back = useBackState();
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Box style={{ flex: '1 1 280px' }} maw={520}>
        <SearchInput
          value={list.search}
          onSearch={list.setSearch}
          placeholder={placeholder}
          searchOn={searchOn}
        />
      </Box>
      {canManage ? (
        <Button
          component={Link}
          to={paths.newSettingsRecord(tab)}
          state={back}
          leftSection={<IconPlus size={18} />}
        >
          {newLabel}
        </Button>
      ) : null}
    </Group>
  );
}

/** The edit icon column (administrators only). */
export function editColumn<T extends { id: string }>(
  tab: SettingsRecordTab,
  back: BackState,
  nameOf: (record: T) => string,
  narrow: boolean,
): DataTableColumn<T> {
  return {
    accessor: 'actions',
    title: narrow ? <VisuallyHidden>Acciones</VisuallyHidden> : 'Acciones',
    textAlign: 'right',
    noWrap: true,
    width: narrow ? undefined : 96,
    render: (record) => (
      <ActionIcon
        component={Link}
        to={paths.editSettingsRecord(tab, record.id)}
        state={back}
        variant="subtle"
        aria-label={`Editar ${nameOf(record)}`}
        title="Editar"
        // The row's own click opens the same form.
        onClick={(event) => event.stopPropagation()}
      >
        <IconPencil size={18} />
      </ActionIcon>
    ),
  };
}

/** A row click that opens the record's form (administrators only). */
export function useOpenRecord<T extends { id: string }>(tab: SettingsRecordTab, canManage: boolean) {
  const navigate = useNavigate();
  const back = useBackState();
  return canManage
    ? ({ record }: { record: T }) => navigate(paths.editSettingsRecord(tab, record.id), { state: back })
    : undefined;
}
