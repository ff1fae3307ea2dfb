import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useNavigate } from 'react-router';
import { ACCOUNT_TYPES } from '../../../shared/domain/accounts';
import { formatRut } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { BANK_STATUS_LABELS } from '../../../shared/schemas/brokers';
import { type Agency, agencyBody } from '../../../shared/schemas/settings';
import { ErrorAlert } from '../../components/error-alert';
import { AFTER_SAVE, useLeaveGuard } from '../../components/leave-guard';
import { FormActions, FormFailureAlert, RecordFormPage, useRecordSubmit } from '../../components/record-form';
import { RutInput } from '../../components/rut-input';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { useAgency, useSaveAgency, useVerifyAgencyAccount } from './api';
import { AdminOnly, FormHeader, useBackTo } from './settings-form';

interface AgencyFormValues {
  rut: string;
  businessName: string;
  bank: string;
  accountType: string | null;
  accountNumber: string;
}

function valuesOf(agency: Agency | undefined): AgencyFormValues {
  return {
    rut: agency ? formatRut(agency.rut) : '',
    businessName: agency?.businessName ?? '',
    bank: agency?.bank ?? '',
    accountType: agency?.accountType ?? null,
    accountNumber: agency?.accountNumber ?? '',
  };
}

/** /configuracion/inmobiliarias/nuevo and …/editar/{id}. */
export function AgencyFormPage({ id }: { id: string | undefined }) {
  const canManage = can(useCurrentUser(), 'agencies.manage');
  const agency = useAgency(canManage ? id : undefined);
  const backTo = useBackTo('inmobiliarias');
  const title = id ? 'Editar Inmobiliaria' : 'Nueva Inmobiliaria';

  if (!canManage) return <AdminOnly title={title} backTo={backTo} what="inmobiliarias" />;
  return (
    <RecordFormPage
      id={id}
      record={agency}
      title={title}
      what="la inmobiliaria"
      backTo={backTo}
      backLabel="Volver a Inmobiliarias"
    >
      {({ record, onReload }) => (
        <AgencyForm title={title} agency={record} backTo={backTo} onReload={onReload} />
      )}
    </RecordFormPage>
  );
}

function AgencyForm({
  title,
  agency,
  backTo,
  onReload,
}: {
  title: string;
  agency: Agency | undefined;
  backTo: string;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const save = useSaveAgency(agency?.id);
  const form = useForm<AgencyFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(agency),
    validate: schemaResolver(agencyBody, { sync: true }),
  });
  const leaveGuard = useLeaveGuard(form.isDirty() && !save.isPending);

  const { submit, failure } = useRecordSubmit(form, async (values) => {
    const body = agencyBody.parse(values);
    await save.mutateAsync(agency ? { ...body, version: agency.version } : body);
    notifySaved(agency ? 'Inmobiliaria actualizada' : 'Inmobiliaria creada');
    navigate(backTo, { state: AFTER_SAVE });
  });

  return (
    <>
      <FormHeader title={title} backTo={backTo} />
      {leaveGuard}
      <form onSubmit={submit} noValidate>
        <Stack maw={760}>
          <FormFailureAlert failure={failure} onReload={agency ? onReload : undefined} />
          <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <RutInput label="RUT" required key={form.key('rut')} {...form.getInputProps('rut')} />
              <TextInput
                label="Razón Social"
                required
                autoComplete="off"
                key={form.key('businessName')}
                {...form.getInputProps('businessName')}
              />
              <TextInput
                label="Banco"
                required
                autoComplete="off"
                key={form.key('bank')}
                {...form.getInputProps('bank')}
              />
              <Select
                label="Tipo de Cuenta"
                required
                placeholder="Seleccione"
                data={[...ACCOUNT_TYPES]}
                allowDeselect={false}
                key={form.key('accountType')}
                {...form.getInputProps('accountType')}
              />
              <TextInput
                label="Número de Cuenta"
                required
                autoComplete="off"
                key={form.key('accountNumber')}
                {...form.getInputProps('accountNumber')}
              />
            </SimpleGrid>
            {agency ? <AccountStatus agency={agency} /> : null}
          </Paper>
          <FormActions cancelTo={backTo} saving={save.isPending} />
        </Stack>
      </form>
    </>
  );
}

/** 'Cuenta por verificar' or 'Cuenta verificada', and 'Verificar cuenta' when the server allows it (issue 53). */
function AccountStatus({ agency }: { agency: Agency }) {
  const verify = useVerifyAgencyAccount(agency.id);
  const unverified = agency.accountStatus === 'unverified';
  return (
    <Stack gap={4} mt="md">
      <Group gap="sm">
        <Badge color={unverified ? 'orange' : 'green'} variant="light">
          {BANK_STATUS_LABELS[agency.accountStatus]}
        </Badge>
        {agency.canVerifyAccount ? (
          <Button
            size="xs"
            loading={verify.isPending}
            onClick={() =>
              verify.mutate(agency.version, { onSuccess: () => notifySaved('Cuenta bancaria verificada') })
            }
          >
            Verificar cuenta
          </Button>
        ) : null}
      </Group>
      {unverified ? (
        <Text size="xs" c="dimmed">
          Otra persona de pagos o un administrador (no quien la ingresó) debe verificar esta cuenta.
        </Text>
      ) : null}
      <ErrorAlert error={verify.error} />
    </Stack>
  );
}
