import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { LIVE_TOTALS_LABEL } from '../../../shared/domain/figures';
import { BROKERS_REPORT_COLUMNS } from '../../../shared/reports/definitions';
import { BROKERS_REPORT_SORTS, type BrokersReportRow } from '../../../shared/schemas/reports';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { FilterBar } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { useBrokersReport } from './api';
import { BrokerSelect, DateRangeFilters } from './report-filters';
import { ExportButtons, tableColumns } from './report-parts';

const FILTERS = ['broker', 'tipoFecha', 'desde', 'hasta'] as const;

/**
 * /informes/brokers 'Informe de Brokers' (spec part 2 §2): the reservations sold with a broker, of one
 * broker ('Todos los brokers') and a range of the chosen date; nothing is asked for until a broker or
 * both dates are chosen. Newest reservation first, sortable, with the commissions' total.
 */
export default function BrokersReportPage() {
  const navigate = useNavigate();
  const list = useListParams({
    sort: { sorts: BROKERS_REPORT_SORTS, defaultSort: 'reservationDate', defaultDirection: 'desc' },
    filters: FILTERS,
  });
  const { broker, tipoFecha, desde, hasta } = list.filters;
  const ready = Boolean(broker || (desde && hasta));
  const query = { ...list.query, brokerId: broker, dateType: tipoFecha, fromDate: desde, toDate: hasta };
  const report = useBrokersReport(query, ready);
  const rows = ready ? report.data?.rows : [];

  const columns = tableColumns<BrokersReportRow>(BROKERS_REPORT_COLUMNS, {
    hidden: ['statusLabel'],
    sortable: BROKERS_REPORT_SORTS,
    totals: ready ? report.data?.totals : null,
    render: {
      reservationNumber: (row) => (
        <ReservationNumberCell reservationNumber={row.reservationNumber} isRescinded={row.isRescinded} />
      ),
    },
  });

  return (
    <>
      <PageHeader
        title="Informe de Brokers"
        actions={<ExportButtons name="brokers" query={query} disabled={!rows?.length} />}
      />
      <ErrorAlert error={report.error} />
      <Stack gap="md">
        <FilterBar activeCount={list.activeFilterCount} onClear={list.clearFilters}>
          <BrokerSelect
            value={broker ?? null}
            onChange={(value) => list.setFilter('broker', value)}
            placeholder="Todos los brokers"
            clearable
            // Its filters leave room at 1440 px: a long razón social shows whole.
            width={420}
          />
          <DateRangeFilters
            dateType={tipoFecha}
            fromDate={desde}
            toDate={hasta}
            onChange={(filter, value) => list.setFilter(filter, value)}
          />
        </FilterBar>
        <ServerTable<BrokersReportRow>
          {...list.table}
          aria-label="Informe de Brokers"
          idAccessor="reservationId"
          records={rows}
          total={ready ? report.data?.total : 0}
          fetching={ready && report.isFetching}
          error={report.error}
          noRecordsText={
            ready
              ? 'No hay reservas con broker para los filtros seleccionados'
              : 'Seleccione un broker o un rango de fechas para ver el informe'
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
