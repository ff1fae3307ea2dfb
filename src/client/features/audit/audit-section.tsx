import { Anchor, Box, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { AUDIT_RECORD_KIND_KEYS, AUDIT_RECORD_KINDS } from '../../../shared/audit/fields';
import { formatDateTime, formatInteger } from '../../../shared/format';
import {
  AUDIT_TEXT_SEARCH_WINDOW,
  type AuditEntry,
  type AuditFilters,
  type AuditUser,
  SYSTEM_ACTOR_FILTER,
} from '../../../shared/schemas/audit';
import { paths } from '../../app/paths';
import { DateRangeFilter } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButtons } from '../../components/export-buttons';
import { FilterBar, filterWidth } from '../../components/filter-bar';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { type ListParams, oneOf, useListParams } from '../../lib/list-params';
import { type AuditListQuery, auditExportHref, useAuditLog, useAuditUsers } from './api';
import { changeLine } from './change-lines';
import { SYSTEM_ACTOR } from './history-drawer';

/** The filters as the address keeps them (`?usuario=…&registro=reservations&desde=2027-03-01&q=135.50`). */
export const AUDIT_FILTERS = ['usuario', 'registro', 'desde', 'hasta'] as const;
type Filter = (typeof AUDIT_FILTERS)[number];

/** The selects' first choice: no filter. */
const ALL = 'todos';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many changes a row shows before 'Ver N más'. */
const CHANGES_SHOWN = 4;

/** Width of a filter: the whole row on a phone (the filters stack), fixed beside the others on wider screens. */

/** The filters of the address the API understands (an edited address's nonsense left out). */
export function auditFiltersOf(list: Pick<ListParams<never, Filter>, 'filters' | 'search'>): AuditFilters {
  const { usuario, registro, desde, hasta } = list.filters;
  const kind = oneOf(AUDIT_RECORD_KIND_KEYS, registro);
  const search = list.search.trim();
  return {
    ...(usuario === SYSTEM_ACTOR_FILTER || (usuario && USER_ID.test(usuario)) ? { user: usuario } : {}),
    ...(kind ? { kind } : {}),
    ...(desde && ISO_DATE.test(desde) ? { from: desde } : {}),
    ...(hasta && ISO_DATE.test(hasta) ? { to: hasta } : {}),
    ...(search ? { search } : {}),
  };
}

/** 'Camila Fuentes — Jefa de Ventas', with '(desactivado)' for an account no longer in use. */
export function userChoiceLabel(user: AuditUser): string {
  const position = user.position.trim() ? ` — ${user.position.trim()}` : '';
  return `${user.name}${position}${user.isActive ? '' : ' (desactivado)'}`;
}

/**
 * The screen of the record a change belongs to, when it has one and still exists: a flow's is the
 * sale flow's or the payment flow's, by its kind.
 */
export function recordPath(record: AuditEntry['record']): string | null {
  if (!record.id || !record.exists) return null;
  switch (record.kind) {
    case 'clients':
      return paths.editClient(record.id);
    case 'brokers':
      return paths.editBroker(record.id);
    case 'reservations':
      return paths.editReservation(record.id);
    case 'flows':
      return record.flowKind === 'sale' ? paths.reservationFlow(record.id) : paths.paymentFlow(record.id);
    case 'projects':
      return paths.editSettingsRecord('proyectos', record.id);
    case 'real_estate_agencies':
      return paths.editSettingsRecord('inmobiliarias', record.id);
    case 'profiles':
    case 'sessions':
      return paths.editSettingsRecord('usuarios', record.id);
    default:
      return null;
  }
}

/** The changed fields, one per line ('Campo: antes → después'); a long list folds after four. */
function ChangesCell({ entry }: { entry: AuditEntry }) {
  const [expanded, { toggle }] = useDisclosure(false);
  if (entry.changes.length === 0) return <Text size="sm">—</Text>;
  // A table's fields have distinct names: each names its line.
  const shown = expanded ? entry.changes : entry.changes.slice(0, CHANGES_SHOWN);
  const hidden = entry.changes.length - CHANGES_SHOWN;
  return (
    <Stack gap={2} align="stretch" ta="left">
      {shown.map((change) => (
        <Text key={change.field} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {changeLine(entry.action, change)}
        </Text>
      ))}
      {hidden > 0 ? (
        <Box>
          <Button
            variant="subtle"
            size="compact-xs"
            ml={-6}
            aria-expanded={expanded}
            onClick={(event) => {
              // On a phone the card, not the button, opens nothing: keep the click here.
              event.stopPropagation();
              toggle();
            }}
          >
            {expanded ? 'Ver menos' : `Ver ${hidden} más`}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
}

const columns: DataTableColumn<AuditEntry>[] = [
  {
    accessor: 'at',
    title: 'Fecha',
    noWrap: true,
    render: (entry) => <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>,
  },
  {
    accessor: 'actor',
    title: 'Usuario',
    render: (entry) => entry.actor?.name ?? SYSTEM_ACTOR,
  },
  {
    accessor: 'record',
    title: 'Registro',
    width: 230,
    render: (entry) => {
      const to = recordPath(entry.record);
      return to ? (
        <Anchor component={Link} to={to} size="sm">
          {entry.record.label}
        </Anchor>
      ) : (
        entry.record.label
      );
    },
  },
  {
    accessor: 'summary',
    title: 'Acción',
    // Left-aligned on a phone's card too: a sentence of several lines reads from the left.
    render: (entry) => (
      <Text size="sm" ta="left">
        {entry.summary}
      </Text>
    ),
  },
  {
    accessor: 'changes',
    title: 'Cambios',
    // About as wide as Acción: its lines may break anywhere, so without a width it would be squeezed.
    width: '28%',
    render: (entry) => <ChangesCell entry={entry} />,
  },
];

/**
 * Configuración → Auditoría (administrators, decision 0024): every change, newest first, filtered
 * by user ('sistema' included), kind of record, Santiago dates and a text inside the changed values,
 * the filters in the address; paged on the server; exported as CSV or Excel as filtered.
 */
export default function AuditSection() {
  const list = useListParams({ filters: AUDIT_FILTERS });
  const filters = auditFiltersOf(list);
  const query: AuditListQuery = { page: list.page, pageSize: list.pageSize, ...filters };
  const log = useAuditLog(query);
  const users = useAuditUsers();
  const filtered = Object.keys(filters).length > 0;
  const rows = log.data?.rows;

  const userChoices = [
    { value: ALL, label: 'Todos los usuarios' },
    { value: SYSTEM_ACTOR_FILTER, label: SYSTEM_ACTOR },
    ...(users.data ?? []).map((user) => ({ value: user.id, label: userChoiceLabel(user) })),
  ];
  const kindChoices = [
    { value: ALL, label: 'Todos los registros' },
    ...AUDIT_RECORD_KIND_KEYS.map((kind) => ({ value: kind, label: AUDIT_RECORD_KINDS[kind] })),
  ];

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" maw={760}>
        Cada cambio de clientes, brokers, reservas, flujos y configuración: quién lo hizo, cuándo (hora de
        Santiago) y qué cambió, del más reciente al más antiguo.
      </Text>
      <FilterBar
        searchMaxWidth={300}
        activeCount={list.activeFilterCount}
        onClear={list.clearFilters}
        search={
          <SearchInput
            value={list.search}
            onSearch={list.setSearch}
            searchOn="enter"
            placeholder="Buscar en los valores"
            aria-label="Buscar en los valores"
          />
        }
      >
        <Select
          label="Usuario"
          data={userChoices}
          value={list.filters.usuario ?? ALL}
          onChange={(value) => list.setFilter('usuario', value === ALL ? null : value)}
          allowDeselect={false}
          searchable
          nothingFoundMessage="Ningún usuario con ese nombre"
          w={filterWidth(260)}
          comboboxProps={{ width: 'target', position: 'bottom-start' }}
        />
        <Select
          label="Registro"
          data={kindChoices}
          value={oneOf(AUDIT_RECORD_KIND_KEYS, list.filters.registro) ?? ALL}
          onChange={(value) => list.setFilter('registro', value === ALL ? null : value)}
          allowDeselect={false}
          w={filterWidth(210)}
        />
        <DateRangeFilter list={list} />
      </FilterBar>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text size="xs" c="dimmed" maw={720} style={{ flex: '1 1 320px' }}>
          La búsqueda (con Enter) mira dentro de los valores cambiados —nombres, RUT, montos (135,50) y fechas
          (12/03/2027)— de los {formatInteger(AUDIT_TEXT_SEARCH_WINDOW)} cambios más recientes que dejan los
          demás filtros; para buscar más atrás, acote por usuario, registro o fechas.
        </Text>
        <ExportButtons hrefOf={(format) => auditExportHref(filters, format)} disabled={!rows?.length} />
      </Group>
      <ErrorAlert error={log.error} />
      <ServerTable<AuditEntry>
        {...list.table}
        aria-label="Auditoría"
        records={rows}
        total={log.data?.total}
        totalIsCapped={log.data?.totalIsCapped}
        fetching={log.isFetching}
        error={log.error}
        columns={columns}
        noRecordsText={filtered ? 'Ningún cambio cumple los filtros' : 'Sin cambios registrados'}
      />
    </Stack>
  );
}
