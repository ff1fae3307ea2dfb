import { Select, Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { FIGURE_NOTES, LIVE_TOTALS_LABEL } from '../../../shared/domain/figures';
import { SALES_REPORT_COLUMNS } from '../../../shared/reports/definitions';
import { SALES_REPORT_SORTS, type SalesReportRow } from '../../../shared/schemas/reports';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar, filterWidth } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { useReservationFormOptions } from '../reservations/api';
import { useSalesReport } from './api';
import { DateRangeFilters } from './report-filters';
import { ExportButtons, SummaryCards, tableColumns } from './report-parts';

const FILTERS = ['proyecto', 'tipoFecha', 'desde', 'hasta'] as const;

/**
 * /informes/ventas 'Informe de Ventas' (spec part 2 §2, §9): the reservations of a project and a
 * range of the chosen date (nothing is asked for until a project or both dates are chosen), with the
 * cards Precio Lista, Precio Mínimo and Total Escrituración summed over every matching reservation.
 */
export default function SalesReportPage() {
  const navigate = useNavigate();
  const list = useListParams({
    sort: { sorts: SALES_REPORT_SORTS, defaultSort: 'reservationDate', defaultDirection: 'desc' },
    filters: FILTERS,
  });
  const options = useReservationFormOptions();
  const { proyecto, tipoFecha, desde, hasta } = list.filters;
  const ready = Boolean(proyecto || (desde && hasta));
  const query = { ...list.query, projectId: proyecto, dateType: tipoFecha, fromDate: desde, toDate: hasta };
  const report = useSalesReport(query, ready);
  const rows = ready ? report.data?.rows : [];
  const totals = ready ? report.data?.totals : undefined;

  const columns = tableColumns<SalesReportRow>(SALES_REPORT_COLUMNS, {
    hidden: ['statusLabel'],
    sortable: SALES_REPORT_SORTS,
    totals: totals ? { totalPayment: totals.totalPayment } : null,
    render: {
      reservationNumber: (row) => (
        <ReservationNumberCell reservationNumber={row.reservationNumber} isRescinded={row.isRescinded} />
      ),
    },
  });

  return (
    <>
      <PageHeader
        title="Informe de Ventas"
        actions={<ExportButtons name="sales" query={query} disabled={!rows?.length} />}
      />
      <ErrorAlert error={report.error ?? options.error} />
      <Stack gap="md">
        <FilterBar activeCount={list.activeFilterCount} onClear={list.clearFilters}>
          <Select
            label="Proyecto"
            placeholder="Todos los proyectos"
            data={(options.data?.projects ?? []).map((project) => ({
              value: project.id,
              label: `${project.name} · ${project.stage}`,
            }))}
            value={proyecto ?? null}
            onChange={(value) => list.setFilter('proyecto', value)}
            searchable
            clearable
            nothingFoundMessage="Ningún proyecto con ese nombre"
            w={filterWidth(260)}
          />
          <DateRangeFilters
            dateType={tipoFecha}
            fromDate={desde}
            toDate={hasta}
            onChange={(filter, value) => list.setFilter(filter, value)}
          />
        </FilterBar>
        <SummaryCards
          cards={[
            { label: 'Precio Lista', note: FIGURE_NOTES.rescinded, value: totals?.totalPrice },
            { label: 'Precio Mínimo', note: FIGURE_NOTES.rescinded, value: totals?.minimumPrice },
            { label: 'Total Escrituración', note: FIGURE_NOTES.rescinded, value: totals?.totalPayment },
          ]}
        />
        <ServerTable<SalesReportRow>
          {...list.table}
          aria-label="Informe de Ventas"
          idAccessor="reservationId"
          records={rows}
          total={ready ? report.data?.total : 0}
          fetching={ready && report.isFetching}
          error={report.error}
          noRecordsText={
            ready
              ? 'No hay reservas para los filtros seleccionados'
              : 'Seleccione un proyecto o un rango de fechas para ver el informe'
          }
          rowStyle={rescindedRowStyle}
          onRowClick={({ record }) => {
            if (record.saleFlowId) navigate(paths.reservationFlow(record.saleFlowId));
          }}
          columns={columns}
          footerTitle={LIVE_TOTALS_LABEL}
        />
      </Stack>
    </>
  );
}
