import { Button, Group, Paper, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { SaleFlowDetail } from '../../../shared/schemas/sale-flows';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError, errorMessage } from '../../lib/api';
import type { ReservationPatch } from './flow-info-card';

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
 * the project's deadline has passed. Saved together, with the reservation's version.
 */
export function BankCard({
  flow,
  onSave,
  saving,
}: {
  flow: SaleFlowDetail;
  onSave: (patch: ReservationPatch) => Promise<unknown>;
  saving: boolean;
}) {
  const stored = textOf(flow.reservation);
  const [values, setValues] = useState(stored);
  const [error, setError] = useState<unknown>(null);
  const storedKey = JSON.stringify(stored);
  // Another save (or a refresh) brings new stored values: the form follows them.
  useEffect(() => {
    setValues(JSON.parse(storedKey));
  }, [storedKey]);
  const changed = FIELDS.some((field) => values[field] !== stored[field]);
  const fieldErrors = error instanceof ApiError ? error.fields : {};
  const locked = flow.reservation.isRescinded;

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Banco Escrituración
      </Title>
      <ErrorAlert error={error && Object.keys(fieldErrors).length === 0 ? errorMessage(error) : null} />
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setError(null);
          try {
            await onSave(Object.fromEntries(FIELDS.map((field) => [field, values[field].trim() || null])));
          } catch (caught) {
            setError(caught);
          }
        }}
      >
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {FIELDS.map((field) => (
            <TextInput
              key={field}
              label={LABELS[field]}
              value={values[field]}
              disabled={locked}
              type={field === 'bankExecutiveEmail' ? 'email' : 'text'}
              error={fieldErrors[field]}
              onChange={(event) => {
                const next = event.currentTarget.value;
                setValues((current) => ({ ...current, [field]: next }));
              }}
            />
          ))}
        </SimpleGrid>
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
