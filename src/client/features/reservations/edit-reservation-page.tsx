import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFolder, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatPercent, formatUF } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type { CommissionView, ReservationView } from '../../../shared/schemas/reservations';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { CommissionDialog } from '../../components/commission-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { AFTER_SAVE } from '../../components/leave-guard';
import { LoadFailed } from '../../components/load-failed';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { HistoryButton } from '../audit';
import { BuyerAccountSection } from '../buyer-accounts';
import { useReservation, useReservationFormOptions, useSaveCommission, useUpdateReservation } from './api';
import { ClientCard } from './client-card';
import { ClientSearchStep } from './client-search-step';
import type { ClientSummary } from './lookups';
import { PromotionsSection } from './promotions-section';
import { knownUnitsOf, ReservationForm, reservationBody, reservationValuesOf } from './reservation-form';
import { useReservationSave } from './use-reservation-save';

function CommissionSummary({
  commission,
  onEdit,
  readOnly,
}: {
  commission: CommissionView;
  onEdit: () => void;
  readOnly: boolean;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Comisión del broker</Title>
        {readOnly ? null : (
          <Button size="xs" variant="light" leftSection={<IconPencil size={14} />} onClick={onEdit}>
            Editar comisión
          </Button>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <div>
          <Text size="xs" c="dimmed">
            Comisión
          </Text>
          <Text fw={600}>{formatUF(commission.commissionAmount)}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Neta
          </Text>
          <Text>{formatUF(commission.netCommission)}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Pagos
          </Text>
          <Text>
            {commission.numberOfPayments === 1
              ? '1 pago'
              : `2 pagos (${formatPercent(commission.firstPaymentPercentage)} / ${formatPercent(100 - commission.firstPaymentPercentage)})`}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Diferencia
          </Text>
          <Text c={commission.difference.startsWith('-') ? 'red' : undefined}>
            {formatUF(commission.difference)}
          </Text>
        </div>
      </SimpleGrid>
    </Paper>
  );
}

function EditReservation({ reservation }: { reservation: ReservationView & { client: ClientSummary } }) {
  const canOverridePolicy = can(useCurrentUser(), 'reservations.overridePolicy');
  const navigate = useNavigate();
  const options = useReservationFormOptions();
  const update = useUpdateReservation(reservation.id);
  const saveCommission = useSaveCommission(reservation.id);
  const [client, setClient] = useState<ClientSummary>(reservation.client);
  const [choosingClient, setChoosingClient] = useState(false);
  const submission = useReservationSave(update, (saved) => {
    notifySaved(`Reserva ${saved.reservationNumber} actualizada`);
    navigate(paths.reservations, { state: AFTER_SAVE });
  });
  const [editingCommission, setEditingCommission] = useState(false);
  const readOnly = reservation.isRescinded;

  if (options.isPending) return <PageLoader />;
  if (options.isError) return <ErrorAlert error={options.error} />;

  return (
    <Stack gap="md">
      {choosingClient ? (
        <ClientSearchStep
          onSelect={(chosen) => {
            setClient(chosen);
            setChoosingClient(false);
          }}
        />
      ) : (
        <ClientCard client={client} onChange={() => setChoosingClient(true)} disabled={readOnly} />
      )}
      <ReservationForm
        canOverridePolicy={canOverridePolicy}
        key={reservation.version}
        initialValues={reservationValuesOf(reservation)}
        initialUnits={knownUnitsOf(reservation)}
        clientId={client.id}
        options={options.data}
        initialBroker={reservation.broker}
        saving={submission.saving}
        failure={submission.failure}
        fieldErrors={submission.fieldErrors}
        submitLabel="Guardar"
        readOnly={readOnly}
        onCancel={() => navigate(paths.reservations)}
        onSubmit={(values) => {
          const body = { ...reservationBody(values, client.id), version: reservation.version };
          // Adding a broker to a reservation without commission: the popup first, then one save.
          if (values.isWithBroker && !reservation.commission) submission.askCommission(body);
          else submission.save(body);
        }}
      />
      {reservation.commission ? (
        <CommissionSummary
          commission={reservation.commission}
          readOnly={readOnly}
          onEdit={() => {
            saveCommission.reset();
            setEditingCommission(true);
          }}
        />
      ) : null}
      <PromotionsSection
        reservationId={reservation.id}
        promotions={reservation.promotions}
        readOnly={readOnly}
      />
      <BuyerAccountSection reservationId={reservation.id} />

      <CommissionDialog
        opened={submission.awaitingCommission !== null}
        reservation={reservation}
        brokerName={reservation.broker?.name}
        saving={submission.saving}
        error={submission.commissionError}
        confirmLabel="Confirmar y guardar"
        onCancel={submission.cancelCommission}
        onConfirm={(commission) => {
          const { version: _none, ...fields } = commission;
          submission.save({ ...submission.awaitingCommission!, commission: fields });
        }}
      />
      <CommissionDialog
        opened={editingCommission}
        commission={reservation.commission}
        reservation={reservation}
        brokerName={reservation.broker?.name}
        saving={saveCommission.isPending}
        error={saveCommission.error}
        confirmLabel="Guardar"
        onCancel={() => setEditingCommission(false)}
        onConfirm={(commission) =>
          saveCommission.mutate(
            { ...commission, version: reservation.commission?.version },
            {
              onSuccess: () => {
                setEditingCommission(false);
                notifySaved('Comisión actualizada');
              },
            },
          )
        }
      />
    </Stack>
  );
}

/** /reservas/editar/{id}: the same form as a new reservation, plus its commission and promotions. */
export default function EditReservationPage() {
  const { id } = useParams();
  const reservation = useReservation(id);
  const title = (
    <PageHeader
      title="Editar Reserva"
      description={reservation.data ? `Reserva N° ${reservation.data.reservationNumber}` : undefined}
      actions={
        reservation.data ? (
          <>
            {reservation.data.isRescinded ? <Badge color="red">Resciliada</Badge> : null}
            <Button
              component={Link}
              to={paths.reservationDocuments(reservation.data.id)}
              variant="default"
              size="sm"
              leftSection={<IconFolder size={16} />}
            >
              Documentos
            </Button>
            <HistoryButton kind="reservations" id={reservation.data.id} />
          </>
        ) : null
      }
    />
  );
  if (reservation.isPending) return <PageLoader />;
  if (reservation.isError) {
    const notFound = reservation.error instanceof ApiError && reservation.error.status === 404;
    return (
      <>
        {title}
        <ErrorAlert
          error={
            notFound
              ? 'No se encontró la reserva'
              : `Error al cargar la reserva: ${reservation.error.message}`
          }
        />
      </>
    );
  }
  const { client } = reservation.data;
  if (!client) {
    return (
      <LoadFailed
        title="Editar Reserva"
        message="No se encontró el cliente asociado a la reserva"
        backTo={paths.reservations}
        backLabel="Volver a Reservas"
      />
    );
  }
  return (
    <>
      {title}
      <EditReservation reservation={{ ...reservation.data, client }} />
    </>
  );
}
