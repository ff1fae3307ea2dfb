import { Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { BROKER_PAYMENTS_REPORT_COLUMNS } from '../../../shared/reports/definitions';
import { BROKER_PAYMENTS_SORTS, type BrokerPaymentRow } from '../../../shared/schemas/reports';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { SearchInput } from '../../components/search-input';
import { ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { useBrokerPaymentsReport } from './api';
import { ClpCell, ExportButtons, tableColumns } from './report-parts';

/** Overdue tasks show red (spec part 2 §2), in the tint rescinded rows use. */
function overdueRowStyle(row: BrokerPaymentRow) {
  return row.daysLate > 0 ? { backgroundColor: 'var(--mantine-color-red-0)' } : undefined;
}

/**
 * /informes/pagos-brokers 'Informe de Pagos Brokers' (spec part 2 §2): the open tasks (pending or in
 * progress) of the payment flows in progress, most days first, searched by number, apartment,
 * project, broker or task; an overdue one is red with a warning and 'Tarea atrasada'; a row opens its
 * payment flow.
 */
export default function BrokerPaymentsReportPage() {
  const navigate = useNavigate();
  const list = useListParams({
    sort: { sorts: BROKER_PAYMENTS_SORTS, defaultSort: 'daysPending', defaultDirection: 'desc' },
  });
  const report = useBrokerPaymentsReport(list.query);
  const rows = report.data?.rows;

  const columns = tableColumns<BrokerPaymentRow>(BROKER_PAYMENTS_REPORT_COLUMNS, {
    sortable: BROKER_PAYMENTS_SORTS,
    // The pesos in one cell on the screen; the exports carry each as a column.
    hidden: ['paymentUf', 'ufValue', 'clpState'],
    // 'Tarea atrasada (N)' may take two lines, so that the eleven columns fit a 1440 px screen.
    wraps: ['daysLate'],
    render: {
      clpAmount: (row) => <ClpCell row={row} />,
      daysLate: (row) =>
        row.daysLate > 0 ? (
          // One text with the icon inline: it wraps between its words when the table is short of room.
          <Text size="sm" c="red" fw={600} ta="right">
            <IconAlertTriangle
              size={16}
              color="var(--mantine-color-red-text)"
              aria-hidden="true"
              style={{ verticalAlign: 'text-bottom', marginRight: 4 }}
            />
            Tarea atrasada ({row.daysLate})
          </Text>
        ) : (
          '0'
        ),
    },
  });

  return (
    <>
      <PageHeader
        title="Informe de Pagos Brokers"
        actions={<ExportButtons name="brokerPayments" query={list.query} disabled={!rows?.length} />}
      />
      <ErrorAlert error={report.error} />
      <Stack gap="md">
        <SearchInput
          value={list.search}
          onSearch={list.setSearch}
          placeholder="Buscar por reserva, depto., proyecto, broker o tarea"
          aria-label="Buscar por reserva, depto., proyecto, broker o tarea"
          maw={420}
        />
        <ServerTable<BrokerPaymentRow>
          {...list.table}
          aria-label="Informe de Pagos Brokers"
          idAccessor="flowTaskId"
          records={rows}
          total={report.data?.total}
          fetching={report.isFetching}
          error={report.error}
          noRecordsText="No hay tareas pendientes de pago a brokers"
          rowStyle={overdueRowStyle}
          // And so may two-word headers.
          wrapHeaders={['reservationNumber', 'daysLate']}
          onRowClick={({ record }) => navigate(paths.paymentFlow(record.flowId))}
          columns={columns}
        />
      </Stack>
    </>
  );
}
