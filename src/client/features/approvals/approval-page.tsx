import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCheck,
  IconCircleDashed,
  IconClock,
  IconLock,
  IconX,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { taskStatusBadges } from '../../../shared/domain/workflow/statuses';
import { errorCatalog } from '../../../shared/errors';
import {
  formatDate,
  formatDateTime,
  formatFractionAsPercent,
  formatPercent,
  formatPersonName,
  formatRut,
  formatUF,
} from '../../../shared/format';
import type { ApprovalDetail, ApprovalStep } from '../../../shared/schemas/approvals';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { ClpText } from '../../components/clp-text';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import { InfoItem } from '../sale-flows';
import { useApproval, useApprove, useReject } from './api';
import { DaysPending } from './approvals-page';
import { ApproveDialog } from './approve-dialog';
import { RejectDialog } from './reject-dialog';

function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid={testId}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** Label and amount rows (prices, payments, the financial summary). */
function FigureTable({
  label,
  rows,
}: {
  label: string;
  rows: { label: string; value: ReactNode; strong?: boolean; testId?: string }[];
}) {
  return (
    <Table aria-label={label} verticalSpacing={4}>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Td fw={row.strong ? 600 : undefined}>{row.label}</Table.Td>
            <Table.Td
              ta="right"
              fw={row.strong ? 600 : undefined}
              data-testid={row.testId}
              style={{ whiteSpace: 'nowrap' }}
            >
              {row.value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const fullName = (person: { firstName: string; lastName: string } | null) =>
  person ? formatPersonName(person) : 'Usuario eliminado';

function StatusBadge({ status }: { status: ApprovalStep['status'] }) {
  const badge = taskStatusBadges[status];
  return (
    <Badge color={badge.color} variant="light">
      {badge.label}
    </Badge>
  );
}

function stepIcon(step: ApprovalStep) {
  if (step.status === 'completed') return <IconCheck size={14} />;
  if (step.rejection && step.status === 'blocked') return <IconX size={14} />;
  if (step.status === 'blocked') return <IconLock size={14} />;
  if (step.status === 'in_progress') return <IconClock size={14} />;
  return <IconCircleDashed size={14} />;
}

const stepColor = (step: ApprovalStep) =>
  step.status === 'completed'
    ? 'green'
    : step.rejection && step.status === 'blocked'
      ? 'red'
      : step.status === 'blocked'
        ? 'gray'
        : 'blue';

/** Every approval of the payment flow: who approved it and when, or who rejected it, when and why. */
function ChainCard({ chain, currentTaskId }: { chain: ApprovalStep[]; currentTaskId: string }) {
  return (
    <Card title="Cadena de Aprobaciones" testId="approval-chain">
      <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
        {chain.map((step) => (
          <Group
            component="li"
            key={step.taskId}
            gap="sm"
            wrap="nowrap"
            align="flex-start"
            aria-current={step.taskId === currentTaskId ? 'step' : undefined}
          >
            <ThemeIcon size={26} radius="xl" variant="light" color={stepColor(step)} aria-hidden>
              {stepIcon(step)}
            </ThemeIcon>
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text size="sm" fw={step.taskId === currentTaskId ? 700 : 500}>
                  {step.name}
                </Text>
                <StatusBadge status={step.status} />
              </Group>
              {step.status === 'completed' ? (
                <Text size="xs" c="dimmed">
                  Aprobada por {fullName(step.completedBy)} el {formatDateTime(step.completedAt)}
                </Text>
              ) : step.assignees.length > 0 ? (
                <Text size="xs" c="dimmed">
                  Asignada a {step.assignees.map(fullName).join(', ')}
                </Text>
              ) : null}
              {step.rejection ? (
                <Text size="xs" c="red.8" data-testid="chain-rejection">
                  Rechazada por {fullName(step.rejection.by)} el {formatDateTime(step.rejection.at)}:{' '}
                  {step.rejection.reason}
                </Text>
              ) : null}
            </Stack>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function ApprovalCards({ approval }: { approval: ApprovalDetail }) {
  const { task, client, broker, reservation, commission, prices, paymentForm, summary } = approval;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      <Card title="Tarea" testId="task-card">
        <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
          <InfoItem label="Aprobación">
            <Text size="sm" fw={600}>
              {task.name}
            </Text>
            <Text size="xs" c="dimmed">
              {task.stageName}
            </Text>
          </InfoItem>
          <InfoItem label="Estado">
            <StatusBadge status={task.status} />
          </InfoItem>
          <InfoItem label="Inicio">
            <Text size="sm">{formatDateTime(task.startedAt)}</Text>
          </InfoItem>
          <InfoItem label="Días Pendiente">
            <DaysPending days={task.daysPending} late={task.daysLate} align="flex-start" />
          </InfoItem>
          <InfoItem label="Asignada a">
            <Text size="sm">
              {task.assignees.length > 0 ? task.assignees.map(fullName).join(', ') : 'Sin asignar'}
            </Text>
          </InfoItem>
          <InfoItem label="Flujo de Pago">
            <Anchor component={Link} to={paths.paymentFlow(approval.flow.id)} size="sm">
              {approval.flow.isSecondPayment ? 'Segundo Pago' : 'Flujo de Pago'} ({approval.flow.progress} %)
            </Anchor>
          </InfoItem>
        </SimpleGrid>
      </Card>
      <Card title="Cliente" testId="client-card">
        <SimpleGrid cols={2} spacing="sm">
          <InfoItem label="Nombre">
            <Text size="sm">
              {client.firstName} {client.lastName}
            </Text>
          </InfoItem>
          <InfoItem label="RUT">
            <Text size="sm">{formatRut(client.rut)}</Text>
          </InfoItem>
        </SimpleGrid>
      </Card>
      <Card title="Broker" testId="broker-card">
        <SimpleGrid cols={2} spacing="sm">
          <InfoItem label="Nombre">
            <Text size="sm">{broker?.name ?? 'Sin broker'}</Text>
          </InfoItem>
          <InfoItem label="Razón Social">
            <Text size="sm">{broker?.businessName ?? '—'}</Text>
          </InfoItem>
        </SimpleGrid>
      </Card>
      <Card title="Reserva" testId="reservation-card">
        <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
          <InfoItem label="N° Reserva">
            <Text size="sm" fw={600}>
              {reservation.reservationNumber}
            </Text>
            {reservation.isRescinded ? (
              <Text size="xs" c="red.8">
                Resciliada
              </Text>
            ) : null}
          </InfoItem>
          <InfoItem label="Fecha de Reserva">
            <Text size="sm">{formatDate(reservation.reservationDate)}</Text>
          </InfoItem>
          <InfoItem label="Proyecto">
            <Text size="sm">{reservation.projectName}</Text>
            <Text size="xs" c="dimmed">
              {reservation.projectStage}
            </Text>
          </InfoItem>
          <InfoItem label="Unidades">
            <Text size="sm">Depto. {reservation.apartmentNumber}</Text>
            <Text size="xs" c="dimmed">
              Estac. {reservation.parkingNumber ?? '—'} · Bodega {reservation.storageNumber ?? '—'}
            </Text>
          </InfoItem>
          <InfoItem label="Promesa">
            <Text size="sm">{formatDate(reservation.promiseDate) || '—'}</Text>
          </InfoItem>
          <InfoItem label="Escritura">
            <Text size="sm">{formatDate(reservation.deedDate) || '—'}</Text>
          </InfoItem>
          <InfoItem label="Vendedor">
            <Text size="sm">{reservation.sellerName ?? '—'}</Text>
          </InfoItem>
        </SimpleGrid>
      </Card>
      <Card title="Comisión" testId="commission-card">
        {commission.atRisk ? (
          <Alert color="orange" icon={<IconAlertTriangle size={16} />} p="xs" mb="sm" title="En Riesgo">
            {commission.atRiskReason}
          </Alert>
        ) : null}
        <FigureTable
          label="Comisión"
          rows={[
            {
              label: `Comisión${commission.commissionIncludesTax ? ' (con IVA)' : ''}`,
              value: formatUF(commission.commissionAmount),
              strong: true,
              testId: 'commission-amount',
            },
            { label: 'Comisión neta', value: formatUF(commission.netCommission) },
            { label: 'Base de comisión', value: formatUF(commission.commissionBase) },
            { label: 'Porcentaje', value: formatPercent(commission.commissionPercentage) },
            {
              label: `Primer pago (${formatPercent(commission.firstPaymentPercentage)})`,
              value: formatUF(commission.firstPaymentAmount),
            },
            ...(commission.numberOfPayments === 2
              ? [
                  {
                    label: `Segundo pago (${formatPercent(commission.secondPaymentPercentage)})`,
                    value: formatUF(commission.secondPaymentAmount),
                  },
                ]
              : []),
            {
              label: 'Monto de este pago',
              value: formatUF(commission.paymentAmount),
              strong: true,
              testId: 'payment-amount',
            },
            {
              label: 'Monto CLP de este pago',
              value: <ClpText figure={commission.pesos} align="flex-end" />,
              testId: 'payment-clp',
            },
          ]}
        />
        <Text size="xs" c="dimmed" mt="xs">
          {commission.commissionForDiscount ? 'Comisión a descuento' : 'Comisión sin descuento'} ·{' '}
          {commission.paysSecondary ? 'Paga estacionamiento y bodega' : 'No paga estacionamiento ni bodega'}
        </Text>
      </Card>
      <Card title="Precios y Descuentos" testId="prices-card">
        <FigureTable
          label="Precios y descuentos"
          rows={[
            { label: 'Precio departamento', value: formatUF(prices.apartmentPrice) },
            { label: 'Precio estacionamiento', value: formatUF(prices.parkingPrice) },
            { label: 'Precio bodega', value: formatUF(prices.storagePrice) },
            { label: 'Precio lista', value: formatUF(prices.totalPrice) },
            { label: 'Descuento columna', value: formatFractionAsPercent(prices.columnDiscount) },
            { label: 'Descuento adicional', value: formatFractionAsPercent(prices.additionalDiscount) },
            { label: 'Otro descuento', value: formatFractionAsPercent(prices.otherDiscount) },
            { label: 'Precio mínimo', value: formatUF(prices.minimumPrice), strong: true },
          ]}
        />
      </Card>
      <Card title="Forma de Pago" testId="payment-form-card">
        <FigureTable
          label="Forma de pago"
          rows={[
            { label: 'Reserva', value: formatUF(paymentForm.reservationPayment) },
            { label: 'Promesa', value: formatUF(paymentForm.promisePayment) },
            { label: 'Pie', value: formatUF(paymentForm.downPayment) },
            { label: 'Crédito hipotecario', value: formatUF(paymentForm.creditPayment) },
            { label: 'Bono Pie', value: formatUF(paymentForm.subsidyPayment) },
            { label: 'Total escrituración', value: formatUF(paymentForm.totalPayment), strong: true },
          ]}
        />
      </Card>
      <Card title="Resumen Financiero" testId="summary-card">
        <FigureTable
          label="Resumen financiero"
          rows={[
            { label: 'Total escrituración', value: formatUF(summary.totalPayment) },
            { label: 'Total recuperación', value: formatUF(summary.recoveryPayment) },
            { label: 'Precio mínimo', value: formatUF(summary.minimumPrice) },
            { label: 'Comisión', value: formatUF(summary.commissionAmount) },
            { label: 'Diferencia', value: formatUF(summary.difference), strong: true, testId: 'difference' },
          ]}
        />
        <Text size="xs" c="dimmed" mt="xs">
          Diferencia: total recuperación menos precio mínimo menos comisión.
        </Text>
      </Card>
    </SimpleGrid>
  );
}

/**
 * /informes/aprobacion-liquidaciones/{id} (spec part 2 §2): an approval with its cards, the chain of
 * its payment flow, and 'Rechazar' / 'Aprobar' for its assignee or an administrator while it is open.
 * 'No se encontró la información de aprobación' as a full-page error.
 */
export default function ApprovalPage() {
  const { id } = useParams<{ id: string }>();
  const navigate = useNavigate();
  const approval = useApproval(id);
  const approve = useApprove();
  const reject = useReject();
  const [rejecting, setRejecting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const back = (
    <Button
      component={Link}
      to={paths.settlementApprovals}
      variant="default"
      leftSection={<IconArrowLeft size={16} />}
    >
      Volver
    </Button>
  );

  if (approval.isPending) return <PageLoader />;
  if (!approval.data) {
    const notFound = approval.error instanceof ApiError && [400, 404].includes(approval.error.status);
    return (
      <>
        <PageHeader title="Aprobación de Liquidación" />
        <ErrorAlert error={notFound ? errorCatalog.APPROVAL_NOT_FOUND.message : approval.error} />
        {back}
      </>
    );
  }

  const { task } = approval.data;
  const approveTask = () =>
    approve.mutate(task.id, {
      onSuccess: (result) => {
        notifySaved(
          result.outcome === 'approved' ? 'Aprobación registrada' : 'La aprobación ya estaba completada',
        );
        setConfirming(false);
        navigate(paths.settlementApprovals);
      },
    });
  return (
    <>
      <Group mb="sm">{back}</Group>
      <PageHeader
        title={`${task.name} · Reserva N°\u00a0${approval.data.reservation.reservationNumber}`}
        description={`${formatPersonName(approval.data.client)} · ${approval.data.reservation.projectName}`}
        actions={
          task.commands.approve.allowed || task.commands.reject.allowed ? (
            <>
              {task.commands.reject.allowed ? (
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconX size={16} />}
                  onClick={() => {
                    reject.reset();
                    setRejecting(true);
                  }}
                  disabled={approve.isPending}
                >
                  Rechazar
                </Button>
              ) : null}
              {task.commands.approve.allowed ? (
                <Button
                  color="green"
                  leftSection={<IconCheck size={16} />}
                  loading={approve.isPending}
                  onClick={() => {
                    approve.reset();
                    // Asked first when the server says this user could not take it back.
                    if (task.commands.irreversible.includes('completed')) setConfirming(true);
                    else approveTask();
                  }}
                >
                  Aprobar
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      {/* Why this user cannot decide it (the server's reason), for an approval still to be decided. */}
      {!task.commands.approve.allowed && task.status !== 'completed' && task.commands.approve.reason ? (
        <Alert color="gray" variant="light" mb="md" data-testid="decision-locked">
          {task.commands.approve.reason}
        </Alert>
      ) : null}
      {confirming ? null : <ErrorAlert error={approve.error} />}
      <ApproveDialog
        subject={
          confirming
            ? {
                kind: 'one',
                taskName: task.name,
                reservationNumber: approval.data.reservation.reservationNumber,
              }
            : null
        }
        loading={approve.isPending}
        error={approve.error}
        onConfirm={approveTask}
        onClose={() => setConfirming(false)}
      />
      <Stack gap="md">
        <ApprovalCards approval={approval.data} />
        <ChainCard chain={approval.data.chain} currentTaskId={task.id} />
      </Stack>
      <RejectDialog
        key={rejecting ? 'open' : 'closed'}
        opened={rejecting}
        taskName={task.name}
        isFinal={task.commands.irreversible.includes('blocked')}
        loading={reject.isPending}
        error={reject.error}
        onClose={() => setRejecting(false)}
        onConfirm={(reason) =>
          reject.mutate(
            { taskId: task.id, reason },
            {
              onSuccess: () => {
                notifySaved('Aprobación rechazada');
                setRejecting(false);
                navigate(paths.settlementApprovals);
              },
            },
          )
        }
      />
    </>
  );
}
