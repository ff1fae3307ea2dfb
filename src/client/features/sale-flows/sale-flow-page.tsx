import { Alert, Button, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconBriefcase, IconCash, IconCoin, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDateTime, formatPersonName } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { download } from '../../lib/download';
import { useCurrentUser } from '../../lib/session';
import { HistoryButton } from '../audit';
import { AccountBalanceCard } from '../buyer-accounts';
import { receiptHref } from '../documents/api';
import { RescissionDialog } from '../payments';
import { useOpenPaymentFlow } from '../payments/api';
import { useSaleFlow, useUpdateFlowReservation } from './api';
import { BankCard } from './bank-card';
import { FlowHeaderDescription, FlowShortcuts, HeaderIcon } from './flow-header';
import { FlowInfoCard, type ReservationPatch } from './flow-info-card';
import { StagesSection } from './stages-section';

/**
 * /flujo-reservas/{id}: a reservation's sale flow (spec part 2 §2) — the header with its shortcuts,
 * the info card with the dates and months edited in place, the rescission box, 'Banco
 * Escrituración' once the project's deadline has passed, and the stages with their tasks.
 */
export default function SaleFlowPage() {
  const { id } = useParams<{ id: string }>();
  const user = useCurrentUser();
  const flow = useSaleFlow(id);
  // The info card and the bank card save apart, each with its own message.
  const update = useUpdateFlowReservation(id ?? '');
  const updateBank = useUpdateFlowReservation(id ?? '');
  const navigate = useNavigate();
  const openPaymentFlow = useOpenPaymentFlow();
  const [rescinding, setRescinding] = useState(false);

  if (flow.isLoading) {
    return (
      <Group justify="center" py="xl">
        <Loader />
      </Group>
    );
  }
  if (!flow.data) {
    return (
      <>
        <PageHeader title="Flujo de Reserva" />
        <ErrorAlert error={flow.error ?? 'Flujo no encontrado'} />
        <Button
          component={Link}
          to={paths.reservationFlows}
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
        >
          Volver a Flujo de Reservas
        </Button>
      </>
    );
  }

  const data = flow.data;
  const { reservation } = data;
  const save = (patch: ReservationPatch) => update.mutateAsync({ version: reservation.version, ...patch });
  const saveBank = (patch: ReservationPatch, version: number) =>
    updateBank.mutateAsync({ version, ...patch });
  const rescinded = reservation.isRescinded;

  const actions = (
    <>
      <FlowShortcuts clientId={data.client.id} reservationId={reservation.id}>
        <HeaderIcon
          label="Editar broker"
          icon={<IconBriefcase size={18} />}
          to={data.broker ? paths.editBroker(data.broker.id) : null}
          disabledReason="Reserva sin broker"
        />
        <HeaderIcon
          label="Editar comisión"
          icon={<IconCoin size={18} />}
          to={reservation.isWithBroker ? paths.commission(reservation.id) : null}
          disabledReason="Reserva sin broker: no lleva comisión"
        />
        <HeaderIcon
          label="Comprobante de Reserva (PDF)"
          icon={<IconFileTypePdf size={18} />}
          onClick={() => void download(receiptHref(reservation.id), { open: true })}
        />
        <HeaderIcon
          label="Flujo de pago"
          icon={<IconCash size={18} />}
          to={data.paymentFlowId ? paths.paymentFlow(data.paymentFlowId) : null}
          // No payment flow yet: opening it creates the first one (spec part 2 §2).
          onClick={
            !data.paymentFlowId && data.commissionId
              ? () =>
                  openPaymentFlow.mutate(
                    { reservationId: reservation.id, which: 'first' },
                    { onSuccess: (opened) => navigate(paths.paymentFlow(opened.flowId)) },
                  )
              : undefined
          }
          loading={openPaymentFlow.isPending}
          disabledReason="Esta reserva no tiene una comisión configurada"
        />
      </FlowShortcuts>
      <HistoryButton kind="flows" id={data.id} />
      {can(user, 'reservations.rescind') && !rescinded ? (
        <Button color="red" variant="outline" size="sm" onClick={() => setRescinding(true)}>
          Resciliar Reserva
        </Button>
      ) : null}
    </>
  );

  return (
    <>
      <PageHeader
        title={`Flujo de Reserva N°\u00a0${reservation.reservationNumber}`}
        description={
          <FlowHeaderDescription
            client={data.client}
            projectName={data.project.name}
            apartmentNumber={reservation.apartmentNumber}
            isRescinded={rescinded}
          />
        }
        actions={actions}
      />
      <ErrorAlert error={flow.error ?? openPaymentFlow.error} />
      <Stack gap="md">
        {data.rescission ? (
          <Alert color="red" title="Reserva resciliada" role="region" aria-label="Resciliación">
            <Stack gap={2}>
              <Text size="sm">
                <strong>Motivo:</strong> {data.rescission.reason ?? '—'}
              </Text>
              <Text size="sm">
                <strong>Fecha:</strong>{' '}
                {data.rescission.rescindedAt ? formatDateTime(data.rescission.rescindedAt) : '—'}
              </Text>
              <Text size="sm">
                <strong>Por:</strong>{' '}
                {data.rescission.rescindedBy ? formatPersonName(data.rescission.rescindedBy) : '—'}
              </Text>
            </Stack>
          </Alert>
        ) : null}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: data.project.isDeadlinePassed ? 8 : 12 }}>
            <FlowInfoCard flow={data} onSave={save} saving={update.isPending} error={update.error} />
          </Grid.Col>
          {data.project.isDeadlinePassed ? (
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <BankCard flow={data} onSave={saveBank} saving={updateBank.isPending} />
            </Grid.Col>
          ) : null}
        </Grid>
        <AccountBalanceCard reservationId={reservation.id} />
        <StagesSection key={data.id} kind="sale" flow={data} />
      </Stack>
      {rescinding ? (
        <RescissionDialog
          opened
          reservationId={reservation.id}
          reservationNumber={reservation.reservationNumber}
          onClose={() => setRescinding(false)}
        />
      ) : null}
    </>
  );
}
