import { Group, Select, Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { LIVE_TOTALS_LABEL } from '../../../shared/domain/figures';
import { formatMonthYear } from '../../../shared/format';
import { COMMISSION_REPORT_COLUMNS, COMMISSION_REPORT_TEXTS } from '../../../shared/reports/definitions';
import {
  COMMISSION_REPORT_SORTS,
  type CommissionReportKind,
  type CommissionReportRow,
} from '../../../shared/schemas/reports';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { filterWidth } from '../../components/filter-bar';
import { PageHeader } from '../../components/page-header';
import { ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { useCommissionMonths, useCommissionReport } from './api';
import { ClpCell, ExportButtons, tableColumns } from './report-parts';

/** 'YYYY-MM-DD' (a month's first day) -> 'YYYY-MM', the report's `month`. */
const monthKey = (month: string) => month.slice(0, 7);

/**
 * 'Informe de Comisiones' (commission payment month) and 'Proyección Comisiones' (projection month),
 * spec part 2 §2: a month of the ones with data (the latest preselected), the month's reservations
 * sortable by every column with the totals at the foot; a row opens the reservation's sale flow.
 */
export function CommissionReport({ kind }: { kind: CommissionReportKind }) {
  const texts = COMMISSION_REPORT_TEXTS[kind];
  const navigate = useNavigate();
  const list = useListParams({
    sort: { sorts: COMMISSION_REPORT_SORTS, defaultSort: 'reservationNumber', defaultDirection: 'asc' },
    filters: ['mes'],
  });
  const months = useCommissionMonths(kind);
  const latest = months.data?.[0];
  const month = list.filters.mes ?? (latest ? monthKey(latest) : undefined);
  const query = { ...list.query, kind, month };
  const report = useCommissionReport(query, month !== undefined);
  const rows = report.data?.rows;

  const columns = tableColumns<CommissionReportRow>(COMMISSION_REPORT_COLUMNS, {
    // The pesos in one cell on the screen; the exports carry 'Valor UF' and 'CLP' as columns.
    hidden: ['statusLabel', 'ufValue', 'clpState'],
    sortable: COMMISSION_REPORT_SORTS,
    totals: report.data?.totals,
    render: {
      clpAmount: (row) => <ClpCell row={row} />,
      reservationNumber: (row) => (
        <ReservationNumberCell reservationNumber={row.reservationNumber} isRescinded={row.isRescinded} />
      ),
    },
  });

  return (
    <>
      <PageHeader
        title={texts.title}
        actions={<ExportButtons name="commissions" query={query} disabled={!month || !rows?.length} />}
      />
      <ErrorAlert error={months.error ?? report.error} />
      <Stack gap="md">
        <Group>
          <Select
            label="Mes"
            placeholder={months.isPending ? 'Cargando meses...' : 'Seleccione un mes'}
            data={(months.data ?? []).map((value) => ({
              value: monthKey(value),
              label: formatMonthYear(value),
            }))}
            value={month ?? null}
            onChange={(value) => list.setFilter('mes', value)}
            maxDropdownHeight="15rem"
            allowDeselect={false}
            nothingFoundMessage="No hay meses con datos"
            w={filterWidth(240)}
          />
        </Group>
        <ServerTable<CommissionReportRow>
          {...list.table}
          aria-label={texts.title}
          idAccessor="reservationId"
          records={month ? rows : []}
          total={month ? report.data?.total : 0}
          fetching={report.isFetching || months.isPending}
          error={report.error}
          noRecordsText={month ? texts.empty : texts.noMonth}
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
