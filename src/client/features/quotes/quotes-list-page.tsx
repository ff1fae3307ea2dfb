import { Badge, Button, SegmentedControl, Select, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDate, formatInteger, formatPersonName, formatUF } from '../../../shared/format';
import {
  QUOTE_SORTS,
  QUOTE_STATE_LABELS,
  QUOTE_STATES,
  type QuoteListQuery,
  type QuoteRow,
  type QuoteState,
} from '../../../shared/schemas/quotes';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { type ListParams, oneOf, useListParams } from '../../lib/list-params';
import { useReservationFormOptions } from '../reservations/api';
import { useQuoteList } from './api';

const FILTERS = ['proyecto', 'vendedor', 'estado'] as const;
type Filter = (typeof FILTERS)[number];

export const STATE_COLORS: Record<QuoteState, string> = {
  vigente: 'teal',
  vencida: 'gray',
  reservada: 'blue',
};

const filterWidth = (px: number) => ({ base: '100%', sm: px });

function quoteQuery(list: ListParams<(typeof QUOTE_SORTS)[number], Filter>): QuoteListQuery {
  const { proyecto, vendedor, estado } = list.filters;
  const state = oneOf(QUOTE_STATES, estado);
  return {
    ...list.query,
    ...(proyecto ? { projectId: proyecto } : {}),
    ...(vendedor ? { sellerId: vendedor } : {}),
    ...(state ? { state } : {}),
  };
}

/**
 * /cotizaciones (issue 59): searched by prospect (name, e-mail, RUT), filtered by project, seller
 * and state, newest first, paged on the server; the counts per state (from the server, expiry on the
 * Santiago calendar) on the state selector.
 */
export default function QuotesListPage() {
  const list = useListParams({
    sort: { sorts: QUOTE_SORTS, defaultSort: 'createdAt', defaultDirection: 'desc' },
    filters: FILTERS,
  });
  const quotes = useQuoteList(quoteQuery(list));
  const options = useReservationFormOptions();
  const counts = quotes.data?.counts;
  const filtered = list.search !== '' || list.activeFilterCount > 0;

  const columns: DataTableColumn<QuoteRow>[] = [
    {
      accessor: 'number',
      title: 'N°',
      render: (row) => (
        <Link to={paths.quote(row.id)} aria-label={`Cotización N° ${row.number}`}>
          {row.number}
        </Link>
      ),
    },
    { accessor: 'quoteDate', title: 'Fecha', noWrap: true, render: (row) => formatDate(row.quoteDate) },
    { accessor: 'prospectName', title: 'Prospecto' },
    { accessor: 'projectName', title: 'Proyecto' },
    { accessor: 'apartmentNumber', title: 'Depto.' },
    { accessor: 'sellerName', title: 'Cotizó', render: (row) => row.brokerName ?? row.sellerName ?? '—' },
    {
      accessor: 'finalPrice',
      title: 'Precio final',
      textAlign: 'right',
      noWrap: true,
      render: (row) => formatUF(row.finalPrice),
    },
    {
      accessor: 'validUntil',
      title: 'Vigente hasta',
      noWrap: true,
      render: (row) => formatDate(row.validUntil),
    },
    {
      accessor: 'state',
      title: 'Estado',
      noWrap: true,
      render: (row) => (
        <Badge color={STATE_COLORS[row.state]} variant="light">
          {row.state === 'reservada' && row.reservationNumber
            ? `Reservada · N° ${row.reservationNumber}`
            : QUOTE_STATE_LABELS[row.state]}
        </Badge>
      ),
    },
  ];

  const stateLabel = (state: QuoteState) =>
    `${QUOTE_STATE_LABELS[state]}${counts ? ` (${formatInteger(counts[state])})` : ''}`;

  return (
    <>
      <PageHeader
        title="Cotizaciones"
        actions={
          <Button component={Link} to={paths.newQuote} leftSection={<IconPlus size={16} />}>
            Nueva cotización
          </Button>
        }
      />
      <ErrorAlert error={quotes.error} />
      <Stack gap="md">
        <SegmentedControl
          aria-label="Estado"
          value={list.filters.estado ?? 'todas'}
          onChange={(value) => list.setFilter('estado', value === 'todas' ? null : value)}
          data={[
            { value: 'todas', label: 'Todas' },
            ...QUOTE_STATES.map((state) => ({ value: state, label: stateLabel(state) })),
          ]}
          style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
        />
        <FilterBar
          searchMaxWidth={300}
          activeCount={list.activeFilterCount}
          onClear={list.clearFilters}
          search={
            <SearchInput
              value={list.search}
              onSearch={list.setSearch}
              placeholder="Buscar prospecto, correo o RUT"
              aria-label="Buscar por prospecto, correo o RUT"
            />
          }
        >
          <Select
            label="Proyecto"
            placeholder="Todos"
            data={(options.data?.projects ?? []).map((project) => ({
              value: project.id,
              label: `${project.name} · ${project.stage}`,
            }))}
            value={list.filters.proyecto ?? null}
            onChange={(value) => list.setFilter('proyecto', value)}
            searchable
            clearable
            nothingFoundMessage="Ningún proyecto con ese nombre"
            w={filterWidth(220)}
          />
          <Select
            label="Vendedor"
            placeholder="Todos"
            data={(options.data?.sellers ?? []).map((seller) => ({
              value: seller.id,
              label: formatPersonName(seller),
            }))}
            value={list.filters.vendedor ?? null}
            onChange={(value) => list.setFilter('vendedor', value)}
            searchable
            clearable
            nothingFoundMessage="Ningún vendedor con ese nombre"
            w={filterWidth(190)}
          />
        </FilterBar>
        <ServerTable<QuoteRow>
          {...list.table}
          aria-label="Cotizaciones"
          records={quotes.data?.rows}
          total={quotes.data?.total}
          totalIsCapped={quotes.data?.totalIsCapped}
          fetching={quotes.isFetching}
          error={quotes.error}
          noRecordsText={
            filtered ? 'Ninguna cotización cumple la búsqueda y los filtros' : 'Aún no hay cotizaciones'
          }
          columns={columns}
        />
      </Stack>
    </>
  );
}
