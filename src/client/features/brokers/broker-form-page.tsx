import {
  Badge,
  Button,
  Fieldset,
  Group,
  Text as MText,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { schemaResolver, type UseFormReturnType, useForm } from '@mantine/form';
import { useLocation, useNavigate, useParams } from 'react-router';
import { BROKER_ACCOUNT_TYPES, type BrokerAccountType } from '../../../shared/domain/payment-batches';
import { formatDateTime, formatRut } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { BANK_STATUS_LABELS, type Broker, brokerBody } from '../../../shared/schemas/brokers';
import { paths } from '../../app/paths';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { AFTER_SAVE, useLeaveGuard } from '../../components/leave-guard';
import { PageHeader } from '../../components/page-header';
import { FormActions, FormFailureAlert, RecordFormPage, useRecordSubmit } from '../../components/record-form';
import { RutInput } from '../../components/rut-input';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { HistoryButton } from '../audit';
import { BrokerPortalUsers } from '../portal';
import { useBroker, useSaveBroker, useVerifyBrokerBank } from './api';

const TEXT_FIELDS = [
  'name',
  'businessName',
  'constitutionNotary',
  'legalRepresentative',
  'commercialAddress',
  'commercialAddressCommune',
  'commercialContactName',
  'commercialContactPhone',
  'commercialContactEmail',
  'operationsContactName',
  'operationsContactPhone',
  'operationsContactEmail',
  'financeContactName',
  'financeContactPhone',
  'financeContactEmail',
  'kamName',
  'kamPhone',
  'kamEmail',
  'bankName',
  'bankAccountNumber',
  'bankHolderName',
  'paymentEmail',
] as const;

type BrokerFormValues = Record<(typeof TEXT_FIELDS)[number], string> & {
  rut: string;
  legalRepresentativeRut: string;
  bankHolderRut: string;
  constitutionDate: string | null;
  kamReceivesCommission: boolean;
  bankAccountType: BrokerAccountType | null;
};

function valuesOf(broker: Broker | undefined): BrokerFormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, broker?.[field] ?? ''])) as Record<
    (typeof TEXT_FIELDS)[number],
    string
  >;
  return {
    ...text,
    rut: broker ? formatRut(broker.rut) : '',
    legalRepresentativeRut: broker ? formatRut(broker.legalRepresentativeRut) : '',
    bankHolderRut: broker?.bankHolderRut ? formatRut(broker.bankHolderRut) : '',
    constitutionDate: broker?.constitutionDate ?? null,
    kamReceivesCommission: broker?.kamReceivesCommission ?? false,
    bankAccountType: broker?.bankAccountType ?? null,
  };
}

/** /brokers/nuevo and /brokers/editar/{id}. */
export default function BrokerFormPage() {
  const { id } = useParams();
  const title = id ? 'Editar Broker' : 'Nuevo Broker';
  return (
    <RecordFormPage
      id={id}
      record={useBroker(id)}
      title={title}
      what="el broker"
      backTo={paths.brokers}
      backLabel="Volver a Brokers"
    >
      {({ record, onReload }) => <BrokerForm title={title} broker={record} onReload={onReload} />}
    </RecordFormPage>
  );
}

type Form = UseFormReturnType<BrokerFormValues>;

const LEGEND_STYLES = { legend: { fontWeight: 600 } };

function Text({
  form,
  field,
  label,
  required,
  type,
  disabled,
}: {
  form: Form;
  field: (typeof TEXT_FIELDS)[number];
  label: string;
  required?: boolean;
  type?: 'email' | 'tel';
  disabled?: boolean;
}) {
  return (
    <TextInput
      label={label}
      required={required}
      type={type}
      disabled={disabled}
      autoComplete="off"
      key={form.key(field)}
      {...form.getInputProps(field)}
    />
  );
}

/** Name, phone and e-mail of one contact (operations, finance, KAM, commercial). */
function ContactFields({
  form,
  prefix,
  nameLabel,
  nameRequired,
}: {
  form: Form;
  prefix: 'commercialContact' | 'operationsContact' | 'financeContact' | 'kam';
  nameLabel: string;
  nameRequired?: boolean;
}) {
  return (
    <>
      <Text form={form} field={`${prefix}Name`} label={nameLabel} required={nameRequired} />
      <Text form={form} field={`${prefix}Phone`} label="Teléfono" type="tel" />
      <Text form={form} field={`${prefix}Email`} label="Correo Electrónico" type="email" />
    </>
  );
}

function BrokerForm({
  title,
  broker,
  onReload,
}: {
  title: string;
  broker: Broker | undefined;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const save = useSaveBroker(broker?.id);
  const listUrl = paths.brokers + ((location.state as { from?: string } | null)?.from ?? '');

  const form = useForm<BrokerFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(broker),
    validate: schemaResolver(brokerBody, { sync: true }),
  });
  const leaveGuard = useLeaveGuard(form.isDirty() && !save.isPending);

  const { submit, failure } = useRecordSubmit(form, async (values) => {
    const body = { ...values, constitutionDate: values.constitutionDate ?? '' };
    await save.mutateAsync(broker ? { ...body, version: broker.version } : body);
    notifySaved(broker ? 'Broker actualizado' : 'Broker creado');
    navigate(listUrl, { state: AFTER_SAVE });
  });

  const user = useCurrentUser();
  // The server decides (issue 53): the payments team and administrators change the bank data.
  const canChangeBank = broker ? broker.canChangeBank : can(user, 'bankAccounts.change');
  const columns = { base: 1, sm: 2 } as const;
  return (
    <>
      <PageHeader
        title={title}
        actions={broker ? <HistoryButton kind="brokers" id={broker.id} /> : undefined}
      />
      {leaveGuard}
      <form onSubmit={submit} noValidate>
        <Stack maw={960}>
          <FormFailureAlert failure={failure} onReload={broker ? onReload : undefined} />
          <Fieldset legend="Empresa" radius="md" styles={LEGEND_STYLES}>
            <SimpleGrid cols={columns}>
              <RutInput label="RUT" required key={form.key('rut')} {...form.getInputProps('rut')} />
              <Text form={form} field="name" label="Nombre" required />
              <Text form={form} field="businessName" label="Razón Social" required />
              <DateField
                label="Fecha de Constitución"
                required
                maxDate={new Date()}
                key={form.key('constitutionDate')}
                {...form.getInputProps('constitutionDate')}
              />
              <Text form={form} field="constitutionNotary" label="Notaría de Constitución" required />
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend="Representante Legal" radius="md" styles={LEGEND_STYLES}>
            <SimpleGrid cols={columns}>
              <Text form={form} field="legalRepresentative" label="Nombre del Representante Legal" required />
              <RutInput
                label="RUT del Representante Legal"
                required
                key={form.key('legalRepresentativeRut')}
                {...form.getInputProps('legalRepresentativeRut')}
              />
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend="Comercial" radius="md" styles={LEGEND_STYLES}>
            <SimpleGrid cols={columns}>
              <Text form={form} field="commercialAddress" label="Dirección Comercial" required />
              <Text form={form} field="commercialAddressCommune" label="Comuna" required />
              <ContactFields
                form={form}
                prefix="commercialContact"
                nameLabel="Nombre del Contacto Comercial"
                nameRequired
              />
            </SimpleGrid>
          </Fieldset>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Fieldset legend="Contacto de Operaciones" radius="md" styles={LEGEND_STYLES}>
              <Stack gap="sm">
                <ContactFields form={form} prefix="operationsContact" nameLabel="Nombre" />
              </Stack>
            </Fieldset>
            <Fieldset legend="Contacto de Finanzas" radius="md" styles={LEGEND_STYLES}>
              <Stack gap="sm">
                <ContactFields form={form} prefix="financeContact" nameLabel="Nombre" />
              </Stack>
            </Fieldset>
          </SimpleGrid>

          <Fieldset legend="KAM" radius="md" styles={LEGEND_STYLES}>
            <SimpleGrid cols={columns}>
              <ContactFields form={form} prefix="kam" nameLabel="Nombre del KAM" nameRequired />
              <Switch
                label="El KAM recibe comisión"
                mt={{ base: 0, sm: 'xl' }}
                key={form.key('kamReceivesCommission')}
                {...form.getInputProps('kamReceivesCommission', { type: 'checkbox' })}
              />
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend="Datos Bancarios" radius="md" styles={LEGEND_STYLES}>
            <Stack gap="sm">
              {broker ? <BankStatus broker={broker} /> : null}
              {canChangeBank ? null : (
                <MText size="sm" c="dimmed">
                  Solo los Gestores de Pagos y los administradores cambian los datos bancarios.
                </MText>
              )}
              <SimpleGrid cols={columns}>
                <Text form={form} field="bankName" label="Banco" disabled={!canChangeBank} />
                <Select
                  label="Tipo de Cuenta"
                  data={[...BROKER_ACCOUNT_TYPES]}
                  clearable
                  allowDeselect
                  disabled={!canChangeBank}
                  key={form.key('bankAccountType')}
                  {...form.getInputProps('bankAccountType')}
                />
                <Text
                  form={form}
                  field="bankAccountNumber"
                  label="Número de Cuenta"
                  disabled={!canChangeBank}
                />
                <Text
                  form={form}
                  field="bankHolderName"
                  label="Titular de la Cuenta"
                  disabled={!canChangeBank}
                />
                <RutInput
                  label="RUT del Titular"
                  disabled={!canChangeBank}
                  key={form.key('bankHolderRut')}
                  {...form.getInputProps('bankHolderRut')}
                />
                <Text form={form} field="paymentEmail" label="Correo para Pagos" type="email" />
              </SimpleGrid>
            </Stack>
          </Fieldset>

          <FormActions cancelTo={listUrl} saving={save.isPending} />
        </Stack>
      </form>
      {/* Its own forms, outside the broker's: an invitation is not a change of the broker. */}
      {broker ? (
        <Stack mt="lg">
          <BrokerPortalUsers brokerId={broker.id} />
        </Stack>
      ) : null}
    </>
  );
}

/** 'Cuenta por verificar' or 'Cuenta verificada', who did what, and 'Verificar cuenta' when the server allows it. */
function BankStatus({ broker }: { broker: Broker }) {
  const verify = useVerifyBrokerBank(broker.id);
  if (broker.bankStatus === 'none') return null;
  const unverified = broker.bankStatus === 'unverified';
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Badge color={unverified ? 'orange' : 'green'} variant="light">
          {BANK_STATUS_LABELS[broker.bankStatus]}
        </Badge>
        {broker.canVerifyBank ? (
          <Button
            size="xs"
            loading={verify.isPending}
            onClick={() =>
              verify.mutate(broker.version, { onSuccess: () => notifySaved('Cuenta bancaria verificada') })
            }
          >
            Verificar cuenta
          </Button>
        ) : null}
      </Group>
      <MText size="xs" c="dimmed">
        {broker.bankChangedAt
          ? `Cambiada por ${broker.bankChangedByName ?? 'un usuario'} el ${formatDateTime(broker.bankChangedAt)}.`
          : null}{' '}
        {broker.bankVerifiedAt
          ? `Verificada por ${broker.bankVerifiedByName ?? 'un usuario'} el ${formatDateTime(broker.bankVerifiedAt)}.`
          : unverified
            ? 'Los pagos a esta cuenta esperan que otra persona de pagos (no quien la cambió) la verifique.'
            : null}
      </MText>
      <ErrorAlert error={verify.error} />
    </Stack>
  );
}
