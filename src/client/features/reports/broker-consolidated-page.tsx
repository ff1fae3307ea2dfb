import { ActionIcon, Badge, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FIGURE_NOTES } from '../../../shared/domain/figures';
import { formatCLP, formatUF } from '../../../shared/format';
import { BROKER_CONSOLIDATED_COLUMNS } from '../../../shared/reports/definitions';
import { BROKER_CONSOLIDATED_SORTS, type BrokerConsolidatedRow } from '../../../shared/schemas/reports';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { RiskFormDialog } from '../payments';
import { useBrokerConsolidated, useSetConsolidatedRisk } from './api';
import { BrokerSelect } from './report-filters';
import { ExportButtons, SummaryCards, tableColumns } from './report-parts';

const RESCINDED_RISK_HINT = 'No se puede marcar en riesgo una unidad resciliada';

const STATUS_COLORS: Record<string, string> = {
  Pagada: 'green',
  'Pago parcial': 'blue',
  Pendiente: 'gray',
  'En Riesgo': 'orange',
  Resciliada: 'red',
};

/**
 * The row's 'Marcar En Riesgo' / 'Editar Riesgo': an icon under the 'Riesgo' header, named by its
 * tooltip and for screen readers (a button with its words made the table wider than a 1440 px
 * screen, the column out of sight). On a rescinded unit it is disabled and its tooltip says why:
 * marked disabled (`data-disabled`, `aria-disabled`) rather than given the `disabled` attribute, so
 * that it still takes the pointer and the focus that show the hint.
 */
function RiskButton({ row, onOpen }: { row: BrokerConsolidatedRow; onOpen: () => void }) {
  const label = row.atRisk ? 'Editar Riesgo' : 'Marcar En Riesgo';
  const Icon = row.atRisk ? IconPencil : IconAlertTriangle;
  return (
    <Tooltip label={row.isRescinded ? RESCINDED_RISK_HINT : label} withArrow>
      <ActionIcon
        variant="light"
        color="orange"
        aria-label={label}
        data-disabled={row.isRescinded || undefined}
        aria-disabled={row.isRescinded || undefined}
        onClick={(event) => {
          event.stopPropagation();
          if (!row.isRescinded) onOpen();
        }}
      >
        <Icon size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

function RiskDialogFor({ row, onClose }: { row: BrokerConsolidatedRow; onClose: () => void }) {
  const save = useSetConsolidatedRisk(row.reservationId);
  return (
    <RiskFormDialog
      opened
      title={row.atRisk ? 'Editar Riesgo' : 'Marcar En Riesgo'}
      commission={row}
      save={save}
      onClose={onClose}
    />
  );
}

/**
 * /informes/consolidado-brokers 'Consolidado Brokers' (spec part 2 §2, §9): a broker's commissions
 * with the cards Total Comisiones, Total Pagado, Total En Riesgo and Total Pendiente (summed on the
 * server by the domain's formulas), sortable; a row opens its payment flow, or the commission when it
 * has none; each row marks or edits its at-risk flag (not on a rescinded unit).
 */
export default function BrokerConsolidatedPage() {
  const navigate = useNavigate();
  const list = useListParams({
    sort: { sorts: BROKER_CONSOLIDATED_SORTS, defaultSort: 'reservationNumber', defaultDirection: 'asc' },
    filters: ['broker'],
  });
  const broker = list.filters.broker;
  const query = { ...list.query, brokerId: broker };
  const report = useBrokerConsolidated(query, Boolean(broker));
  const rows = broker ? report.data?.rows : [];
  const totals = broker ? report.data?.totals : undefined;
  const [risky, setRisky] = useState<BrokerConsolidatedRow | null>(null);

  const columns = [
    ...tableColumns<BrokerConsolidatedRow>(BROKER_CONSOLIDATED_COLUMNS, {
      sortable: BROKER_CONSOLIDATED_SORTS,
      // The reason shows under the 'En Riesgo' badge, the pesos under the UF paid: two columns less
      // on the screen, so 'Riesgo' fits at 1440 px (the exports keep both columns).
      hidden: ['atRiskReason', 'paidClp'],
      render: {
        paidAmount: (row) => (
          <Stack gap={0} align="flex-end">
            <Text size="sm">{formatUF(row.paidAmount)}</Text>
            {row.paidClp ? (
              <Text size="xs" c="dimmed" data-testid="paid-clp">
                {formatCLP(row.paidClp)}
              </Text>
            ) : null}
          </Stack>
        ),
        reservationNumber: (row) => (
          <ReservationNumberCell reservationNumber={row.reservationNumber} isRescinded={row.isRescinded} />
        ),
        statusLabel: (row) => (
          <Stack gap={2} align="flex-start">
            <Badge color={STATUS_COLORS[row.statusLabel] ?? 'gray'} variant="light" miw="max-content">
              {row.statusLabel}
            </Badge>
            {row.atRisk && row.atRiskReason ? (
              <Text size="xs" c="dimmed">
                {row.atRiskReason}
              </Text>
            ) : null}
          </Stack>
        ),
      },
    }),
    {
      accessor: 'risk',
      title: 'Riesgo',
      textAlign: 'right' as const,
      render: (row: BrokerConsolidatedRow) => <RiskButton row={row} onOpen={() => setRisky(row)} />,
    },
  ];

  return (
    <>
      <PageHeader
        title="Consolidado Brokers"
        actions={<ExportButtons name="brokerConsolidated" query={query} disabled={!rows?.length} />}
      />
      <ErrorAlert error={report.error} />
      <Stack gap="md">
        {/* The view is of one broker: its select stays in sight on a phone too (not folded under 'Filtros'). */}
        <BrokerSelect
          value={broker ?? null}
          onChange={(value) => list.setFilter('broker', value)}
          placeholder="Seleccione un broker"
          // The page is about this one broker: its whole name and razón social in sight.
          width={640}
        />
        <SummaryCards
          cards={[
            {
              label: 'Total Comisiones',
              value: totals?.totalCommission,
              note: FIGURE_NOTES.rescindedAndAtRisk,
            },
            { label: 'Total Pagado', value: totals?.totalPaid },
            { label: 'Total En Riesgo', value: totals?.totalAtRisk },
            { label: 'Total Pendiente', value: totals?.totalPending },
          ]}
        />
        <ServerTable<BrokerConsolidatedRow>
          {...list.table}
          aria-label="Consolidado Brokers"
          // Eleven columns on a 1440 px screen: the dates' long headers wrap rather than push 'Riesgo'
          // out of sight.
          wrapHeaders={['payment1Date', 'payment2Date']}
          idAccessor="commissionId"
          records={rows}
          total={broker ? report.data?.total : 0}
          fetching={Boolean(broker) && report.isFetching}
          error={report.error}
          noRecordsText={
            broker ? 'Este broker no tiene comisiones' : 'Seleccione un broker para ver su consolidado'
          }
          rowStyle={rescindedRowStyle}
          onRowClick={({ record }) =>
            navigate(
              record.firstFlowId
                ? paths.paymentFlow(record.firstFlowId)
                : paths.commission(record.reservationId),
            )
          }
          columns={columns}
        />
      </Stack>
      {risky ? <RiskDialogFor row={risky} onClose={() => setRisky(null)} /> : null}
    </>
  );
}
