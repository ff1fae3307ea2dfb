import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { santiagoInstant, santiagoWallClock } from '../../../shared/format';
import { DateField } from '../../components/date-field';
import { FormDialog } from '../../components/form-dialog';

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
 * Administrators correct a start and a completion (spec part 2 §6) — a task's, or a flow's — as
 * Santiago wall-clock times whatever the browser's zone. What is not completed has no completion to
 * edit.
 */
export function DatesDialog({
  opened,
  title,
  subject,
  startedAt,
  completedAt,
  isCompleted,
  saving,
  error,
  onSave,
  onClose,
}: {
  opened: boolean;
  title: string;
  /** What is being corrected ('Tarea: …'). */
  subject: ReactNode;
  startedAt: string | null;
  completedAt: string | null;
  isCompleted: boolean;
  saving: boolean;
  error: unknown;
  onSave: (dates: { startedAt?: string | null; completedAt?: string | null }) => void;
  onClose: () => void;
}) {
  const [start, setStart] = useState(() => wallOf(startedAt));
  const [end, setEnd] = useState(() => wallOf(completedAt));
  const [problem, setProblem] = useState<{ start?: string; end?: string }>({});

  const instantOf = (wall: WallClock): string | null | undefined => {
    if (!wall.date) return null;
    return santiagoInstant(wall.date, wall.time)?.toISOString();
  };

  const submit = () => {
    const startedAt = instantOf(start);
    const completedAt = isCompleted ? instantOf(end) : undefined;
    const next = {
      start: startedAt === undefined ? TIME_MESSAGE : undefined,
      end: isCompleted && (completedAt === undefined || completedAt === null) ? TIME_MESSAGE : undefined,
    };
    setProblem(next);
    if (next.start || next.end) return;
    onSave({ startedAt, ...(isCompleted ? { completedAt } : {}) });
  };

  return (
    <FormDialog
      opened={opened}
      title={title}
      saving={saving}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <Text size="sm">{subject}</Text>
      <InstantFields label="Inicio" value={start} onChange={setStart} error={problem.start} />
      {isCompleted ? (
        <InstantFields label="Término" value={end} onChange={setEnd} error={problem.end} />
      ) : null}
      <Text size="xs" c="dimmed">
        Horas de Santiago de Chile.
      </Text>
    </FormDialog>
  );
}
