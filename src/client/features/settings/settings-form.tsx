import { Alert, Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths, type SettingsRecordTab } from '../../app/paths';
import { PageHeader } from '../../components/page-header';
import type { FormFailure } from '../../components/record-form';
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

/** What to say when the image failed after the record itself was saved. */
export function imageFailure(record: string, image: string, error: unknown): FormFailure {
  return {
    title: `${record} se guardó, pero ${image} no`,
    error,
    hint: 'Puede elegir otra imagen y guardar nuevamente, o volver sin ella.',
  };
}
