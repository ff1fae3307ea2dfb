import { Button, Collapse, Group, Stack } from '@mantine/core';
import { useDisclosure, useId } from '@mantine/hooks';
import { IconFilter, IconFilterOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNarrow } from '../lib/layout';

/** A filter's width: the whole row on a phone, `px` beside the others from `sm` up. */
export const filterWidth = (px: number) => ({ base: '100%', sm: px });

export interface FilterBarProps {
  /** The list's search box (`SearchInput`), first in the bar. */
  search?: ReactNode;
  /** How wide the search box may grow beside the filters on a wide screen (px). */
  searchMaxWidth?: number;
  /** The filters (selects, date fields), each with its visible label. */
  children?: ReactNode;
  /** How many filters are set (`useListParams().activeFilterCount`). */
  activeCount: number;
  /** Clears every filter (`useListParams().clearFilters`). */
  onClear: () => void;
}

/**
 * Above a list: its search box and its filters in one wrapping row, with 'Limpiar filtros' while any
 * is set. On a phone the search box takes the whole width and the filters fold under a 'Filtros'
 * button below it (with how many are set), so the list starts near the top of the screen.
 *
 *   <FilterBar search={<SearchInput … />} activeCount={list.activeFilterCount} onClear={list.clearFilters}>
 *     <Select label="Proyecto" … />
 *   </FilterBar>
 */
export function FilterBar({ search, searchMaxWidth = 420, children, activeCount, onClear }: FilterBarProps) {
  const narrow = useNarrow();
  const [opened, { toggle }] = useDisclosure(false);
  const panelId = useId();
  const clear =
    activeCount > 0 ? (
      <Button variant="subtle" leftSection={<IconFilterOff size={16} />} onClick={onClear}>
        Limpiar filtros
      </Button>
    ) : null;

  if (!narrow) {
    return (
      <Group gap="sm" align="flex-end" wrap="wrap">
        {search ? <div style={{ flex: '1 1 200px', maxWidth: searchMaxWidth }}>{search}</div> : null}
        {children}
        {clear}
      </Group>
    );
  }

  // The search box has the phone's whole width (beside the button its placeholder was cut to half).
  return (
    <Stack gap="xs">
      {search}
      {children ? (
        <Group gap="xs">
          <Button
            variant={activeCount > 0 ? 'light' : 'default'}
            leftSection={<IconFilter size={16} />}
            onClick={toggle}
            aria-expanded={opened}
            aria-controls={panelId}
          >
            {activeCount > 0 ? `Filtros (${activeCount})` : 'Filtros'}
          </Button>
        </Group>
      ) : null}
      {children ? (
        <Collapse expanded={opened} id={panelId}>
          <Stack gap="xs">
            {children}
            {clear}
          </Stack>
        </Collapse>
      ) : null}
    </Stack>
  );
}
