import { Box, Button, Center, Collapse, Drawer, List, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure, useId } from '@mantine/hooks';
import { IconChevronRight, IconHistory } from '@tabler/icons-react';
import type { HistoryKind } from '../../../shared/audit/fields';
import { formatDateTime, formatInteger } from '../../../shared/format';
import type { AuditAction, AuditEntry } from '../../../shared/schemas/audit';
import { ErrorAlert } from '../../components/error-alert';
import { useNarrow } from '../../lib/layout';
import { useHistory } from './api';
import { changeLine, isWholeRecord } from './change-lines';

/** Who made a change as the screens name it: the user, or 'sistema' (migrations, scripts). */
export const SYSTEM_ACTOR = 'sistema';

/** '1 cambio', '134 cambios', 'Más de 1.000 cambios'. */
export function changeCountText(total: number, capped: boolean): string {
  if (capped) return `Más de ${formatInteger(total)} cambios`;
  return total === 1 ? '1 cambio' : `${formatInteger(total)} cambios`;
}

/**
 * Whether an entry lists its fields under 'Ver detalle': a record created or deleted, unless its
 * sentence already says all of it (an assignment, a mention, a new comment with its text).
 */
export function hasDetailOf(entry: Pick<AuditEntry, 'action' | 'table' | 'changes'>): boolean {
  return (
    isWholeRecord(entry.action) &&
    entry.changes.length > 0 &&
    !SAID_IN_THE_SENTENCE[entry.table]?.includes(entry.action)
  );
}

/** The rows whose sentence names everything they hold ('asignó a Camila Fuentes a la tarea …'). */
const SAID_IN_THE_SENTENCE: Partial<Record<string, readonly AuditAction[]>> = {
  flow_task_assignees: ['insert', 'delete'],
  flow_task_comment_mentions: ['insert', 'delete'],
  flow_task_comments: ['insert'],
  flow_task_rejections: ['insert'],
  workflow_task_default_assignees: ['insert', 'delete'],
};

/**
 * One change of a 'Historial': "**Camila Fuentes** cambió Monto comisión de UF 120,00 a UF 135,50
 * en la comisión del broker · 12/03/2027 10:42" (Santiago time). A record created or deleted lists
 * its fields under 'Ver detalle'; an update's sentence already names every field it changed.
 */
export function HistoryEntry({ entry }: { entry: AuditEntry }) {
  const [opened, { toggle }] = useDisclosure(false);
  const detailId = useId();
  const hasDetail = hasDetailOf(entry);
  return (
    <Box
      component="li"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-testid="history-entry"
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Text span inherit fw={700}>
          {entry.actor?.name ?? SYSTEM_ACTOR}
        </Text>{' '}
        {entry.summary}
        {/* The time never splits, nor leaves its '·' at the end of a line. */}
        <Text span inherit c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {' · '}
          <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
        </Text>
      </Text>
      {hasDetail ? (
        <>
          <Button
            variant="subtle"
            size="compact-sm"
            mt={4}
            ml={-6}
            onClick={toggle}
            aria-expanded={opened}
            aria-controls={detailId}
            leftSection={
              <IconChevronRight
                size={14}
                aria-hidden="true"
                style={{ transform: opened ? 'rotate(90deg)' : undefined, transition: 'transform 150ms' }}
              />
            }
          >
            {opened ? 'Ocultar detalle' : 'Ver detalle'}
          </Button>
          <Collapse expanded={opened} id={detailId} keepMounted={false}>
            <List size="sm" spacing={2} mt={4} pl="md" style={{ overflowWrap: 'anywhere' }}>
              {entry.changes.map((change) => (
                <List.Item key={change.field}>{changeLine(entry.action, change)}</List.Item>
              ))}
            </List>
          </Collapse>
        </>
      ) : null}
    </Box>
  );
}

/** The entries, page after page; mounted while the drawer is open, so each opening reads afresh. */
function HistoryEntries({ kind, id }: { kind: HistoryKind; id: string }) {
  const history = useHistory(kind, id);
  if (history.data === undefined) {
    return history.isError ? (
      <ErrorAlert error={history.error} title="No se pudo cargar el historial" />
    ) : (
      <Center py="xl">
        <Loader role="status" aria-label="Cargando historial" />
      </Center>
    );
  }
  const first = history.data.pages[0];
  // A change made while paging moves every later row down one place: each entry is shown once.
  const entries = [
    ...new Map(history.data.pages.flatMap((page) => page.rows).map((entry) => [entry.id, entry])).values(),
  ];
  if (entries.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        Sin cambios registrados
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {first ? (
        <Text size="sm" c="dimmed" data-testid="history-count">
          {changeCountText(first.total, first.totalIsCapped)}, del más reciente al más antiguo
        </Text>
      ) : null}
      <Box component="ol" aria-label="Cambios" m={0} p={0} style={{ listStyle: 'none' }}>
        {entries.map((entry) => (
          <HistoryEntry key={entry.id} entry={entry} />
        ))}
      </Box>
      {history.isFetchNextPageError ? <ErrorAlert error={history.error} /> : null}
      {history.hasNextPage ? (
        <Button
          variant="default"
          loading={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          Cargar más
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * A record's 'Historial' (decision 0024) in a drawer from the right, the whole width on a phone: its
 * changes and its parts' (a reservation's commission and promotions; a flow's tasks, assignments and
 * comments), newest first.
 */
export function HistoryDrawer({
  kind,
  id,
  opened,
  onClose,
}: {
  kind: HistoryKind;
  id: string;
  opened: boolean;
  onClose: () => void;
}) {
  const narrow = useNarrow();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 480}
      title="Historial"
      closeButtonProps={{ 'aria-label': 'Cerrar historial' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <HistoryEntries kind={kind} id={id} />
    </Drawer>
  );
}

/** 'Historial' in a screen's header: opens the record's history. */
export function HistoryButton({ kind, id }: { kind: HistoryKind; id: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" leftSection={<IconHistory size={16} />} onClick={open}>
        Historial
      </Button>
      <HistoryDrawer kind={kind} id={id} opened={opened} onClose={close} />
    </>
  );
}
