import {
  ActionIcon,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDate } from '../../../shared/format';
import { holidayBody } from '../../../shared/schemas/mail';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { notifySaved } from '../../lib/notify';
import { type Holiday, useAddHoliday, useHolidays, useRemoveHoliday } from './api';

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
const weekdayOf = (date: string) => WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()];

/**
 * The holidays of the business-day calendar (the daily digest and the reminders run on Chilean
 * business days): the year's list, a day added (an election, a special law), a day removed.
 */
export function HolidaysSection() {
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(Math.max(thisYear, 2026));
  const holidays = useHolidays(year);
  const add = useAddHoliday();
  const remove = useRemoveHoliday();
  const [draft, setDraft] = useState<{ date: string | null; name: string }>({ date: null, name: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<Holiday | null>(null);

  const submit = () => {
    const parsed = holidayBody.safeParse({ date: draft.date ?? '', name: draft.name });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      );
      return;
    }
    setErrors({});
    add.mutate(parsed.data, {
      onSuccess: (holiday) => {
        notifySaved(`Feriado del ${formatDate(holiday.date)} agregado`);
        setDraft({ date: null, name: '' });
        const addedYear = Number(holiday.date.slice(0, 4));
        if (addedYear !== year) setYear(addedYear);
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <Text size="sm" c="dimmed" maw={760}>
          El resumen diario (08:00) y los recordatorios de plazo se envían en días hábiles: de lunes a
          viernes, salvo estos feriados. Agregue los que declare una ley especial, como los de elecciones.
        </Text>
        <NativeSelect
          label="Año"
          w={140}
          data={Array.from({ length: 5 }, (_, i) => String(2026 + i))}
          value={String(year)}
          onChange={(event) => setYear(Number(event.currentTarget.value))}
        />
        <ErrorAlert error={holidays.error} />
        <Table.ScrollContainer minWidth={360}>
          <Table striped aria-label={`Feriados ${year}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Fecha</Table.Th>
                <Table.Th>Día</Table.Th>
                <Table.Th>Nombre</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Acciones</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(holidays.data ?? []).map((holiday) => (
                <Table.Tr key={holiday.date}>
                  <Table.Td>{formatDate(holiday.date)}</Table.Td>
                  <Table.Td>{weekdayOf(holiday.date)}</Table.Td>
                  <Table.Td>{holiday.name}</Table.Td>
                  <Table.Td ta="right">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Quitar el feriado del ${formatDate(holiday.date)}`}
                      onClick={() => setRemoving(holiday)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
              {holidays.data && holidays.data.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text size="sm" c="dimmed">
                      No hay feriados registrados en {year}.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="xs">
            <ErrorAlert error={add.error} />
            <Group align="flex-start" gap="sm" wrap="wrap">
              <DateField
                label="Fecha"
                w={180}
                value={draft.date}
                onChange={(date) => setDraft((d) => ({ ...d, date }))}
                error={errors.date}
              />
              <TextInput
                label="Nombre"
                w={280}
                value={draft.name}
                onChange={(event) => {
                  const name = event.currentTarget.value;
                  setDraft((d) => ({ ...d, name }));
                }}
                error={errors.name}
              />
              <Button type="submit" mt={25} loading={add.isPending}>
                Agregar feriado
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
      <ConfirmDialog
        opened={removing !== null}
        title="Quitar feriado"
        confirmLabel="Quitar"
        pendingLabel="Quitando..."
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.date, {
            onSuccess: () => {
              notifySaved('Feriado quitado');
              setRemoving(null);
            },
          })
        }
        onClose={() => setRemoving(null)}
      >
        ¿Quitar el feriado del {removing ? formatDate(removing.date) : ''} ({removing?.name})? Ese día pasa a
        ser hábil.
      </ConfirmDialog>
    </Paper>
  );
}
