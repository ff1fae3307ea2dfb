import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { santiagoInstant, santiagoWallClock } from '../../../shared/format';
import type { SaleFlowTask } from '../../../shared/schemas/sale-flows';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';

interface WallClock {
  date: string | null;
  time: string;
}

const wallOf = (instant: string | null): WallClock =>
  instant ? santiagoWallClock(instant) : { date: null, time: '09:00' };

const TIME_MESSAGE = 'Ingrese la hora como HH:MM (por ejemplo 09:30)';

function InstantFields({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: WallClock;
  onChange: (value: WallClock) => void;
  error?: string | null | undefined;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      <DateField
        label={`${label} (fecha)`}
        value={value.date}
        onChange={(date) => onChange({ ...value, date })}
      />
      <TextInput
        label={`${label} (hora)`}
        type="time"
        value={value.time}
        error={error}
        onChange={(event) => onChange({ ...value, time: event.currentTarget.value })}
      />
    </SimpleGrid>
  );
}

/**
 * Administrators correct a task's start and completion (spec part 2 §6), as Santiago wall-clock
 * times whatever the browser's zone. A task not completed has no completion to edit.
 */
export function TaskDatesDialog({
  opened,
  task,
  saving,
  error,
  onSave,
  onClose,
}: {
  opened: boolean;
  task: SaleFlowTask;
  saving: boolean;
  error: unknown;
  onSave: (dates: { startedAt?: string | null; completedAt?: string | null }) => void;
  onClose: () => void;
}) {
  const [start, setStart] = useState(() => wallOf(task.startedAt));
  const [end, setEnd] = useState(() => wallOf(task.completedAt));
  const [problem, setProblem] = useState<{ start?: string; end?: string }>({});
  const completed = task.status === 'completed';

  const instantOf = (wall: WallClock): string | null | undefined => {
    if (!wall.date) return null;
    return santiagoInstant(wall.date, wall.time)?.toISOString();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!saving) onClose();
      }}
      title={<Text fw={700}>Editar fechas de la tarea</Text>}
      size="md"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const startedAt = instantOf(start);
          const completedAt = completed ? instantOf(end) : undefined;
          const next = {
            start: startedAt === undefined ? TIME_MESSAGE : undefined,
            end: completed && (completedAt === undefined || completedAt === null) ? TIME_MESSAGE : undefined,
          };
          setProblem(next);
          if (next.start || next.end) return;
          onSave({ startedAt, ...(completed ? { completedAt } : {}) });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Tarea: <strong>{task.name}</strong>
          </Text>
          <ErrorAlert error={error} />
          <InstantFields label="Inicio" value={start} onChange={setStart} error={problem.start} />
          {completed ? (
            <InstantFields label="Término" value={end} onChange={setEnd} error={problem.end} />
          ) : null}
          <Text size="xs" c="dimmed">
            Horas de Santiago de Chile.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" loading={saving}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
