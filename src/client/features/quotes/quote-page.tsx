import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { unitKindLabels } from '../../../shared/domain/stock';
import {
  formatCLP,
  formatDate,
  formatFractionAsPercent,
  formatUF,
  formatUfValue,
} from '../../../shared/format';
import { QUOTE_STATE_LABELS, type QuoteView } from '../../../shared/schemas/quotes';
import { paths } from '../../app/paths';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { FormDialog } from '../../components/form-dialog';
import { PageHeader } from '../../components/page-header';
import { RutInput } from '../../components/rut-input';
import { ApiError } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import { useDuplicateQuote, useQuote, useReserveQuote } from './api';
import { STATE_COLORS } from './quotes-list-page';

/** Refusals of 'Reservar' that 'Recotizar' answers: the quote expired, a unit was taken, prices changed. */
const REQUOTE_CODES = new Set(['QUOTE_EXPIRED', 'QUOTE_UNIT_TAKEN', 'QUOTE_PRICES_CHANGED']);

/** /cotizaciones/{id}: the quote as the server priced it, 'Reservar' and 'Recotizar' / 'Duplicar'. */
export default function QuotePage() {
  const { id } = useParams();
  const quote = useQuote(id);
  if (quote.error) return <ErrorAlert error={quote.error} />;
  if (!quote.data) return <Text c="dimmed">Cargando…</Text>;
  return <QuoteDetail quote={quote.data} />;
}

function QuoteDetail({ quote }: { quote: QuoteView }) {
  const navigate = useNavigate();
  const duplicate = useDuplicateQuote();
  const reserve = useReserveQuote(quote.id);
  const [reserving, setReserving] = useState(false);
  const [number, setNumber] = useState(`R-${quote.number}`);
  const [rut, setRut] = useState(quote.prospectRut ?? '');
  const [firstName, setFirstName] = useState(quote.prospectName.split(' ')[0] ?? '');
  const [lastName, setLastName] = useState(quote.prospectName.split(' ').slice(1).join(' '));
  const [birthDate, setBirthDate] = useState<string | null>(null);
  const refusal = reserve.error instanceof ApiError ? reserve.error : null;

  const requote = async () => {
    const copy = await duplicate.mutateAsync(quote.id);
    notifySaved(`Cotización N° ${copy.number} creada con los precios vigentes`);
    navigate(paths.quote(copy.id));
  };
  const submitReserve = async () => {
    const client = birthDate
      ? { rut, firstName, lastName, birthDate, email: quote.prospectEmail, phone: quote.prospectPhone ?? '' }
      : undefined;
    const done = await reserve.mutateAsync({ reservationNumber: number, ...(client ? { client } : {}) });
    notifySaved('Reserva creada desde la cotización');
    setReserving(false);
    navigate(paths.editReservation(done.reservationId));
  };

  const lines: [string, string, string][] = [
    ['Precio lista', quote.listPrice, quote.clp.listPrice],
    ['Precio final', quote.finalPrice, quote.clp.finalPrice],
    ['Reserva', quote.reservationAmount, quote.clp.reservation],
    [`Pie (${formatFractionAsPercent(quote.downPaymentFraction)})`, quote.downPayment, quote.clp.downPayment],
    [`${quote.installments.length} cuotas de`, quote.installments[0] ?? '0', quote.clp.installment],
    ['Subsidio', quote.subsidyAmount, quote.clp.subsidy],
    ['Crédito hipotecario', quote.creditAmount, quote.clp.credit],
  ];

  return (
    <>
      <PageHeader
        title={`Cotización N° ${quote.number}`}
        description={`${quote.projectName} · ${quote.prospectName}`}
        actions={
          <>
            <Button variant="default" loading={duplicate.isPending} onClick={requote}>
              Duplicar
            </Button>
            {quote.state === 'vigente' ? <Button onClick={() => setReserving(true)}>Reservar</Button> : null}
          </>
        }
      />
      <Stack maw={900}>
        <ErrorAlert error={duplicate.error} />
        <Group>
          <Badge color={STATE_COLORS[quote.state]} variant="light" size="lg">
            {QUOTE_STATE_LABELS[quote.state]}
            {quote.reservationNumber ? ` · Reserva N° ${quote.reservationNumber}` : ''}
          </Badge>
          <Text size="sm" c="dimmed">
            Vigente hasta el {formatDate(quote.validUntil)} · UF del {formatDate(quote.ufDate)}:{' '}
            {formatUfValue(quote.ufValue)}
            {quote.priceListDate ? ` · Lista de precios del ${formatDate(quote.priceListDate)}` : ''}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="xs">
              Prospecto
            </Title>
            <Text>{quote.prospectName}</Text>
            <Text size="sm">{quote.prospectEmail}</Text>
            {quote.prospectPhone ? <Text size="sm">{quote.prospectPhone}</Text> : null}
            <Text size="sm" c="dimmed" mt="xs">
              Cotizó: {quote.brokerName ?? quote.sellerName ?? '—'}
            </Text>
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="xs">
              Unidades
            </Title>
            {quote.units.map((unit) => (
              <Group key={unit.unitId} justify="space-between">
                <Text size="sm">
                  {unitKindLabels[unit.kind]} {unit.number}
                </Text>
                <Text size="sm">{formatUF(unit.price)}</Text>
              </Group>
            ))}
          </Paper>
        </SimpleGrid>
        <Paper withBorder p="md" radius="md">
          <Title order={4} mb="xs">
            Plan de pago
          </Title>
          <Table.ScrollContainer minWidth={300}>
            {/* Small and tight on a phone, so the three columns fit 390 px without wrapping an amount. */}
            <Table aria-label="Plan de pago" fz={{ base: 'sm', sm: 'md' }} horizontalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Concepto</Table.Th>
                  <Table.Th ta="right">UF</Table.Th>
                  <Table.Th ta="right">Pesos</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.map(([label, uf, clp]) => (
                  <Table.Tr key={label}>
                    <Table.Td>{label}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {label.includes('cuotas') ? `UF ${uf.replace('.', ',')}` : formatUF(uf)}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatCLP(clp)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      </Stack>
      <FormDialog
        opened={reserving}
        title="Reservar desde la cotización"
        saving={reserve.isPending}
        error={refusal && REQUOTE_CODES.has(refusal.code) ? null : reserve.error}
        submitLabel="Reservar"
        onSubmit={submitReserve}
        onClose={() => {
          reserve.reset();
          setReserving(false);
        }}
      >
        {refusal && REQUOTE_CODES.has(refusal.code) ? (
          <Alert color="orange" title="No se pudo reservar">
            <Text size="sm" mb="sm">
              {refusal.message}
            </Text>
            <Button size="xs" onClick={requote} loading={duplicate.isPending}>
              Recotizar
            </Button>
          </Alert>
        ) : null}
        <TextInput
          label="N° de reserva"
          required
          value={number}
          onChange={(event) => setNumber(event.currentTarget.value)}
        />
        <Text size="sm" c="dimmed">
          Si el prospecto ya es cliente, se usa el cliente de su RUT; si no, complete sus datos para crearlo.
        </Text>
        <RutInput label="RUT" value={rut} onChange={(value) => setRut(value)} />
        <TextInput
          label="Nombres"
          value={firstName}
          onChange={(event) => setFirstName(event.currentTarget.value)}
        />
        <TextInput
          label="Apellidos"
          value={lastName}
          onChange={(event) => setLastName(event.currentTarget.value)}
        />
        <DateField
          label="Fecha de Nacimiento"
          value={birthDate}
          onChange={setBirthDate}
          maxDate={new Date()}
          clearable
        />
      </FormDialog>
    </>
  );
}
