import { Anchor, Badge, Group, Pagination, Paper, Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatPlanUf, LINE_KIND_LABELS } from '../../../shared/buyer-plan';
import { formatDate } from '../../../shared/format';
import type { OverdueRow } from '../../../shared/schemas/buyer-accounts';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { useReservationFormOptions } from '../reservations/api';
import { useOverdue } from './api';

const PAGE_SIZE = 25;

function concept(row: OverdueRow) {
  return row.kind === 'downPayment'
    ? `${LINE_KIND_LABELS.downPayment} ${row.number}`
    : LINE_KIND_LABELS[row.kind];
}

/** /informes/cuotas-vencidas: what buyers owe past its due date, oldest first, by project and seller. */
export default function OverduePage() {
  const [projectId, setProjectId] = useState<string | null>(null);
  const [sellerId, setSellerId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const options = useReservationFormOptions();
  const overdue = useOverdue({
    page,
    pageSize: PAGE_SIZE,
    projectId: projectId ?? undefined,
    sellerId: sellerId ?? undefined,
  });
  const total = overdue.data?.total ?? 0;
  return (
    <>
      <PageHeader
        title="Cuotas vencidas"
        description="Reservas, promesas y cuotas del pie no pagadas a su vencimiento"
      />
      <Group mb="md" align="flex-end">
        <Select
          label="Proyecto"
          placeholder="Todos"
          clearable
          searchable
          data={(options.data?.projects ?? []).map((project) => ({ value: project.id, label: project.name }))}
          value={projectId}
          onChange={(value) => {
            setProjectId(value);
            setPage(1);
          }}
          w={260}
        />
        <Select
          label="Vendedor"
          placeholder="Todos"
          clearable
          searchable
          data={(options.data?.sellers ?? []).map((seller) => ({
            value: seller.id,
            label: `${seller.firstName} ${seller.lastName}`,
          }))}
          value={sellerId}
          onChange={(value) => {
            setSellerId(value);
            setPage(1);
          }}
          w={260}
        />
      </Group>
      <ErrorAlert error={overdue.error} />
      <Paper withBorder radius="md" p="xs">
        <Table.ScrollContainer minWidth={860}>
          <Table striped aria-label="Cuotas vencidas">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Reserva</Table.Th>
                <Table.Th>Cliente</Table.Th>
                <Table.Th>Proyecto</Table.Th>
                <Table.Th>Vendedor</Table.Th>
                <Table.Th>Concepto</Table.Th>
                <Table.Th>Vencimiento</Table.Th>
                <Table.Th ta="right">Días de atraso</Table.Th>
                <Table.Th ta="right">Saldo</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(overdue.data?.rows ?? []).map((row) => (
                <Table.Tr key={row.lineId}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.editReservation(row.reservationId)}>
                      {row.reservationNumber}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.clientName}</Table.Td>
                  <Table.Td>{row.projectName}</Table.Td>
                  <Table.Td>{row.sellerName ?? '—'}</Table.Td>
                  <Table.Td>{concept(row)}</Table.Td>
                  <Table.Td>{formatDate(row.dueDate)}</Table.Td>
                  <Table.Td ta="right">
                    <Badge color={row.daysLate > 30 ? 'red' : 'orange'} variant="light">
                      {row.daysLate}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    {formatPlanUf(String(Number(row.amount) - Number(row.paidAmount)))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {overdue.data && overdue.data.rows.length === 0 ? (
          <Text c="dimmed" size="sm" p="sm">
            No hay cuotas vencidas.
          </Text>
        ) : null}
      </Paper>
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          {overdue.data?.totalIsCapped ? 'Más de ' : ''}
          {total} {total === 1 ? 'cuota vencida' : 'cuotas vencidas'}
        </Text>
        {total > PAGE_SIZE ? (
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size="sm" />
        ) : null}
      </Group>
    </>
  );
}
