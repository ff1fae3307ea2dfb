import { Anchor, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconArrowLeft, IconCash, IconDownload, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorCatalog } from '../../../shared/errors';
import {
  formatCLP,
  formatDate,
  formatDateTime,
  formatInteger,
  formatRut,
  santiagoDateOf,
} from '../../../shared/format';
import { PAYMENT_BATCH_STATUS_LABELS, type PaymentBatchView } from '../../../shared/schemas/payment-batches';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButtons } from '../../components/export-buttons';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import { batchExportHref, useCancelBatch, useMarkBatchPaid, usePaymentBatch } from './api';
import { BATCH_STATUS_COLORS } from './batch-status';

/**
 * /pagos/nomina/:id: one 'Nómina de pago' — its lines as the bank file carries them, the file as
 * CSV or Excel, and (while open) 'Marcar pagada' with the day paid, or 'Anular nómina'.
 */
export default function PaymentBatchPage() {
  const { id = '' } = useParams<{ id: string }>();
  const batch = usePaymentBatch(id);
  const back = (
    <Button
      component={Link}
      to={paths.paymentBatches}
      variant="default"
      leftSection={<IconArrowLeft size={16} />}
    >
      Volver a Nómina de pago
    </Button>
  );
  if (batch.isPending) return <PageLoader />;
  if (!batch.data) {
    const notFound = batch.error instanceof ApiError && [400, 404].includes(batch.error.status);
    return (
      <>
        <PageHeader title="Nómina de pago" />
        <ErrorAlert error={notFound ? errorCatalog.PAYMENT_BATCH_NOT_FOUND.message : batch.error} />
        {back}
      </>
    );
  }
  return <BatchScreen batch={batch.data} back={back} />;
}

function BatchScreen({ batch, back }: { batch: PaymentBatchView; back: ReactNode }) {
  const [dialog, setDialog] = useState<'paid' | 'cancel' | null>(null);
  return (
    <>
      <PageHeader
        title={`Nómina de pago N° ${batch.number}`}
        actions={
          batch.canExport ? (
            <Group gap="xs">
              <Button
                component="a"
                href={batchExportHref(batch.id, 'bank')}
                download
                variant="light"
                leftSection={<IconDownload size={16} />}
                disabled={batch.lines.length === 0}
              >
                Archivo del banco
              </Button>
              <ExportButtons
                hrefOf={(format) => batchExportHref(batch.id, format)}
                disabled={batch.lines.length === 0}
              />
            </Group>
          ) : undefined
        }
      />
      <Stack gap="md">
        <Paper withBorder radius="md" p="md">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Fact label="Estado">
              <Badge color={BATCH_STATUS_COLORS[batch.status]} variant="light">
                {PAYMENT_BATCH_STATUS_LABELS[batch.status]}
              </Badge>
            </Fact>
            <Fact label="Pagos">{formatInteger(batch.paymentCount)}</Fact>
            <Fact label="Total">{formatCLP(batch.totalClp)}</Fact>
            <Fact label="Creada">
              {formatDateTime(batch.createdAt)}
              {batch.createdByName ? ` · ${batch.createdByName}` : ''}
            </Fact>
            {batch.paidDate ? (
              <Fact label="Fecha de pago">
                {formatDate(batch.paidDate)}
                {batch.paidByName ? ` · ${batch.paidByName}` : ''}
              </Fact>
            ) : null}
            {batch.cancelledAt ? <Fact label="Anulada">{formatDateTime(batch.cancelledAt)}</Fact> : null}
          </SimpleGrid>
          {batch.canMarkPaid || batch.canCancel ? (
            <Group mt="md" gap="sm">
              {batch.canMarkPaid ? (
                <Button leftSection={<IconCash size={16} />} onClick={() => setDialog('paid')}>
                  Marcar pagada
                </Button>
              ) : null}
              {batch.canCancel ? (
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconX size={16} />}
                  onClick={() => setDialog('cancel')}
                >
                  Anular nómina
                </Button>
              ) : null}
            </Group>
          ) : null}
        </Paper>

        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={960}>
            <Table verticalSpacing="xs" striped aria-label={`Pagos de la nómina N° ${batch.number}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>RUT Beneficiario</Table.Th>
                  <Table.Th>Nombre Beneficiario</Table.Th>
                  <Table.Th>Banco</Table.Th>
                  <Table.Th>Tipo de Cuenta</Table.Th>
                  <Table.Th>Número de Cuenta</Table.Th>
                  <Table.Th ta="right">Monto</Table.Th>
                  <Table.Th>Referencia</Table.Th>
                  <Table.Th>Correo Electrónico</Table.Th>
                  <Table.Th>Cuenta</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {batch.lines.map((line) => (
                  <Table.Tr key={line.flowId}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRut(line.holderRut)}</Table.Td>
                    <Table.Td>
                      {line.holderName}
                      {line.holderName !== line.brokerName ? (
                        <Text size="xs" c="dimmed">
                          Broker: {line.brokerName}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{line.bankName}</Table.Td>
                    <Table.Td>{line.bankAccountType}</Table.Td>
                    <Table.Td>{line.bankAccountNumber}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatCLP(line.amountClp)}
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={paths.paymentFlow(line.flowId)} size="sm">
                        {line.reference}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{line.email ?? '—'}</Table.Td>
                    <Table.Td>
                      {line.accountChangedSince ? (
                        <Badge color="orange" variant="light" miw="max-content">
                          La cuenta cambió desde que se hizo la nómina
                        </Badge>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
        <Group>{back}</Group>
      </Stack>
      {dialog === 'paid' ? <MarkPaidDialog batch={batch} onClose={() => setDialog(null)} /> : null}
      {dialog === 'cancel' ? <CancelDialog batch={batch} onClose={() => setDialog(null)} /> : null}
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

function MarkPaidDialog({ batch, onClose }: { batch: PaymentBatchView; onClose: () => void }) {
  const today = santiagoDateOf(new Date());
  const [paidDate, setPaidDate] = useState<string | null>(today);
  const markPaid = useMarkBatchPaid(batch.id);
  const submit = () => {
    if (!paidDate) return;
    markPaid.mutate(
      { paidDate, version: batch.version },
      {
        onSuccess: () => {
          notifySaved(`Nómina N° ${batch.number} pagada`);
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={`Marcar pagada la nómina N° ${batch.number}`} centered>
      <Stack gap="md">
        <Text size="sm">
          Se completará 'Fecha de Pago' de sus {formatInteger(batch.paymentCount)} pagos con esta fecha: cada
          pago queda con su fecha y su monto en pesos, como si se completara a mano.
        </Text>
        <DateField
          label="Fecha de pago"
          required
          value={paidDate}
          onChange={setPaidDate}
          maxDate={new Date()}
          minDate={batch.earliestPaidDate ? new Date(`${batch.earliestPaidDate}T12:00:00`) : undefined}
          disabled={!batch.canChoosePaidDate}
          description={
            batch.earliestPaidDate
              ? `La fecha en que pagó el banco, desde el ${formatDate(batch.earliestPaidDate)}; una anterior la registra un administrador.`
              : 'La fecha en que pagó el banco.'
          }
        />
        <ErrorAlert error={markPaid.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button onClick={submit} loading={markPaid.isPending} disabled={!paidDate}>
            Marcar pagada
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function CancelDialog({ batch, onClose }: { batch: PaymentBatchView; onClose: () => void }) {
  const cancel = useCancelBatch(batch.id);
  return (
    <Modal opened onClose={onClose} title={`Anular la nómina N° ${batch.number}`} centered>
      <Stack gap="md">
        <Text size="sm">Sus pagos quedan libres para otra nómina. Nada se paga.</Text>
        <ErrorAlert error={cancel.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Volver
          </Button>
          <Button
            color="red"
            loading={cancel.isPending}
            onClick={() =>
              cancel.mutate(batch.version, {
                onSuccess: () => {
                  notifySaved(`Nómina N° ${batch.number} anulada`);
                  onClose();
                },
              })
            }
          >
            Anular nómina
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
