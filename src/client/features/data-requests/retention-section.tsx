import { Anchor, Button, Group, Loader, NumberInput, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { formatRut } from '../../../shared/domain/rut';
import { formatDate, formatInteger } from '../../../shared/format';
import { privacySettingsBody, type RetentionPage } from '../../../shared/schemas/data-requests';
import { paths } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { FormFailureAlert, useRecordSubmit } from '../../components/record-form';
import { type DataTableColumn, ServerTable } from '../../components/server-table';
import { schemaErrors } from '../../lib/forms';
import { useListParams } from '../../lib/list-params';
import { notifySaved } from '../../lib/notify';
import { type PrivacySettings, usePrivacySettings, useRetention, useSavePrivacySettings } from './api';

type RetentionRow = RetentionPage['rows'][number];

/** 'Clientes sin reservas vigentes en los últimos 5 años, para revisar.' */
export function retentionText(years: number | undefined): string {
  if (years === undefined) return 'Clientes sin reservas vigentes en el período de retención, para revisar.';
  if (years === 1) return 'Clientes sin reservas vigentes en el último año, para revisar.';
  return `Clientes sin reservas vigentes en los últimos ${years} años, para revisar.`;
}

const columns: DataTableColumn<RetentionRow>[] = [
  { accessor: 'rut', title: 'RUT', noWrap: true, render: (row) => formatRut(row.rut) },
  {
    accessor: 'name',
    title: 'Cliente',
    render: (row) => (
      <Anchor component={Link} to={paths.editClient(row.clientId)} size="sm">
        {row.name}
      </Anchor>
    ),
  },
  {
    accessor: 'lastActivityDate',
    title: 'Última actividad',
    noWrap: true,
    render: (row) => formatDate(row.lastActivityDate),
  },
  {
    accessor: 'reservations',
    title: 'Reservas',
    textAlign: 'right',
    render: (row) => formatInteger(row.reservations),
  },
];

type RetentionValues = {
  retentionYears: number | string;
  importFileDays: number | string;
  mailCopyDays: number | string;
};

/**
 * The retention periods, saved together with the version read (a stale save offers the current
 * values): 'Años de retención' of clients (1 to 50), and the days an import's uploaded file and an
 * .eml copy of a notice are kept (1 to 3650, decision 0055). The server's schema judges them.
 */
function RetentionForm({ settings, onReload }: { settings: PrivacySettings; onReload: () => void }) {
  const save = useSavePrivacySettings();
  const form = useForm<RetentionValues>({
    mode: 'controlled',
    initialValues: {
      retentionYears: settings.retentionYears,
      importFileDays: settings.importFileDays,
      mailCopyDays: settings.mailCopyDays,
    },
    validate: (values) => schemaErrors(privacySettingsBody, { ...values, version: settings.version }),
  });
  const { submit, failure } = useRecordSubmit(form, async (values) => {
    await save.mutateAsync({
      retentionYears: Number(values.retentionYears),
      importFileDays: Number(values.importFileDays),
      mailCopyDays: Number(values.mailCopyDays),
      version: settings.version,
    });
    notifySaved('Plazos de retención guardados');
  });
  // Not clamped while typing: a value out of range gets the schema's Spanish message instead of being
  // silently changed to the nearest bound (and saved as such).
  const days = {
    min: 1,
    max: 3650,
    clampBehavior: 'none',
    allowDecimal: false,
    allowNegative: false,
    w: 320,
  } as const;
  return (
    <form onSubmit={submit} noValidate>
      <FormFailureAlert failure={failure} onReload={onReload} />
      <Group align="flex-start" gap="sm" wrap="wrap">
        <NumberInput
          label="Años de retención"
          description="Clientes sin reservas vigentes; entre 1 y 50"
          min={1}
          max={50}
          allowDecimal={false}
          allowNegative={false}
          w={320}
          key={form.key('retentionYears')}
          {...form.getInputProps('retentionYears')}
        />
        <NumberInput
          label="Días que se guardan los archivos importados"
          description="Luego se borra el archivo; la carga y sus cambios quedan. Entre 1 y 3650"
          {...days}
          key={form.key('importFileDays')}
          {...form.getInputProps('importFileDays')}
        />
        <NumberInput
          label="Días que se guardan las copias de correos (.eml)"
          description="Copias de los avisos cuando no hay servidor de correo. Entre 1 y 3650"
          {...days}
          key={form.key('mailCopyDays')}
          {...form.getInputProps('mailCopyDays')}
        />
      </Group>
      <Group mt="sm">
        <Button type="submit" disabled={save.isPending || !form.isDirty()}>
          {save.isPending ? 'Guardando...' : 'Guardar'}
        </Button>
      </Group>
    </form>
  );
}

/**
 * 'Retención': the live clients with no live reservation whose last activity is older than the
 * retention period (Ley 21.719 asks that data be kept no longer than needed), for an administrator
 * to review; the period is edited here.
 */
export function RetentionSection() {
  const list = useListParams();
  const settings = usePrivacySettings();
  const retention = useRetention({ page: list.page, pageSize: list.pageSize });
  const years = retention.data?.retentionYears ?? settings.data?.retentionYears;

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <ErrorAlert error={settings.error} />
          {settings.data ? (
            <RetentionForm
              // A new version read (a save, a reload) starts the form from it.
              key={settings.data.version}
              settings={settings.data}
              onReload={() => void settings.refetch()}
            />
          ) : settings.isPending ? (
            <Loader size="sm" role="status" aria-label="Cargando" />
          ) : null}
          <Text size="sm" c="dimmed" maw={720}>
            {retentionText(years)} Cada uno puede abrirse para decidir si sus datos deben conservarse.
          </Text>
        </Stack>
      </Paper>
      <ErrorAlert error={retention.error} />
      <ServerTable<RetentionRow>
        {...list.table}
        aria-label="Retención"
        idAccessor="clientId"
        records={retention.data?.rows}
        total={retention.data?.total}
        totalIsCapped={retention.data?.totalIsCapped}
        fetching={retention.isFetching}
        error={retention.error}
        columns={columns}
        noRecordsText="Ningún cliente supera el período de retención"
      />
    </Stack>
  );
}
