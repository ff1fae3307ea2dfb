import { Alert, Anchor } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { reservationFigures } from '../../../shared/domain/pricing';
import { santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { paths } from '../../app/paths';
import { PageLoader } from '../../app/shell/app-layout';
import { CommissionDialog } from '../../components/commission-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { AFTER_SAVE } from '../../components/leave-guard';
import { PageHeader } from '../../components/page-header';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useClient } from '../clients/api';
import { useCreateReservation, useReservationFormOptions } from './api';
import { ClientCard } from './client-card';
import { ClientSearchStep } from './client-search-step';
import {
  emptyReservationValues,
  ReservationForm,
  type ReservationFormValues,
  reservationBody,
} from './reservation-form';
import { useReservationSave } from './use-reservation-save';

const CLIENT_PARAM = 'clienteId';

/**
 * /reservas/nueva: first the client (search, or create one and come back with it chosen), then the
 * form. With a broker, the commission popup opens before anything is saved: confirming creates the
 * reservation and its commission together; cancelling saves nothing and keeps the form as it was.
 */
export default function NewReservationPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const clientId = params.get(CLIENT_PARAM);
  // A client just created in /clientes/nuevo comes back here with its id.
  const client = useClient(clientId ?? undefined);
  const options = useReservationFormOptions();
  const user = useCurrentUser();
  const canCreateProjects = can(user, 'projects.manage');
  const canOverridePolicy = can(user, 'reservations.overridePolicy');
  const create = useCreateReservation();
  const today = useMemo(() => santiagoDateOf(new Date()), []);
  const submission = useReservationSave(create, (reservation) => {
    notifySaved(`Reserva ${reservation.reservationNumber} creada`);
    navigate(paths.reservations, { state: AFTER_SAVE });
  });
  const { awaitingCommission } = submission;
  // What was typed survives 'Cambiar Cliente' (the form is shown again for the new client).
  const [draft, setDraft] = useState<ReservationFormValues | null>(null);

  const header = <PageHeader title="Nueva Reserva" description="Registre la reserva de un departamento" />;

  if (!clientId) {
    return (
      <>
        {header}
        <ClientSearchStep
          returnTo={paths.newReservation}
          onSelect={(chosen) => setParams({ [CLIENT_PARAM]: chosen.id })}
        />
      </>
    );
  }
  if (client.isPending || options.isPending) return <PageLoader />;
  if (client.isError)
    return (
      <>
        {header}
        <ErrorAlert error={`Error al cargar el cliente: ${client.error.message}`} />
      </>
    );
  if (options.isError)
    return (
      <>
        {header}
        <ErrorAlert error={options.error} />
      </>
    );

  // The popup's live figures come from the same shared math the server uses.
  const pendingFigures = awaitingCommission
    ? {
        ...reservationFigures(awaitingCommission),
        parkingPrice: awaitingCommission.parkingPrice ?? '0',
        storagePrice: awaitingCommission.storagePrice ?? '0',
      }
    : null;

  return (
    <>
      {header}
      <ClientCard client={client.data} onChange={() => setParams({})} disabled={submission.saving} />
      {options.data.projects.length === 0 ? (
        <Alert color="yellow" mb="md">
          Aún no hay proyectos registrados. Un administrador debe crearlos en Configuración antes de registrar
          reservas.
          {canCreateProjects ? (
            <>
              {' '}
              <Anchor component={Link} to={paths.newSettingsRecord('inmobiliarias')} size="sm">
                Crear inmobiliaria
              </Anchor>
              {' · '}
              <Anchor component={Link} to={paths.newSettingsRecord('proyectos')} size="sm">
                Crear proyecto
              </Anchor>
            </>
          ) : null}
        </Alert>
      ) : null}
      <ReservationForm
        canOverridePolicy={canOverridePolicy}
        initialValues={emptyReservationValues(options.data.defaultSellerId, today)}
        draft={draft}
        onValuesChange={setDraft}
        clientId={client.data.id}
        options={options.data}
        initialBroker={null}
        saving={submission.saving}
        failure={submission.failure}
        fieldErrors={submission.fieldErrors}
        submitLabel="Crear Reserva"
        onCancel={() => navigate(paths.reservations)}
        onSubmit={(values) => {
          const body = reservationBody(values, client.data.id);
          if (values.isWithBroker) submission.askCommission(body);
          else submission.save(body);
        }}
      />
      {pendingFigures ? (
        <CommissionDialog
          opened
          reservation={pendingFigures}
          saving={submission.saving}
          error={submission.commissionError}
          confirmLabel="Confirmar y crear reserva"
          onCancel={submission.cancelCommission}
          onConfirm={(commission) => {
            const { version: _none, ...fields } = commission;
            submission.save({ ...awaitingCommission!, commission: fields });
          }}
        />
      ) : null}
    </>
  );
}
