import { ActionIcon, Alert, Badge, Button, Grid, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconArrowLeft,
  IconBriefcase,
  IconCash,
  IconCoin,
  IconFileDescription,
  IconFolder,
  IconListCheck,
  IconUser,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../../shared/format';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useUserOptions } from '../users/api';
import { useSaleFlow, useUpdateFlowReservation } from './api';
import { BankCard } from './bank-card';
import { FlowInfoCard, type ReservationPatch } from './flow-info-card';
import { StagesSection } from './stages-section';

/** An icon button of the header: a link when it leads somewhere, otherwise disabled with why. */
function HeaderIcon({
  label,
  icon,
  to,
  disabledReason,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  to?: string | null;
  disabledReason?: string;
  onClick?: () => void;
}) {
  const disabled = !to && !onClick;
  return (
    <Tooltip label={disabled && disabledReason ? disabledReason : label} withArrow>
      {to ? (
        <ActionIcon component={Link} to={to} variant="light" size="lg" aria-label={label}>
          {icon}
        </ActionIcon>
      ) : (
        <ActionIcon variant="light" size="lg" aria-label={label} disabled={disabled} onClick={onClick}>
          {icon}
        </ActionIcon>
      )}
    </Tooltip>
  );
}

/**
 * /flujo-reservas/{id}: a reservation's sale flow (spec part 2 §2) — the header with its shortcuts,
 * the info card with the dates and months edited in place, the rescission box, 'Banco
 * Escrituración' once the project's deadline has passed, and the stages with their tasks.
 */
export default function SaleFlowPage() {
  const { id } = useParams<{ id: string }>();
  const user = useCurrentUser();
  const flow = useSaleFlow(id);
  const users = useUserOptions();
  // The info card and the bank card save apart, each with its own message.
  const update = useUpdateFlowReservation(id ?? '');
  const updateBank = useUpdateFlowReservation(id ?? '');

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
  const saveBank = (patch: ReservationPatch) =>
    updateBank.mutateAsync({ version: reservation.version, ...patch });
  const rescinded = reservation.isRescinded;

  const actions = (
    <Group gap={6} wrap="wrap">
      <HeaderIcon
        label="Editar cliente"
        icon={<IconUser size={18} />}
        to={paths.editClient(data.client.id)}
      />
      <HeaderIcon
        label="Editar reserva"
        icon={<IconFileDescription size={18} />}
        to={paths.editReservation(reservation.id)}
      />
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
        label="Flujo de pago"
        icon={<IconCash size={18} />}
        to={data.paymentFlowId ? paths.paymentFlow(data.paymentFlowId) : null}
        disabledReason={
          data.commissionId
            ? 'El flujo de pago aún no se ha creado: se abre desde Pagos'
            : 'Esta reserva no tiene una comisión configurada'
        }
      />
      <HeaderIcon
        label="Documentos"
        icon={<IconFolder size={18} />}
        onClick={() => notify({ color: 'blue', message: 'Documentos: en desarrollo', autoClose: 3000 })}
      />
      <HeaderIcon label="Seguimiento" icon={<IconListCheck size={18} />} to={paths.followUp} />
      {user.isAdmin && !rescinded ? (
        <Tooltip label="El asistente de resciliación llega con el módulo de Pagos" withArrow>
          <span>
            <Button color="red" variant="outline" size="sm" disabled>
              Resciliar Reserva
            </Button>
          </span>
        </Tooltip>
      ) : null}
    </Group>
  );

  return (
    <>
      <PageHeader
        title={`Flujo de Reserva N°\u00a0${reservation.reservationNumber}`}
        description={
          <Group gap="xs" component="span" wrap="wrap">
            <span>
              {data.client.firstName} {data.client.lastName} · {data.project.name} · Depto.{' '}
              {reservation.apartmentNumber}
            </span>
            {rescinded ? (
              <Badge color="red" size="md">
                Resciliada
              </Badge>
            ) : null}
          </Group>
        }
        actions={actions}
      />
      <ErrorAlert error={flow.error} />
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
                {data.rescission.rescindedBy
                  ? `${data.rescission.rescindedBy.firstName} ${data.rescission.rescindedBy.lastName}`
                  : '—'}
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
        <StagesSection key={data.id} flow={data} users={users.data ?? []} isAdmin={user.isAdmin} />
      </Stack>
    </>
  );
}
