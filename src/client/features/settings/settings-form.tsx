import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths, type SettingsRecordTab } from '../../app/paths';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError, errorMessage } from '../../lib/api';
import type { BackState } from './settings-list';

/**
 * What a settings form keeps in the history entry: where 'Volver' goes (the list's query), and the
 * form's identity, so that a record just created whose image failed stays on the same form (with
 * the chosen file) while the address becomes its edit address.
 */
export interface FormLocationState extends BackState {
  formKey?: string;
}

/** The tab the form came from, with the list's search and page as they were. */
export function useBackTo(tab: SettingsRecordTab): string {
  const state = useLocation().state as FormLocationState | null;
  return paths.settingsTab(tab) + (state?.from ?? '');
}

/** The key of the form component: stays the same when a new record moves to its edit address. */
export function useFormKey(id: string | undefined): string {
  const state = useLocation().state as FormLocationState | null;
  return state?.formKey ?? id ?? 'new';
}

/** The title row of a settings form, with 'Volver' to its tab. */
export function FormHeader({ title, backTo }: { title: string; backTo: string }) {
  return (
    <PageHeader
      title={title}
      actions={
        <Button component={Link} to={backTo} variant="default" leftSection={<IconArrowLeft size={18} />}>
          Volver
        </Button>
      }
    />
  );
}

/** A non-administrator on a settings form's address: the lists are theirs to read, not the forms. */
export function AdminOnly({ title, backTo, what }: { title: string; backTo: string; what: string }) {
  return (
    <>
      <FormHeader title={title} backTo={backTo} />
      <Alert color="yellow" maw={760}>
        Solo un administrador puede crear o editar {what}.
      </Alert>
    </>
  );
}

export interface FormFailure {
  error: unknown;
  title?: string;
  /** What the user can do about it, on a line of its own. */
  hint?: string;
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
  onReload?: () => void;
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

/** What to say when the image failed after the record itself was saved. */
export function imageFailure(record: string, image: string, error: unknown): FormFailure {
  return {
    title: `${record} se guardó, pero ${image} no`,
    error,
    hint: 'Puede elegir otra imagen y guardar nuevamente, o volver sin ella.',
  };
}
