import {
  ActionIcon,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  type BankFileLayoutSpec,
  type BankFileLine,
  bankFileText,
  GENERIC_BANK_LAYOUT,
} from '../../../shared/domain/bank-file';
import {
  BANK_FILE_ENCODINGS,
  BANK_FILE_FIELD_LABELS,
  BANK_FILE_FIELDS,
  BANK_FILE_SEPARATORS,
  type BankFileField,
  type PaymentSettingsView,
} from '../../../shared/schemas/payment-batches';
import { PageLoader } from '../../app/shell/app-layout';
import { ErrorAlert } from '../../components/error-alert';
import { notifySaved } from '../../lib/notify';
import { usePaymentSettings, useSavePaymentSettings } from './api';

const SEPARATOR_LABELS: Record<(typeof BANK_FILE_SEPARATORS)[number], string> = {
  ';': 'Punto y coma (;)',
  ',': 'Coma (,)',
  '|': 'Barra vertical (|)',
  tab: 'Tabulador',
};
const ENCODING_LABELS: Record<(typeof BANK_FILE_ENCODINGS)[number], string> = {
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252 (ANSI)',
};

/** Two sample payments for the preview: one with a name that tries to break its line. */
const SAMPLE: BankFileLine[] = [
  {
    holderRut: '76543210-3',
    holderName: 'Inversiones Andinas SpA',
    bankName: 'Banco de Chile',
    bankAccountType: 'Cuenta Corriente',
    bankAccountNumber: '001234567',
    amountClp: '3998363',
    reference: 'Comision reserva 1042 pago 1',
    email: 'pagos@andinas.cl',
    brokerRut: '76543210-3',
    brokerName: 'Propiedades Andinas',
    reservationNumber: '1042',
    paymentNumber: 1,
  },
  {
    holderRut: '77111222-K',
    holderName: 'Corredora Ñuñoa;\nLimitada',
    bankName: 'BancoEstado',
    bankAccountType: 'Cuenta Vista',
    bankAccountNumber: '22334455',
    amountClp: '1250000',
    reference: 'Comision reserva 1043 pago 2',
    email: null,
    brokerRut: '77111222-K',
    brokerName: 'Ñuñoa Propiedades',
    reservationNumber: '1043',
    paymentNumber: 2,
  },
];

/** Configuración → Pagos: how money goes out (administrators change it; the payments team reads it). */
export default function PaymentSettingsSection() {
  const settings = usePaymentSettings();
  if (settings.error) return <ErrorAlert error={settings.error} />;
  if (!settings.data) return <PageLoader />;
  return <SettingsForm settings={settings.data} key={settings.data.version} />;
}

function SettingsForm({ settings }: { settings: PaymentSettingsView }) {
  const save = useSavePaymentSettings();
  const [tolerance, setTolerance] = useState(settings.tolerancePerUf);
  const [days, setDays] = useState<number | string>(settings.paidDateBusinessDays);
  const [kind, setKind] = useState<'generic' | 'defined'>(settings.bankFileLayout ? 'defined' : 'generic');
  const [layout, setLayout] = useState<BankFileLayoutSpec>(
    settings.bankFileLayout ?? { ...GENERIC_BANK_LAYOUT, name: 'Mi banco' },
  );
  const shown = kind === 'generic' ? GENERIC_BANK_LAYOUT : layout;
  const readOnly = !settings.canEdit;
  const patch = (values: Partial<BankFileLayoutSpec>) => setLayout((current) => ({ ...current, ...values }));
  const setColumn = (index: number, values: Partial<BankFileLayoutSpec['columns'][number]>) =>
    patch({ columns: layout.columns.map((column, i) => (i === index ? { ...column, ...values } : column)) });

  const submit = () =>
    save.mutate(
      {
        tolerancePerUf: tolerance,
        paidDateBusinessDays: typeof days === 'number' ? days : Number(days),
        bankFileLayout: kind === 'generic' ? null : { ...layout, columns: [...layout.columns] },
        version: settings.version,
      },
      { onSuccess: () => notifySaved('Configuración de pagos guardada') },
    );

  return (
    <Stack maw={960}>
      {readOnly ? (
        <Text size="sm" c="dimmed">
          Solo un administrador cambia la configuración de pagos.
        </Text>
      ) : null}
      <Fieldset legend="Montos y fechas" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Diferencia aceptada por UF ($)"
            description="Diferencia de redondeo entre el total de la factura y UF × valor del día; más que esto requiere la aceptación de un administrador."
            value={tolerance}
            onChange={(event) => setTolerance(event.currentTarget.value)}
            disabled={readOnly}
          />
          <NumberInput
            label="Días hábiles para registrar la fecha del banco"
            description="Un Gestor de Pagos marca pagada una nómina con la fecha del banco dentro de estos días hábiles; un administrador, cualquier fecha pasada."
            min={0}
            max={60}
            value={days}
            onChange={setDays}
            disabled={readOnly}
          />
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="Archivo del banco" radius="md">
        <Stack>
          <SegmentedControl
            value={kind}
            onChange={(value) => setKind(value as 'generic' | 'defined')}
            disabled={readOnly}
            data={[
              { value: 'generic', label: 'Formato genérico' },
              { value: 'defined', label: 'Formato definido' },
            ]}
            aria-label="Formato del archivo del banco"
          />
          {kind === 'defined' ? (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Nombre del formato"
                  value={layout.name}
                  onChange={(event) => patch({ name: event.currentTarget.value })}
                  disabled={readOnly}
                />
                <Select
                  label="Separador"
                  data={BANK_FILE_SEPARATORS.map((value) => ({ value, label: SEPARATOR_LABELS[value] }))}
                  value={layout.separator}
                  onChange={(value) =>
                    value && patch({ separator: value as BankFileLayoutSpec['separator'] })
                  }
                  allowDeselect={false}
                  disabled={readOnly}
                />
                <Select
                  label="Codificación"
                  data={BANK_FILE_ENCODINGS.map((value) => ({ value, label: ENCODING_LABELS[value] }))}
                  value={layout.encoding}
                  onChange={(value) => value && patch({ encoding: value as BankFileLayoutSpec['encoding'] })}
                  allowDeselect={false}
                  disabled={readOnly}
                />
                <NumberInput
                  label="Máximo de registros por archivo"
                  min={1}
                  max={1000}
                  value={layout.maxRecords}
                  onChange={(value) =>
                    patch({ maxRecords: typeof value === 'number' ? value : Number(value) })
                  }
                  disabled={readOnly}
                />
              </SimpleGrid>
              <Checkbox
                label="Primera línea con los encabezados"
                checked={layout.hasHeader}
                onChange={(event) => patch({ hasHeader: event.currentTarget.checked })}
                disabled={readOnly}
              />
              <Stack gap="xs">
                <Text size="sm" fw={500}>
                  Columnas, en orden
                </Text>
                {layout.columns.map((column, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the columns are positions; editing one keeps its place
                  <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
                    <Select
                      label={`Dato ${index + 1}`}
                      data={BANK_FILE_FIELDS.map((value) => ({
                        value,
                        label: BANK_FILE_FIELD_LABELS[value],
                      }))}
                      value={column.field}
                      onChange={(value) => value && setColumn(index, { field: value as BankFileField })}
                      allowDeselect={false}
                      disabled={readOnly}
                      style={{ flex: 1 }}
                    />
                    <TextInput
                      label={`Encabezado ${index + 1}`}
                      value={column.header}
                      onChange={(event) => setColumn(index, { header: event.currentTarget.value })}
                      disabled={readOnly}
                      style={{ flex: 1 }}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={`Quitar la columna ${index + 1}`}
                      onClick={() => patch({ columns: layout.columns.filter((_, i) => i !== index) })}
                      disabled={readOnly || layout.columns.length === 1}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                <Group>
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={<IconPlus size={14} />}
                    onClick={() =>
                      patch({ columns: [...layout.columns, { field: 'reference', header: 'Referencia' }] })
                    }
                    disabled={readOnly || layout.columns.length >= 20}
                  >
                    Agregar columna
                  </Button>
                </Group>
              </Stack>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              RUT y nombre del titular, banco, tipo y número de cuenta, monto, referencia y correo; separados
              por punto y coma, con encabezados, en UTF-8, hasta {GENERIC_BANK_LAYOUT.maxRecords} pagos por
              archivo.
            </Text>
          )}
          <Paper withBorder p="sm" radius="md">
            <Text size="sm" fw={500} mb={4}>
              Vista previa (dos pagos de ejemplo)
            </Text>
            {/* Focusable: a keyboard user can scroll a preview wider than the screen. */}
            <Code block tabIndex={0} aria-label="Vista previa del archivo del banco">
              {bankFileText(shown, SAMPLE).replaceAll('\t', ' → ')}
            </Code>
          </Paper>
        </Stack>
      </Fieldset>
      <ErrorAlert error={save.error} />
      {readOnly ? null : (
        <Group>
          <Button onClick={submit} loading={save.isPending}>
            Guardar
          </Button>
        </Group>
      )}
    </Stack>
  );
}
