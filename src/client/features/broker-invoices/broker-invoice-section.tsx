import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconFileCode,
  IconFolder,
  IconHourglass,
  IconPencil,
  IconScale,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  BROKER_INVOICE_KIND_LABELS,
  BROKER_INVOICE_SOURCE_LABELS,
} from '../../../shared/domain/broker-invoices';
import { formatRut } from '../../../shared/domain/rut';
import { UF_MISSING_LABEL } from '../../../shared/domain/uf';
import { formatCLP, formatDate, formatDateTime, formatUfValue } from '../../../shared/format';
import type { InvoiceTaskView } from '../../../shared/schemas/broker-invoices';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { notifySaved } from '../../lib/notify';
import { InfoItem } from '../sale-flows';
import { AcceptanceDialog } from './acceptance-dialog';
import { base64Of, useFlowInvoices, useUploadInvoiceXml } from './api';
import { InvoiceDialog } from './invoice-dialog';

type CheckLine = NonNullable<InvoiceTaskView['check']>['lines'][number];

const lineValue = (line: CheckLine, value: string | null) =>
  value === null ? null : line.key === 'issuerRut' ? formatRut(value) : formatCLP(value);

/** Where the invoice stands, in one badge. */
function StandingBadge({ task }: { task: InvoiceTaskView }) {
  if (!task.invoice || !task.check) return <Badge color="gray">Sin factura</Badge>;
  if (task.check.matches) return <Badge color="green">Cuadra con el pago</Badge>;
  if (task.invoice.acceptance) return <Badge color="yellow">Diferencia aceptada</Badge>;
  return <Badge color="red">No cuadra con el pago</Badge>;
}

/** The check line by line: what the payment asks for against what the invoice says. */
function CheckTable({ lines }: { lines: CheckLine[] }) {
  return (
    <Table.ScrollContainer minWidth={300} type="native">
      <Table
        striped
        withTableBorder
        fz="sm"
        data-testid="invoice-check"
        verticalSpacing={6}
        horizontalSpacing="xs"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Concepto</Table.Th>
            <Table.Th ta="right">Esperado</Table.Th>
            <Table.Th ta="right">Recibido</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr
              key={line.key}
              data-testid={`invoice-line-${line.key}`}
              data-matches={line.matches}
              c={line.matches ? undefined : 'red.9'}
            >
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  {line.matches ? (
                    <IconCheck size={16} color="var(--mantine-color-green-7)" aria-label="Cuadra" />
                  ) : (
                    <IconX size={16} color="var(--mantine-color-red-7)" aria-label="No cuadra" />
                  )}
                  <span>{line.label.replace(' %', '\u00a0%')}</span>
                </Group>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {lineValue(line, line.expected) ?? (
                  <Text span size="sm" fs="italic" style={{ whiteSpace: 'normal' }}>
                    {line.note}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {lineValue(line, line.received)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** What the payment is worth in pesos for this check, and from which UF value. */
function ExpectedText({
  expected,
  isFees,
}: {
  expected: NonNullable<InvoiceTaskView['expected']>;
  /** A boleta de honorarios: its gross is the payment; it speaks of retención, not IVA (issue 53). */
  isFees: boolean;
}) {
  if (expected.clp === null) {
    return (
      <Text size="sm" fs="italic">
        {UF_MISSING_LABEL} ({formatDate(expected.ufDate)})
      </Text>
    );
  }
  // Amounts never break between '$' and the figure.
  const keep = (text: string) => text.replace(/ /g, '\u00a0');
  return (
    <>
      <Text size="sm" fw={600}>
        {keep(formatCLP(expected.clp))}
      </Text>
      <Text size="xs" c="dimmed">
        {isFees ? 'Monto bruto, con retención' : expected.includesVat ? 'IVA incluido' : 'Más IVA'} ·{' '}
        {expected.basis === 'frozen' ? 'pagado con UF' : 'UF'} {keep(formatUfValue(expected.ufValue))} del{' '}
        {formatDate(expected.ufDate)}
      </Text>
    </>
  );
}

type Dialog = 'manual' | 'accept' | null;

function InvoiceTaskCard({
  flowId,
  reservationId,
  task,
}: {
  flowId: string;
  reservationId: string;
  task: InvoiceTaskView;
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const upload = useUploadInvoiceXml(flowId, task.taskRowId);
  const { invoice, check } = task;

  const pickXml = async (file: File | null) => {
    if (!file) return;
    upload.reset();
    upload.mutate(
      { content: await base64Of(file), version: invoice?.version },
      { onSuccess: () => notifySaved('Factura leída del XML y registrada') },
    );
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid="broker-invoice">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={4}>Factura del broker</Title>
          <Text size="xs" c="dimmed">
            {task.taskName} · {task.broker.name} ({formatRut(task.broker.rut)})
          </Text>
        </Stack>
        <Group gap="xs" wrap="wrap">
          {task.claim ? (
            <Badge
              color={task.claim.isExpired ? 'gray' : task.claim.daysLeft <= 2 ? 'orange' : 'blue'}
              variant="light"
              leftSection={<IconHourglass size={12} />}
              data-testid="invoice-claim"
              style={{ textTransform: 'none' }}
            >
              {task.claim.label}
            </Badge>
          ) : null}
          <StandingBadge task={task} />
        </Group>
      </Group>

      <ErrorAlert error={upload.error} />

      {invoice && check ? (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md" verticalSpacing="xs">
            <InfoItem label="Documento">
              <Text size="sm">{BROKER_INVOICE_KIND_LABELS[invoice.kind]}</Text>
            </InfoItem>
            {invoice.folio === null ? null : (
              <InfoItem label="Folio" testId="invoice-folio">
                <Text size="sm">{invoice.folio}</Text>
              </InfoItem>
            )}
            <InfoItem label="Emisión">
              <Text size="sm">{formatDate(invoice.issueDate)}</Text>
            </InfoItem>
            <InfoItem label="Recepción">
              <Text size="sm">{formatDate(invoice.receivedDate)}</Text>
            </InfoItem>
            <InfoItem label="Origen">
              <Text size="sm">{BROKER_INVOICE_SOURCE_LABELS[invoice.source]}</Text>
            </InfoItem>
            {task.expected ? (
              <InfoItem label="Pago en pesos" testId="invoice-expected">
                <ExpectedText expected={task.expected} isFees={task.invoice?.kind === 'fees'} />
              </InfoItem>
            ) : null}
          </SimpleGrid>
          <CheckTable lines={check.lines} />
          {invoice.acceptance ? (
            <Alert
              color="yellow"
              icon={<IconScale size={18} />}
              title="Diferencia aceptada"
              data-testid="invoice-acceptance"
            >
              <Text size="sm">
                {invoice.acceptance.byName ?? 'Un administrador'} el {formatDateTime(invoice.acceptance.at)}:{' '}
                {invoice.acceptance.reason}
              </Text>
            </Alert>
          ) : null}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          Aún no se registra la factura del broker de este pago.
        </Text>
      )}

      {task.completionBlock ? (
        <Alert mt="sm" color="orange" icon={<IconAlertTriangle size={18} />} data-testid="invoice-block">
          <Text size="sm">{task.completionBlock}</Text>
        </Alert>
      ) : null}

      <Group gap="sm" mt="md" wrap="wrap">
        {task.canRecord ? (
          <>
            <FileButton onChange={(file) => void pickXml(file)} accept=".xml,text/xml,application/xml">
              {(props) => (
                <Button
                  {...props}
                  variant={invoice ? 'default' : 'filled'}
                  leftSection={<IconFileCode size={16} />}
                  loading={upload.isPending}
                >
                  {invoice ? 'Reemplazar con XML' : 'Subir XML'}
                </Button>
              )}
            </FileButton>
            <Button
              variant="default"
              leftSection={<IconPencil size={16} />}
              onClick={() => setDialog('manual')}
            >
              {invoice ? 'Corregir a mano' : 'Ingresar a mano'}
            </Button>
          </>
        ) : null}
        {task.canAccept ? (
          <Button
            color="orange"
            variant="light"
            leftSection={<IconScale size={16} />}
            onClick={() => setDialog('accept')}
          >
            Aceptar diferencia
          </Button>
        ) : null}
        {/* The PDF is kept with the reservation's papers (type 'Factura del broker', decision 0037). */}
        <Button
          component={Link}
          to={paths.reservationDocuments(reservationId)}
          variant="subtle"
          leftSection={<IconFolder size={16} />}
        >
          PDF en Documentos
        </Button>
      </Group>

      {dialog === 'manual' ? (
        <InvoiceDialog
          flowId={flowId}
          taskRowId={task.taskRowId}
          brokerRut={task.broker.rut}
          invoice={invoice}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'accept' && invoice ? (
        <AcceptanceDialog
          flowId={flowId}
          taskRowId={task.taskRowId}
          version={invoice.version}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Paper>
  );
}

/**
 * The broker's invoice of a payment flow (issue 33): per task that receives it, the document as
 * recorded, the check against the payment line by line, Ley 19.983's countdown, and what the server
 * says the user may do (record, correct, accept a difference). Nothing when the flow has no such task.
 */
export function BrokerInvoiceSection({ flowId, reservationId }: { flowId: string; reservationId: string }) {
  const invoices = useFlowInvoices(flowId);
  if (invoices.isError) return <ErrorAlert error={invoices.error} />;
  if (!invoices.data || invoices.data.tasks.length === 0) return null;
  return (
    <Stack gap="md">
      {invoices.data.tasks.map((task) => (
        <InvoiceTaskCard key={task.taskRowId} flowId={flowId} reservationId={reservationId} task={task} />
      ))}
    </Stack>
  );
}
