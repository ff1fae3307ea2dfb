import { Badge, Button, Checkbox, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { batchTotal } from '../../../shared/domain/payment-batches';
import { formatCLP, formatDate, formatDateTime, formatInteger, formatRut } from '../../../shared/format';
import {
  type BatchCandidate,
  PAYMENT_BATCH_STATUS_LABELS,
  type PaymentBatchRow,
} from '../../../shared/schemas/payment-batches';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { useNarrow } from '../../lib/layout';
import { useListParams } from '../../lib/list-params';
import { PaymentsTabs } from '../payments';
import { useBatchCandidates, useCreateBatch, usePaymentBatches } from './api';
import { BATCH_STATUS_COLORS } from './batch-status';

/**
 * /pagos/nomina 'Nómina de pago' (issue 33): the payments whose 'Fecha de Pago' is open — payable
 * ones chosen into a new batch, the others with why not — and the batches made, newest first.
 */
export default function PaymentBatchesPage() {
  return (
    <>
      <PageHeader title="Pagos" />
      <PaymentsTabs active="batches">
        <Stack gap="xl">
          <CandidatesSection />
          <BatchesSection />
        </Stack>
      </PaymentsTabs>
    </>
  );
}

function CandidatesSection() {
  const navigate = useNavigate();
  const candidates = useBatchCandidates();
  const create = useCreateBatch();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const rows = candidates.data?.rows ?? [];
  const payable = rows.filter((row) => row.isPayable);
  const selected = payable.filter((row) => chosen.has(row.flowId));
  const allChosen = payable.length > 0 && selected.length === payable.length;
  // On a phone each payment is a card (a seven-column table would only scroll sideways).
  const narrow = useNarrow();

  const toggle = (flowId: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(flowId)) next.delete(flowId);
      else next.add(flowId);
      return next;
    });

  const submit = () =>
    create.mutate(
      selected.map((row) => row.flowId),
      { onSuccess: (batch) => navigate(paths.paymentBatch(batch.id)) },
    );

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h4">
            Pagos listos para pagar
          </Title>
          <Text size="sm" c="dimmed">
            Con la factura del broker registrada y cuadrada (o aceptada), 'Notificación a Finanzas' completada
            y 'Fecha de Pago' abierta.
          </Text>
        </div>
        {candidates.data?.canCreate ? (
          <Button
            leftSection={<IconListCheck size={16} />}
            disabled={selected.length === 0}
            loading={create.isPending}
            onClick={submit}
          >
            {selected.length === 0
              ? 'Crear nómina'
              : `Crear nómina (${formatInteger(selected.length)} · ${formatCLP(batchTotal(selected.map((row) => row.amountClp ?? '0')))})`}
          </Button>
        ) : null}
      </Group>
      <ErrorAlert error={candidates.error ?? create.error} />
      {candidates.data?.isCapped ? (
        <Text size="sm" c="orange.8">
          Se muestran los primeros 1.000 pagos listos: cree una nómina con ellos y vuelva por el resto.
        </Text>
      ) : null}
      {narrow && rows.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {candidates.isPending ? 'Cargando…' : 'No hay pagos esperando su fecha de pago'}
        </Text>
      ) : narrow ? (
        <Stack gap="sm" role="list" aria-label="Pagos listos para pagar">
          {rows.map((row) => (
            <CandidateCard
              key={row.flowId}
              row={row}
              checked={chosen.has(row.flowId)}
              onToggle={() => toggle(row.flowId)}
            />
          ))}
        </Stack>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="xs" aria-label="Pagos listos para pagar" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Elegir todos los pagos que se pueden pagar"
                      checked={allChosen}
                      indeterminate={selected.length > 0 && !allChosen}
                      disabled={payable.length === 0}
                      onChange={() =>
                        setChosen(allChosen ? new Set() : new Set(payable.map((row) => row.flowId)))
                      }
                    />
                  </Table.Th>
                  <Table.Th>Broker</Table.Th>
                  <Table.Th>Reserva</Table.Th>
                  <Table.Th>Banco y cuenta</Table.Th>
                  <Table.Th ta="right">Monto CLP</Table.Th>
                  <Table.Th>Referencia</Table.Th>
                  <Table.Th>Estado</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={7}>
                      <Text size="sm" c="dimmed" ta="center" py="md">
                        {candidates.isPending ? 'Cargando…' : 'No hay pagos esperando su fecha de pago'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((row) => (
                    <CandidateRow
                      key={row.flowId}
                      row={row}
                      checked={chosen.has(row.flowId)}
                      onToggle={() => toggle(row.flowId)}
                    />
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}

function CandidateRow({
  row,
  checked,
  onToggle,
}: {
  row: BatchCandidate;
  checked: boolean;
  onToggle: () => void;
}) {
  const label = `pago ${row.paymentNumber} de la reserva ${row.reservationNumber}`;
  return (
    <Table.Tr data-flow={row.flowId}>
      <Table.Td>
        <Checkbox
          aria-label={`Elegir el ${label}`}
          checked={row.isPayable && checked}
          disabled={!row.isPayable}
          onChange={onToggle}
        />
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {row.brokerName}
        </Text>
        <Text size="xs" c="dimmed">
          {formatRut(row.brokerRut)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">N° {row.reservationNumber}</Text>
        <Text size="xs" c="dimmed">
          Pago {row.paymentNumber}
          {row.invoiceFolio ? ` · Factura folio ${row.invoiceFolio}` : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        {row.bankName ? (
          <>
            <Text size="sm">{row.bankName}</Text>
            <Text size="xs" c="dimmed">
              {row.bankAccountType} {row.bankAccountNumber}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
        {row.email ? (
          <Text size="xs" c="dimmed">
            {row.email}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {row.amountClp === null ? '—' : formatCLP(row.amountClp)}
        </Text>
        <PaidAmount row={row} />
      </Table.Td>
      <Table.Td>
        <Text size="xs">{row.reference}</Text>
      </Table.Td>
      <Table.Td>
        <PayableBadge row={row} />
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * One amount paid, explained (issue 53): UF × the day's value beside the invoice's total to pay, and
 * the server's words for their difference.
 */
function PaidAmount({ row }: { row: BatchCandidate }) {
  const paid = row.paidAmount;
  if (!paid) return null;
  return (
    <Text size="xs" c="dimmed" ta="inherit" maw={260} style={{ marginLeft: 'auto' }}>
      UF × valor del día: {formatCLP(paid.ufClp)}
      {paid.cause ? ` · Diferencia ${formatCLP(paid.difference)}: ${paid.cause}` : ' · Sin diferencia'}
    </Text>
  );
}

/** 'Se puede pagar', or 'No se puede pagar' with the server's reason. */
function PayableBadge({ row }: { row: BatchCandidate }) {
  return row.isPayable ? (
    <Badge color="green" variant="light" miw="max-content">
      Se puede pagar
    </Badge>
  ) : (
    <Stack gap={2} align="flex-start">
      <Badge color="red" variant="light" miw="max-content">
        No se puede pagar
      </Badge>
      {row.notPayableReasons.map((reason) => (
        <Text key={reason} size="xs" c="red.8">
          {reason}
        </Text>
      ))}
    </Stack>
  );
}

/** A payment on a phone: the table's cells one under the other, its checkbox first. */
function CandidateCard({
  row,
  checked,
  onToggle,
}: {
  row: BatchCandidate;
  checked: boolean;
  onToggle: () => void;
}) {
  return (
    <Paper withBorder radius="md" p="sm" role="listitem" data-flow={row.flowId}>
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Checkbox
          mt={2}
          aria-label={`Elegir el pago ${row.paymentNumber} de la reserva ${row.reservationNumber}`}
          checked={row.isPayable && checked}
          disabled={!row.isPayable}
          onChange={onToggle}
        />
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group justify="space-between" align="flex-start" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={500}>
                {row.brokerName}
              </Text>
              <Text size="xs" c="dimmed">
                {formatRut(row.brokerRut)}
              </Text>
            </div>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {row.amountClp === null ? '—' : formatCLP(row.amountClp)}
            </Text>
          </Group>
          <PaidAmount row={row} />
          <Text size="xs">
            Reserva N° {row.reservationNumber} · Pago {row.paymentNumber}
            {row.invoiceFolio ? ` · Factura folio ${row.invoiceFolio}` : ''}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {row.bankName
              ? `${row.bankName} · ${row.bankAccountType} ${row.bankAccountNumber}`
              : 'Sin datos bancarios'}
            {row.email ? ` · ${row.email}` : ''}
          </Text>
          <PayableBadge row={row} />
        </Stack>
      </Group>
    </Paper>
  );
}

function BatchesSection() {
  const navigate = useNavigate();
  const list = useListParams();
  const batches = usePaymentBatches({ page: list.page, pageSize: list.pageSize });
  const columns: DataTableColumn<PaymentBatchRow>[] = [
    { accessor: 'number', title: 'N°', render: (row) => `N° ${row.number}`, noWrap: true },
    {
      accessor: 'status',
      title: 'Estado',
      render: (row) => (
        <Badge color={BATCH_STATUS_COLORS[row.status]} variant="light">
          {PAYMENT_BATCH_STATUS_LABELS[row.status]}
        </Badge>
      ),
    },
    { accessor: 'paymentCount', title: 'Pagos', textAlign: 'right' },
    { accessor: 'totalClp', title: 'Total', textAlign: 'right', render: (row) => formatCLP(row.totalClp) },
    {
      accessor: 'createdAt',
      title: 'Creada',
      render: (row) =>
        `${formatDateTime(row.createdAt)}${row.createdByName ? ` · ${row.createdByName}` : ''}`,
    },
    {
      accessor: 'paidDate',
      title: 'Pagada',
      render: (row) =>
        row.paidDate ? `${formatDate(row.paidDate)}${row.paidByName ? ` · ${row.paidByName}` : ''}` : '—',
    },
  ];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Nóminas
      </Title>
      <ServerTable<PaymentBatchRow>
        {...list.table}
        aria-label="Nóminas de pago"
        records={batches.data?.rows}
        total={batches.data?.total}
        totalIsCapped={batches.data?.totalIsCapped}
        fetching={batches.isFetching}
        error={batches.error}
        noRecordsText="Aún no hay nóminas de pago"
        onRowClick={({ record }) => navigate(paths.paymentBatch(record.id))}
        columns={columns}
      />
    </Stack>
  );
}
