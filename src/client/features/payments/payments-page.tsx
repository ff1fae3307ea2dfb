import { ActionIcon, Button, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { PaymentListRow } from '../../../shared/schemas/payments';
import { paths } from '../../app/paths';
import { ClpText } from '../../components/clp-text';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ProjectCell, ReservationNumberCell, rescindedRowStyle } from '../../components/reservation-cells';
import { SearchInput } from '../../components/search-input';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { useListParams } from '../../lib/list-params';
import { useOpenPaymentFlow, usePaymentList } from './api';
import { CommissionCell, PaymentBadge } from './payment-badges';
import { PaymentsTabs } from './payments-tabs';

/**
 * /pagos 'Pagos' (spec part 2 §2): the reservations sold with a broker, searched by apartment number
 * (its beginning), paged on the server. A row opens the first payment flow (created on demand); the
 * pencil edits the commission; 'Crear Segundo Pago' when the second payment may be created.
 */
export default function PaymentsPage() {
  const navigate = useNavigate();
  const list = useListParams();
  const payments = usePaymentList(list.query);
  const open = useOpenPaymentFlow();

  const openFlow = (row: PaymentListRow, which: 'first' | 'second') =>
    open.mutate(
      { reservationId: row.reservationId, which },
      { onSuccess: (opened) => navigate(paths.paymentFlow(opened.flowId)) },
    );

  const columns: DataTableColumn<PaymentListRow>[] = [
    {
      accessor: 'reservationNumber',
      title: 'N° Reserva',
      noWrap: true,
      render: (row) => (
        <ReservationNumberCell reservationNumber={row.reservationNumber} isRescinded={row.isRescinded} />
      ),
    },
    {
      accessor: 'projectName',
      title: 'Proyecto',
      render: (row) => <ProjectCell name={row.projectName} stage={row.projectStage} />,
    },
    { accessor: 'apartmentNumber', title: 'Depto.', noWrap: true },
    { accessor: 'brokerName', title: 'Broker', render: (row) => row.brokerName ?? '—' },
    {
      accessor: 'commission',
      title: 'Comisión',
      render: (row) => <CommissionCell commission={row.commission} />,
    },
    {
      accessor: 'payment1',
      title: 'Pago 1',
      render: (row) => (
        <Stack gap={4} align="flex-start">
          <PaymentBadge label="Pago 1" standing={row.payment1} />
          {row.payment1Pesos ? <ClpText figure={row.payment1Pesos} compact /> : null}
        </Stack>
      ),
    },
    {
      accessor: 'payment2',
      title: 'Pago 2',
      render: (row) =>
        row.payment2 ? (
          <Stack gap={4} align="flex-start">
            <PaymentBadge label="Pago 2" standing={row.payment2} />
            {row.payment2Pesos ? <ClpText figure={row.payment2Pesos} compact /> : null}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" aria-label="Pago 2: no aplica">
            —
          </Text>
        ),
    },
    {
      accessor: 'actions',
      title: <VisuallyHidden>Acciones</VisuallyHidden>,
      textAlign: 'right',
      render: (row) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {row.canCreateSecondPayment ? (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconPlus size={14} />}
              loading={open.isPending && open.variables?.reservationId === row.reservationId}
              onClick={(event) => {
                event.stopPropagation();
                openFlow(row, 'second');
              }}
            >
              Crear Segundo Pago
            </Button>
          ) : null}
          <Tooltip label="Editar comisión" withArrow>
            <ActionIcon
              component={Link}
              to={paths.commission(row.reservationId)}
              variant="subtle"
              aria-label={`Editar comisión de la reserva ${row.reservationNumber}`}
              onClick={(event) => event.stopPropagation()}
            >
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Pagos" />
      <PaymentsTabs active="payments">
        <ErrorAlert error={payments.error ?? open.error} />
        <Stack gap="md">
          <SearchInput
            value={list.search}
            onSearch={list.setSearch}
            placeholder="Buscar por número de departamento"
            aria-label="Buscar por número de departamento"
            maw={420}
          />
          <ServerTable<PaymentListRow>
            {...list.table}
            aria-label="Pagos"
            idAccessor="reservationId"
            records={payments.data?.rows}
            total={payments.data?.total}
            totalIsCapped={payments.data?.totalIsCapped}
            fetching={payments.isFetching || open.isPending}
            error={payments.error}
            noRecordsText={
              list.search ? 'No hay pagos de departamentos con ese número' : 'Aún no hay reservas con broker'
            }
            rowStyle={rescindedRowStyle}
            onRowClick={({ record }) => {
              open.reset();
              openFlow(record, 'first');
            }}
            columns={columns}
          />
        </Stack>
      </PaymentsTabs>
    </>
  );
}
