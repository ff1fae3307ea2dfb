import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorCatalog } from '../../../shared/errors';
import { formatPersonName, formatUF } from '../../../shared/format';
import type { ReservationView } from '../../../shared/schemas/reservations';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { CommissionForm } from '../../components/commission-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { AFTER_SAVE, useLeaveGuard } from '../../components/leave-guard';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import { useReservation, useSaveCommission } from '../reservations/api';
import { InfoItem } from '../sale-flows';
import { useInvalidateFlow } from '../sale-flows/api';

const TITLE = 'Editar Comisión';

function BackToPayments() {
  return (
    <Button component={Link} to={paths.payments} variant="default" leftSection={<IconArrowLeft size={16} />}>
      Volver a Pagos
    </Button>
  );
}

/** Who and what the commission is for, and how it stands (at risk, rescinded with its penalty). */
function ReservationSummary({ reservation }: { reservation: ReservationView }) {
  const { commission } = reservation;
  return (
    <Paper withBorder radius="md" p="md">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm">
        <InfoItem label="Cliente">
          <Text size="sm" fw={500}>
            {reservation.client ? formatPersonName(reservation.client) : '—'}
          </Text>
        </InfoItem>
        <InfoItem label="Departamento">
          <Text size="sm">{reservation.apartmentNumber}</Text>
        </InfoItem>
        <InfoItem label="Broker">
          <Text size="sm">{reservation.broker?.name ?? 'Sin broker'}</Text>
        </InfoItem>
        <InfoItem label="Estado">
          <Group gap={6}>
            {reservation.isRescinded ? <Badge color="red">Resciliada</Badge> : null}
            {commission?.atRisk ? <Badge color="orange">En Riesgo</Badge> : null}
            {!reservation.isRescinded && !commission?.atRisk ? <Text size="sm">Vigente</Text> : null}
          </Group>
        </InfoItem>
        {commission?.atRisk ? (
          <InfoItem label="Motivo del Riesgo">
            <Text size="sm">{commission.atRiskReason}</Text>
          </InfoItem>
        ) : null}
        {commission?.penaltyAmount ? (
          <InfoItem label="Multa por resciliación" testId="penalty-amount">
            <Text size="sm" fw={600} c="red">
              {formatUF(commission.penaltyAmount)}
            </Text>
          </InfoItem>
        ) : null}
      </SimpleGrid>
    </Paper>
  );
}

function CommissionEditor({ reservation }: { reservation: ReservationView }) {
  const navigate = useNavigate();
  const save = useSaveCommission(reservation.id);
  const invalidatePayments = useInvalidateFlow('payment');
  const [dirty, setDirty] = useState(false);
  // A broker without a commission: the screen says so and offers to create one.
  const [creating, setCreating] = useState(false);
  const leaveGuard = useLeaveGuard(dirty);
  const { commission } = reservation;

  if (!reservation.broker) {
    return <ErrorAlert error={errorCatalog.NO_BROKER_COMMISSION.message} />;
  }
  if (!commission && !creating) {
    return (
      <Alert color="yellow" title={errorCatalog.COMMISSION_NOT_CONFIGURED.message}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">Configure la comisión del broker {reservation.broker.name} para esta reserva.</Text>
          {reservation.isRescinded ? null : (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Configurar Comisión
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Comisión del Broker · {reservation.broker.name}
      </Title>
      <CommissionForm
        // A saved commission comes back with a new version: the form starts again from it.
        key={commission?.version ?? 'new'}
        commission={commission}
        reservation={reservation}
        readOnly={reservation.isRescinded}
        saving={save.isPending}
        error={save.error}
        confirmLabel="Guardar"
        onDirtyChange={setDirty}
        onCancel={() => navigate(paths.payments)}
        onConfirm={(body) =>
          save.mutate(
            { ...body, version: commission?.version },
            {
              onSuccess: () => {
                void invalidatePayments();
                notifySaved(commission ? 'Comisión actualizada' : 'Comisión creada');
                navigate(paths.payments, { state: AFTER_SAVE });
              },
            },
          )
        }
      />
      {leaveGuard}
    </Paper>
  );
}

/**
 * /pagos/{reservationId} 'Editar Comisión' (spec part 2 §2): the broker commission with its figures
 * (base, percentage, net, each payment, difference); a payment's date is set by its flow once that
 * flow exists, and shows read-only.
 */
export default function CommissionPage() {
  const { reservationId } = useParams<{ reservationId: string }>();
  const reservation = useReservation(reservationId);

  if (reservation.isPending) return <PageLoader />;
  if (reservation.isError) {
    const notFound = reservation.error instanceof ApiError && reservation.error.status === 404;
    return (
      <>
        <PageHeader title={TITLE} actions={<BackToPayments />} />
        <ErrorAlert
          error={notFound ? errorCatalog.PAYMENT_RESERVATION_NOT_FOUND.message : reservation.error}
        />
      </>
    );
  }
  const data = reservation.data;
  return (
    <>
      <PageHeader
        title={TITLE}
        description={`Reserva N°\u00a0${data.reservationNumber} · Depto. ${data.apartmentNumber}`}
        actions={<BackToPayments />}
      />
      <Stack gap="md">
        <ReservationSummary reservation={data} />
        <CommissionEditor reservation={data} />
      </Stack>
    </>
  );
}
