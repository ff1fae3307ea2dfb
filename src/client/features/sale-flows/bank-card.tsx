import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { SaleFlowDetail } from '../../../shared/schemas/sale-flows';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError, errorMessage } from '../../lib/api';
import { InfoItem, type ReservationPatch } from './flow-info-card';

type BankFields = Pick<
  SaleFlowDetail['reservation'],
  'bankName' | 'bankExecutive' | 'bankExecutiveEmail' | 'bankExecutivePhone'
>;

const LABELS: Record<keyof BankFields, string> = {
  bankName: 'Banco',
  bankExecutive: 'Ejecutivo',
  bankExecutiveEmail: 'Correo ejecutivo',
  bankExecutivePhone: 'Teléfono ejecutivo',
};

const FIELDS = Object.keys(LABELS) as (keyof BankFields)[];

const textOf = (reservation: BankFields) =>
  Object.fromEntries(FIELDS.map((field) => [field, reservation[field] ?? ''])) as Record<
    keyof BankFields,
    string
  >;

/**
 * 'Banco Escrituración' (spec part 2 §2): the deed's bank and its executive, shown and editable once
 * the project's deadline has passed. Saved together, with the version the edit started from. While
 * nothing is typed, the form follows the record as live updates refresh it; once something is typed,
 * a change by someone else does not overwrite it: the card says the record changed, keeps what was
 * typed, and a save is checked against the version it started from (issue 28 §2).
 */
export function BankCard({
  flow,
  onSave,
  saving,
}: {
  flow: SaleFlowDetail;
  onSave: (patch: ReservationPatch, version: number) => Promise<unknown>;
  saving: boolean;
}) {
  const stored = textOf(flow.reservation);
  const storedKey = JSON.stringify(stored);
  const version = flow.reservation.version;
  // What the edit started from: the values and version the typed text is a change of.
  const [base, setBase] = useState({ key: storedKey, version });
  const [values, setValues] = useState(stored);
  const [error, setError] = useState<unknown>(null);
  const baseValues = JSON.parse(base.key) as typeof stored;
  const dirty = FIELDS.some((field) => values[field] !== baseValues[field]);
  useEffect(() => {
    if (dirty) return;
    setBase({ key: storedKey, version });
    setValues(JSON.parse(storedKey));
  }, [storedKey, version, dirty]);
  const changedElsewhere = dirty && base.version !== version;
  const changed = FIELDS.some((field) => values[field] !== stored[field]);
  const fieldErrors = error instanceof ApiError ? error.fields : {};
  const locked = flow.reservation.isRescinded;
  const loadCurrent = () => {
    setError(null);
    setBase({ key: storedKey, version });
    setValues(stored);
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Banco Escrituración
      </Title>
      {changedElsewhere ? (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} mb="sm" data-testid="bank-changed">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Otra persona cambió esta reserva mientras escribías. Lo que escribiste sigue aquí; al guardar se
              comprobará contra los datos actuales.
            </Text>
            <Button size="xs" variant="light" color="yellow" onClick={loadCurrent}>
              Cargar los datos actuales
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <ErrorAlert error={error && Object.keys(fieldErrors).length === 0 ? errorMessage(error) : null} />
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setError(null);
          try {
            await onSave(
              Object.fromEntries(FIELDS.map((field) => [field, values[field].trim() || null])),
              base.version,
            );
            // Saved: the refreshed record is the new base (the effect follows it once not dirty).
            setBase({ key: JSON.stringify(values), version: base.version });
          } catch (caught) {
            setError(caught);
          }
        }}
      >
        {locked ? (
          // Nothing to edit (a rescinded reservation): the values as text, whole, not in boxes that cut them.
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm" data-testid="bank-values">
            {FIELDS.map((field) => (
              <InfoItem key={field} label={LABELS[field]}>
                <Text size="sm" c={stored[field] ? undefined : 'dimmed'}>
                  {stored[field] || '—'}
                </Text>
              </InfoItem>
            ))}
          </SimpleGrid>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {FIELDS.map((field) => (
              <TextInput
                key={field}
                label={LABELS[field]}
                value={values[field]}
                type={field === 'bankExecutiveEmail' ? 'email' : 'text'}
                error={fieldErrors[field]}
                onChange={(event) => {
                  const next = event.currentTarget.value;
                  setValues((current) => ({ ...current, [field]: next }));
                }}
              />
            ))}
          </SimpleGrid>
        )}
        {locked ? null : (
          <Group justify="flex-end" mt="sm">
            <Button type="submit" loading={saving} disabled={!changed}>
              Guardar Banco
            </Button>
          </Group>
        )}
      </form>
    </Paper>
  );
}
