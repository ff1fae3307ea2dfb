import { Paper, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { formatPersonName, formatRut } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { type Client, clientBody } from '../../../shared/schemas/clients';
import { paths } from '../../app/paths';
import { DateField } from '../../components/date-field';
import { AFTER_SAVE, useLeaveGuard } from '../../components/leave-guard';
import { PageHeader } from '../../components/page-header';
import { FormActions, FormFailureAlert, RecordFormPage, useRecordSubmit } from '../../components/record-form';
import { RutInput } from '../../components/rut-input';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { HistoryButton } from '../audit';
import { HolderDataMenu, RestrictionAlert } from '../data-requests';
import { useClient, useSaveClient } from './api';

interface ClientFormValues {
  rut: string;
  firstName: string;
  lastName: string;
  birthDate: string | null;
  phone: string;
  email: string;
}

function valuesOf(client: Client | undefined): ClientFormValues {
  return {
    rut: client ? formatRut(client.rut) : '',
    firstName: client?.firstName ?? '',
    lastName: client?.lastName ?? '',
    birthDate: client?.birthDate ?? null,
    phone: client?.phone ?? '',
    email: client?.email ?? '',
  };
}

/** /clientes/nuevo and /clientes/editar/{id}. */
export default function ClientFormPage() {
  const { id } = useParams();
  const title = id ? 'Editar Cliente' : 'Nuevo Cliente';
  return (
    <RecordFormPage
      id={id}
      record={useClient(id)}
      title={title}
      what="el cliente"
      backTo={paths.clients}
      backLabel="Volver a Clientes"
    >
      {({ record, onReload }) => <ClientForm title={title} client={record} onReload={onReload} />}
    </RecordFormPage>
  );
}

/** A return path from the query string, only when it stays inside the app ('/x', never '//host'). */
export function safeReturnPath(value: string | null): string | null {
  return value && /^\/(?!\/)[\w\-/]*$/.test(value) ? value : null;
}

function ClientForm({
  title,
  client,
  onReload,
}: {
  title: string;
  client: Client | undefined;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const user = useCurrentUser();
  // Holders' data rights (Ley 21.719): the export and lifting a restriction are administrators'.
  const managesHolderData = can(user, 'dataRequests.manage');
  const save = useSaveClient(client?.id);
  // A new client started from another screen (the reservation's client step) goes back there with
  // the client chosen: ?volver=/reservas/nueva. Only paths inside the app are followed.
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get('volver'));
  const listUrl = returnTo ?? paths.clients + ((location.state as { from?: string } | null)?.from ?? '');

  const form = useForm<ClientFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(client),
    validate: schemaResolver(clientBody, { sync: true }),
  });
  const leaveGuard = useLeaveGuard(form.isDirty() && !save.isPending);

  const { submit, failure } = useRecordSubmit(form, async (values) => {
    const body = { ...values, birthDate: values.birthDate ?? '' };
    const saved = await save.mutateAsync(client ? { ...body, version: client.version } : body);
    notifySaved(client ? 'Cliente actualizado' : 'Cliente creado');
    navigate(returnTo ? `${returnTo}?clienteId=${saved.id}` : listUrl, { state: AFTER_SAVE });
  });

  return (
    <>
      <PageHeader
        title={title}
        actions={
          client ? (
            <>
              {managesHolderData ? <HolderDataMenu clientId={client.id} /> : null}
              <HistoryButton kind="clients" id={client.id} />
            </>
          ) : undefined
        }
      />
      {leaveGuard}
      <form onSubmit={submit} noValidate>
        <Stack maw={760}>
          {client?.restriction ? (
            <RestrictionAlert
              clientId={client.id}
              clientName={formatPersonName(client)}
              restriction={client.restriction}
              reason={client.restrictionReason}
              mayLift={managesHolderData}
            />
          ) : null}
          <FormFailureAlert failure={failure} onReload={client ? onReload : undefined} />
          <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <RutInput label="RUT" required key={form.key('rut')} {...form.getInputProps('rut')} />
              <DateField
                label="Fecha de Nacimiento"
                required
                maxDate={new Date()}
                defaultLevel={client ? 'month' : 'decade'}
                key={form.key('birthDate')}
                {...form.getInputProps('birthDate')}
              />
              <TextInput
                label="Nombres"
                required
                autoComplete="off"
                key={form.key('firstName')}
                {...form.getInputProps('firstName')}
              />
              <TextInput
                label="Apellidos"
                required
                autoComplete="off"
                key={form.key('lastName')}
                {...form.getInputProps('lastName')}
              />
              <TextInput
                label="Teléfono"
                type="tel"
                autoComplete="off"
                placeholder="+56 9 1234 5678"
                key={form.key('phone')}
                {...form.getInputProps('phone')}
              />
              <TextInput
                label="Correo Electrónico"
                type="email"
                autoComplete="off"
                key={form.key('email')}
                {...form.getInputProps('email')}
              />
            </SimpleGrid>
          </Paper>
          <FormActions
            cancelTo={listUrl}
            saving={save.isPending}
            refusal={client && !client.canEdit ? client.editRefusal : null}
          />
        </Stack>
      </form>
    </>
  );
}
