import { Alert, Button, Grid, Group, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconArrowRight,
  IconCoin,
  IconFileTypePdf,
  IconGift,
  IconPlayerPlay,
  IconPlus,
  IconRoute,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorCatalog } from '../../../shared/errors';
import type { PaymentFlowDetail } from '../../../shared/schemas/payments';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { CommissionDialog } from '../../components/commission-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api';
import { download } from '../../lib/download';
import { notifySaved } from '../../lib/notify';
import { HistoryButton } from '../audit';
import { BrokerInvoiceSection } from '../broker-invoices';
import { commissionStatementHref } from '../documents/api';
import { PromotionDialog } from '../reservations';
import { useReservation, useSaveCommission, useSavePromotion } from '../reservations/api';
import { FlowHeaderDescription, FlowShortcuts, HeaderIcon, StagesSection } from '../sale-flows';
import { useInvalidateFlow } from '../sale-flows/api';
import { useOpenPaymentFlow, usePaymentFlow, useStartPaymentFlow } from './api';
import { PaymentInfoCard } from './payment-info-card';
import { ProcessStatusCard } from './process-status-card';
import { RiskDialog } from './risk-dialog';
import { StartDialog } from './start-dialog';

type Dialog = 'risk' | 'promotion' | 'commission' | null;

/** 'Flujo de Pago N° 1234' or 'Segundo Pago N° 1234'. */
export function paymentFlowTitle(flow: Pick<PaymentFlowDetail, 'isSecondPayment' | 'reservation'>): string {
  return `${flow.isSecondPayment ? 'Segundo Pago' : 'Flujo de Pago'} N°\u00a0${flow.reservation.reservationNumber}`;
}

/**
 * The promotion and commission popups edit the reservation: it is read when one of them opens (the
 * commission's live figures need its prices).
 */
function ReservationPopups({
  flow,
  dialog,
  onClose,
}: {
  flow: PaymentFlowDetail;
  dialog: 'promotion' | 'commission';
  onClose: () => void;
}) {
  const reservationId = flow.reservation.id;
  const reservation = useReservation(reservationId);
  const savePromotion = useSavePromotion(reservationId);
  const saveCommission = useSaveCommission(reservationId);
  const invalidatePayments = useInvalidateFlow('payment');

  if (dialog === 'promotion') {
    return (
      <PromotionDialog
        opened
        promotion={null}
        saving={savePromotion.isPending}
        error={savePromotion.error}
        onCancel={onClose}
        onSave={(values) =>
          savePromotion.mutate(
            { values },
            {
              onSuccess: () => {
                notifySaved('Promoción agregada');
                onClose();
              },
            },
          )
        }
      />
    );
  }
  if (!reservation.data) {
    return reservation.isError ? <ErrorAlert error={reservation.error} /> : null;
  }
  const commission = reservation.data.commission;
  return (
    <CommissionDialog
      opened
      commission={commission}
      reservation={reservation.data}
      brokerName={reservation.data.broker?.name}
      saving={saveCommission.isPending}
      error={saveCommission.error}
      confirmLabel="Guardar"
      onCancel={onClose}
      onConfirm={(body) =>
        saveCommission.mutate(
          { ...body, version: commission?.version },
          {
            onSuccess: () => {
              void invalidatePayments();
              notifySaved('Comisión actualizada');
              onClose();
            },
          },
        )
      }
    />
  );
}

function FlowActions({ flow, onDialog }: { flow: PaymentFlowDetail; onDialog: (dialog: Dialog) => void }) {
  const navigate = useNavigate();
  const start = useStartPaymentFlow(flow.id);
  const [confirmingStart, setConfirmingStart] = useState(false);
  const open = useOpenPaymentFlow();
  const rescinded = flow.reservation.isRescinded;
  const otherFlowId = flow.isSecondPayment ? flow.firstFlowId : flow.secondFlowId;

  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        {flow.commands.start.allowed ? (
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            loading={start.isPending}
            onClick={() => {
              start.reset();
              setConfirmingStart(true);
            }}
          >
            Proceder con Pago
          </Button>
        ) : null}
        <StartDialog
          opened={confirmingStart}
          flowTitle={paymentFlowTitle(flow)}
          loading={start.isPending}
          error={start.error}
          onConfirm={() =>
            start.mutate(undefined, {
              onSuccess: () => {
                setConfirmingStart(false);
                notifySaved('Flujo de pago iniciado');
              },
            })
          }
          onClose={() => setConfirmingStart(false)}
        />
        {flow.canCreateSecondPayment ? (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            loading={open.isPending}
            onClick={() =>
              open.mutate(
                { reservationId: flow.reservation.id, which: 'second' },
                { onSuccess: (opened) => navigate(paths.paymentFlow(opened.flowId)) },
              )
            }
          >
            Crear Segundo Pago
          </Button>
        ) : null}
        {flow.commands.markAtRisk.allowed ? (
          <Button
            variant="light"
            color="orange"
            leftSection={<IconAlertTriangle size={16} />}
            onClick={() => onDialog('risk')}
          >
            {flow.commission.atRisk ? 'Editar Estado Riesgo' : 'Marcar En Riesgo'}
          </Button>
        ) : null}
        {rescinded ? null : (
          <>
            <Button
              variant="default"
              leftSection={<IconGift size={16} />}
              onClick={() => onDialog('promotion')}
            >
              Agregar Promoción
            </Button>
            <Button
              variant="default"
              leftSection={<IconCoin size={16} />}
              onClick={() => onDialog('commission')}
            >
              Comisión del Broker
            </Button>
          </>
        )}
        {otherFlowId ? (
          <Button
            component={Link}
            to={paths.paymentFlow(otherFlowId)}
            variant="subtle"
            rightSection={flow.isSecondPayment ? undefined : <IconArrowRight size={16} />}
            leftSection={flow.isSecondPayment ? <IconArrowLeft size={16} /> : undefined}
          >
            {flow.isSecondPayment ? 'Ver Primer Pago' : 'Ver Segundo Pago'}
          </Button>
        ) : null}
      </Group>
      <ErrorAlert error={(confirmingStart ? null : start.error) ?? open.error} />
    </Stack>
  );
}

/**
 * /pagos/flujo/{id}: a commission's payment flow (spec part 2 §2) — the header with its shortcuts,
 * the general information, the process status, the actions ('Proceder con Pago', 'Crear Segundo
 * Pago', at risk, promotion, commission), the broker's invoice and the stages with their tasks (the
 * sale flow's own).
 */
export default function PaymentFlowPage() {
  const { flowId } = useParams<{ flowId: string }>();
  const flow = usePaymentFlow(flowId);
  const [dialog, setDialog] = useState<Dialog>(null);

  if (flow.isPending) return <PageLoader />;
  if (!flow.data) {
    // An address whose id is not even an id (400) is as missing as an unknown one (404).
    const notFound = flow.error instanceof ApiError && [400, 404].includes(flow.error.status);
    return (
      <>
        <PageHeader title="Flujo de Pago" />
        <ErrorAlert error={notFound ? errorCatalog.FLOW_NOT_FOUND.message : flow.error} />
        <Button
          component={Link}
          to={paths.payments}
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
        >
          Volver a Pagos
        </Button>
      </>
    );
  }

  const data = flow.data;
  const { reservation } = data;
  const shortcuts = (
    <FlowShortcuts clientId={data.client.id} reservationId={reservation.id}>
      <HeaderIcon
        label="Editar comisión"
        icon={<IconCoin size={18} />}
        to={paths.commission(reservation.id)}
      />
      <HeaderIcon
        label="Liquidación de Comisión (PDF)"
        icon={<IconFileTypePdf size={18} />}
        onClick={() => void download(commissionStatementHref(reservation.id), { open: true })}
      />
      <HeaderIcon
        label="Flujo de reserva"
        icon={<IconRoute size={18} />}
        to={data.saleFlowId ? paths.reservationFlow(data.saleFlowId) : null}
        disabledReason="Esta reserva no tiene flujo de reserva"
      />
    </FlowShortcuts>
  );

  return (
    <>
      <PageHeader
        title={paymentFlowTitle(data)}
        description={
          <FlowHeaderDescription
            client={data.client}
            projectName={data.project.name}
            apartmentNumber={reservation.apartmentNumber}
            isRescinded={reservation.isRescinded}
          />
        }
        actions={
          <>
            {shortcuts}
            <HistoryButton kind="flows" id={data.id} />
          </>
        }
      />
      <ErrorAlert error={flow.error} />
      <Stack gap="md">
        {reservation.isRescinded ? (
          <Alert color="red" title="Reserva resciliada">
            <Text size="sm">
              {data.status === 'cancelled'
                ? 'Este flujo de pago fue cancelado por la resciliación y no se puede modificar.'
                : 'La reserva fue resciliada: este flujo ya no se puede modificar.'}
            </Text>
          </Alert>
        ) : null}
        <FlowActions flow={data} onDialog={setDialog} />
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <PaymentInfoCard flow={data} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <ProcessStatusCard flow={data} />
          </Grid.Col>
        </Grid>
        {data.status === 'pending' ? (
          <Alert color="yellow" title="Flujo pendiente">
            <Text size="sm">
              {data.commands.start.allowed
                ? 'Las tareas se habilitan al presionar «Proceder con Pago».'
                : 'Las tareas se habilitan cuando un administrador presione «Proceder con Pago».'}
            </Text>
          </Alert>
        ) : null}
        <BrokerInvoiceSection flowId={data.id} reservationId={reservation.id} />
        <StagesSection key={data.id} kind="payment" flow={data} />
      </Stack>

      {dialog === 'risk' ? (
        <RiskDialog opened flowId={data.id} commission={data.commission} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'promotion' || dialog === 'commission' ? (
        <ReservationPopups flow={data} dialog={dialog} onClose={() => setDialog(null)} />
      ) : null}
    </>
  );
}
