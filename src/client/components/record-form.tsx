import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, Fragment, type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PageLoader } from '../app/shell/app-layout';
import { ApiError, errorMessage } from '../lib/api';
import { applyServerErrors } from '../lib/forms';
import { ErrorAlert } from './error-alert';
import { LoadFailed } from './load-failed';

/**
 * The record form scaffold (clients, brokers, Configuración's agencies, projects and users): a form
 * page loads its record when it has an id (a loader meanwhile; the title, the reason and a way back
 * when it cannot), then renders the form with it. `onReload` fetches the record again and remounts
 * the form with the current data — what a save refused as stale (409) offers.
 */
export function RecordFormPage<T>({
  id,
  record,
  formKey,
  title,
  what,
  backTo,
  backLabel,
  children,
}: {
  id: string | undefined;
  record: UseQueryResult<T>;
  /** The form's identity; stays the same when a new record moves to its edit address. */
  formKey?: string;
  title: string;
  /** The record as the load error names it: 'el cliente'. */
  what: string;
  backTo: string;
  backLabel: string;
  children: (loaded: { record: T | undefined; onReload: () => void }) => ReactNode;
}) {
  const [reloads, setReloads] = useState(0);
  // The form remounts once the refetched record has arrived here (not when the refetch's promise
  // settles: this component may still hold the previous render's props then).
  const [reloadAfter, setReloadAfter] = useState<number | null>(null);
  useEffect(() => {
    if (reloadAfter !== null && record.dataUpdatedAt > reloadAfter) {
      setReloadAfter(null);
      setReloads((count) => count + 1);
    }
  }, [reloadAfter, record.dataUpdatedAt]);

  if (id && record.isPending) return <PageLoader />;
  if (id && record.isError) {
    return (
      <LoadFailed
        title={title}
        message={`Error al cargar ${what}: ${errorMessage(record.error)}`}
        backTo={backTo}
        backLabel={backLabel}
      />
    );
  }
  const onReload = () => {
    setReloadAfter(record.dataUpdatedAt);
    void record.refetch();
  };
  return (
    <Fragment key={`${formKey ?? id ?? 'new'}-${reloads}`}>
      {children({ record: record.data, onReload })}
    </Fragment>
  );
}

export interface FormFailure {
  error: unknown;
  title?: string;
  /** What the user can do about it, on a line of its own. */
  hint?: string;
}

/**
 * Submits a form through `save`; a refusal keeps the input as typed, puts the server's field messages
 * on their fields and the refusal above the form (`failure`, for `FormFailureAlert`).
 */
export function useRecordSubmit<V>(
  form: UseFormReturnType<V>,
  save: (values: V) => Promise<void>,
): {
  submit: (event?: FormEvent<HTMLFormElement>) => void;
  failure: FormFailure | null;
  setFailure: (failure: FormFailure | null) => void;
} {
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await save(values as V);
    } catch (error) {
      applyServerErrors(form, error);
      setFailure({ error });
    }
  });
  return { submit, failure, setFailure };
}

/**
 * The refusal above a form. A record changed by someone else since it was opened (STALE_VERSION)
 * offers to load its current data (what was typed here is then discarded).
 */
export function FormFailureAlert({
  failure,
  onReload,
}: {
  failure: FormFailure | null;
  onReload?: (() => void) | undefined;
}) {
  if (!failure) return null;
  if (failure.error instanceof ApiError && failure.error.code === 'STALE_VERSION' && onReload) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" mb="md">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{failure.error.message}</Text>
          <Group gap="xs">
            <Button size="xs" color="red" variant="light" onClick={onReload}>
              Cargar los datos actuales
            </Button>
            <Text size="xs" c="dimmed">
              Se descartan los cambios escritos aquí.
            </Text>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (failure.hint) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={failure.title} role="alert" mb="md">
        <Text size="sm">{errorMessage(failure.error)}</Text>
        <Text size="sm" mt={4}>
          {failure.hint}
        </Text>
      </Alert>
    );
  }
  return <ErrorAlert error={failure.error} title={failure.title} />;
}

/** 'Cancelar' (back where the form came from) and 'Guardar' ('Guardando...' while it saves). */
export function FormActions({
  cancelTo,
  saving,
  refusal = null,
}: {
  cancelTo: string;
  saving: boolean;
  /** Why the record cannot be saved now (the server would refuse): 'Guardar' disabled, the reason said. */
  refusal?: string | null;
}) {
  return (
    <Stack gap={4} align="flex-end">
      <Group justify="flex-end">
        <Button component={Link} to={cancelTo} variant="default">
          Cancelar
        </Button>
        <Button
          type="submit"
          disabled={saving || refusal !== null}
          aria-describedby={refusal ? 'form-refusal' : undefined}
        >
          {saving ? 'Guardando...' : 'Guardar'}
        </Button>
      </Group>
      {refusal ? (
        <Text size="sm" c="dimmed" id="form-refusal" ta="right">
          {refusal}
        </Text>
      ) : null}
    </Stack>
  );
}
