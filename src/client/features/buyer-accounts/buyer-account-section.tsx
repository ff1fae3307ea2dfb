import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCash, IconFileSpreadsheet, IconFileTypePdf, IconLockOpen, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import {
  formatPlanUf,
  LINE_KIND_LABELS,
  PAYMENT_MEANS,
  PAYMENT_MEANS_LABELS,
  type PaymentMeans,
} from '../../../shared/buyer-plan';
import { formatCLP, formatDate, formatUF, santiagoDateOf } from '../../../shared/format';
import type {
  BuyerAccount,
  BuyerPayment,
  BuyerPlan,
  BuyerPlanLine,
} from '../../../shared/schemas/buyer-accounts';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import { useBuyerAccount, useCreatePlan, useRecordPayment, useReversePayment, useWaivePie } from './api';

function lineLabel(line: BuyerPlanLine, plan: BuyerPlan) {
  return line.kind === 'downPayment'
    ? `${LINE_KIND_LABELS.downPayment} ${line.number} de ${plan.installmentCount}`
    : LINE_KIND_LABELS[line.kind];
}

function LineStatus({ line }: { line: BuyerPlanLine }) {
  if (!line.isOpen)
    return (
      <Badge color="green" variant="light">
        Pagada
      </Badge>
    );
  if (line.daysLate > 0)
    return (
      <Badge color="red" variant="light">
        Vencida ({line.daysLate} {line.daysLate === 1 ? 'día' : 'días'})
      </Badge>
    );
  return (
    <Badge color="gray" variant="light">
      {line.paidAmount === '0.0000' ? 'Pendiente' : 'Abonada'}
    </Badge>
  );
}

function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500}>{value}</Text>
    </div>
  );
}

/** The plan not yet made: the reservation's figures and, for who may, how many cuotas. */
function PlanForm({ account }: { account: BuyerAccount }) {
  const create = useCreatePlan(account.reservationId);
  const { figures } = account;
  const [count, setCount] = useState<number | string>(Math.min(figures.maxInstallments, 12));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Esta reserva no tiene plan de pagos. Se arma con sus montos: reserva{' '}
        {formatUF(figures.reservationPayment)}, promesa {formatUF(figures.promisePayment)} y pie{' '}
        {formatUF(figures.downPayment)} en cuotas mensuales desde la promesa{' '}
        {figures.promiseDate ? `(${formatDate(figures.promiseDate)})` : ''}
        {figures.deedDate ? ` hasta la escritura (${formatDate(figures.deedDate)})` : ''}.
      </Text>
      <ErrorAlert error={create.error} />
      {account.may.plan ? (
        <Group align="flex-end">
          <NumberInput
            label="Cuotas del pie"
            description={`Máximo ${figures.maxInstallments}`}
            min={1}
            max={figures.maxInstallments}
            allowDecimal={false}
            value={count}
            onChange={setCount}
            w={160}
          />
          <Button
            leftSection={<IconPlus size={16} />}
            loading={create.isPending}
            onClick={() =>
              create.mutate(
                { installmentCount: Number(count) },
                { onSuccess: () => notifySaved('Plan de pagos creado') },
              )
            }
          >
            Armar plan de pagos
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function PaymentDialog({
  account,
  opened,
  onClose,
}: {
  account: BuyerAccount;
  opened: boolean;
  onClose: () => void;
}) {
  const record = useRecordPayment(account.reservationId);
  const [paidDate, setPaidDate] = useState<string | null>(santiagoDateOf(new Date()));
  const [currency, setCurrency] = useState<'UF' | 'CLP'>('UF');
  const [amount, setAmount] = useState('');
  const [means, setMeans] = useState<PaymentMeans>('transfer');
  const [documentNumber, setDocumentNumber] = useState('');
  const fields = record.error instanceof ApiError ? record.error.fields : {};
  return (
    <Modal opened={opened} onClose={onClose} title="Registrar pago" size="md">
      <Stack>
        <ErrorAlert error={record.error && !Object.keys(fields).length ? record.error : null} />
        <DateField
          label="Fecha del pago"
          maxDate={santiagoDateOf(new Date())}
          value={paidDate}
          onChange={setPaidDate}
          error={fields.paidDate}
          required
        />
        <SegmentedControl
          aria-label="Moneda"
          value={currency}
          onChange={(value) => setCurrency(value as 'UF' | 'CLP')}
          data={[
            { value: 'UF', label: 'UF' },
            { value: 'CLP', label: 'Pesos (UF del día)' },
          ]}
        />
        <TextInput
          label={currency === 'UF' ? 'Monto en UF' : 'Monto en pesos'}
          description={currency === 'UF' ? 'Hasta 4 decimales, con punto: 12.5' : 'Entero, sin puntos'}
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
          error={fields.amount}
          required
        />
        <Select
          label="Medio de pago"
          data={PAYMENT_MEANS.map((value) => ({ value, label: PAYMENT_MEANS_LABELS[value] }))}
          value={means}
          onChange={(value) => value && setMeans(value as PaymentMeans)}
          allowDeselect={false}
        />
        <TextInput
          label="N° de documento"
          value={documentNumber}
          onChange={(event) => setDocumentNumber(event.currentTarget.value)}
          error={fields.documentNumber}
          required
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button
            loading={record.isPending}
            onClick={() =>
              record.mutate(
                { paidDate: paidDate ?? '', currency, amount: amount.trim(), means, documentNumber },
                {
                  onSuccess: () => {
                    notifySaved('Pago registrado');
                    setAmount('');
                    setDocumentNumber('');
                    onClose();
                  },
                },
              )
            }
          >
            Registrar pago
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A reason asked before a change (a reversal, the pie's release). */
function ReasonDialog({
  title,
  label,
  confirm,
  opened,
  pending,
  error,
  onClose,
  onConfirm,
}: {
  title: string;
  label: string;
  confirm: string;
  opened: boolean;
  pending: boolean;
  error: unknown;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        <ErrorAlert error={error} />
        <Textarea
          label={label}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          required
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button color="red" loading={pending} onClick={() => onConfirm(reason)}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function PlanView({ account, plan }: { account: BuyerAccount; plan: BuyerPlan }) {
  const [paying, setPaying] = useState(false);
  const [reversing, setReversing] = useState<BuyerPayment | null>(null);
  const [waiving, setWaiving] = useState(false);
  const reverse = useReversePayment(account.reservationId);
  const waive = useWaivePie(account.reservationId);
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        <Figure label="Total a pagar (reserva, promesa y pie)" value={formatPlanUf(plan.totalAmount)} />
        <Figure label="Pagado" value={formatPlanUf(plan.paidAmount)} />
        <Figure label="Saldo" value={formatPlanUf(plan.balance)} strong />
        <Figure label="Vencido" value={formatPlanUf(plan.overdueAmount)} />
        <Figure
          label="Crédito y subsidio"
          value={formatPlanUf(String(Number(plan.creditAmount) + Number(plan.subsidyAmount)))}
        />
        <Figure label="Saldo a la escritura" value={formatPlanUf(plan.deedBalance)} strong />
      </SimpleGrid>
      <Group gap="xs">
        {plan.isPiePaid ? (
          <Badge color="green">Pie pagado</Badge>
        ) : (
          <Badge color="orange">Pie pendiente</Badge>
        )}
        {plan.pieWaiver ? (
          <Badge color="blue" variant="light" title={plan.pieWaiver.reason}>
            Carta pie liberada por {plan.pieWaiver.byName ?? 'un administrador'}: {plan.pieWaiver.reason}
          </Badge>
        ) : null}
      </Group>

      <Table.ScrollContainer minWidth={560}>
        <Table striped aria-label="Plan de pagos">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Concepto</Table.Th>
              <Table.Th>Vence</Table.Th>
              <Table.Th ta="right">Monto</Table.Th>
              <Table.Th ta="right">Pagado</Table.Th>
              <Table.Th>Estado</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plan.lines.map((line) => (
              <Table.Tr key={line.id}>
                <Table.Td>{lineLabel(line, plan)}</Table.Td>
                <Table.Td>{formatDate(line.dueDate)}</Table.Td>
                <Table.Td ta="right">{formatPlanUf(line.amount)}</Table.Td>
                <Table.Td ta="right">{formatPlanUf(line.paidAmount)}</Table.Td>
                <Table.Td>
                  <LineStatus line={line} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Group justify="space-between">
        <Title order={5}>Pagos recibidos</Title>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            component="a"
            href={`/api/reservations/${account.reservationId}/account/statement.pdf`}
            target="_blank"
            rel="noopener"
            leftSection={<IconFileTypePdf size={14} />}
          >
            Estado de cuenta
          </Button>
          <Button
            size="xs"
            variant="default"
            component="a"
            href={`/api/reservations/${account.reservationId}/account/statement.xlsx`}
            download
            leftSection={<IconFileSpreadsheet size={14} />}
          >
            Excel
          </Button>
          {account.may.waivePie ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconLockOpen size={14} />}
              onClick={() => setWaiving(true)}
            >
              Liberar carta pie
            </Button>
          ) : null}
          {account.may.recordPayments ? (
            <Button size="xs" leftSection={<IconCash size={14} />} onClick={() => setPaying(true)}>
              Registrar pago
            </Button>
          ) : null}
        </Group>
      </Group>
      {plan.payments.length === 0 ? (
        <Text size="sm" c="dimmed">
          Aún no se registran pagos.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Pagos recibidos">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Fecha</Table.Th>
                <Table.Th>Medio</Table.Th>
                <Table.Th>N° documento</Table.Th>
                <Table.Th ta="right">Monto</Table.Th>
                <Table.Th ta="right">Pesos</Table.Th>
                <Table.Th>Estado</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {plan.payments.map((payment) => (
                <Table.Tr key={payment.id} c={payment.isReversed ? 'dimmed' : undefined}>
                  <Table.Td>{formatDate(payment.paidDate)}</Table.Td>
                  <Table.Td>{PAYMENT_MEANS_LABELS[payment.means]}</Table.Td>
                  <Table.Td>{payment.documentNumber}</Table.Td>
                  <Table.Td ta="right">{formatPlanUf(payment.amount)}</Table.Td>
                  <Table.Td ta="right">{payment.amountClp ? formatCLP(payment.amountClp) : '—'}</Table.Td>
                  <Table.Td>
                    {payment.isReversed ? (
                      <Badge color="red" variant="light" title={payment.reversalReason ?? undefined}>
                        Reversado: {payment.reversalReason}
                      </Badge>
                    ) : account.may.recordPayments ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setReversing(payment)}
                      >
                        Reversar
                      </Button>
                    ) : (
                      <Badge color="green" variant="light">
                        Recibido
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <PaymentDialog account={account} opened={paying} onClose={() => setPaying(false)} />
      <ReasonDialog
        key={reversing?.id ?? 'none'}
        title={`Reversar el pago N° ${reversing?.documentNumber ?? ''}`}
        label="Motivo de la reversa (p. ej., cheque devuelto)"
        confirm="Reversar pago"
        opened={reversing !== null}
        pending={reverse.isPending}
        error={reverse.error}
        onClose={() => {
          reverse.reset();
          setReversing(null);
        }}
        onConfirm={(reason) =>
          reversing &&
          reverse.mutate(
            { paymentId: reversing.id, reason, version: reversing.version },
            {
              onSuccess: () => {
                notifySaved('Pago reversado');
                setReversing(null);
              },
            },
          )
        }
      />
      <ReasonDialog
        title="Liberar carta pie sin el pie pagado"
        label="Motivo"
        confirm="Liberar carta pie"
        opened={waiving}
        pending={waive.isPending}
        error={waive.error}
        onClose={() => {
          waive.reset();
          setWaiving(false);
        }}
        onConfirm={(reason) =>
          waive.mutate(
            { reason, version: plan.version },
            {
              onSuccess: () => {
                notifySaved('Carta pie liberada');
                setWaiving(false);
              },
            },
          )
        }
      />
    </Stack>
  );
}

/** 'Cuenta del comprador' on the reservation's page: the plan, what was paid, what is due. */
export function BuyerAccountSection({ reservationId }: { reservationId: string }) {
  const account = useBuyerAccount(reservationId);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Cuenta del comprador">
      <Title order={4} mb="sm">
        Cuenta del comprador
      </Title>
      {account.isPending ? (
        <Text size="sm" c="dimmed">
          Cargando…
        </Text>
      ) : account.isError ? (
        <ErrorAlert error={account.error} />
      ) : account.data.plan ? (
        <PlanView account={account.data} plan={account.data.plan} />
      ) : (
        <PlanForm account={account.data} />
      )}
    </Paper>
  );
}
