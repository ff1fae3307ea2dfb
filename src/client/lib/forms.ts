import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from './api';

/** Puts the server's per-field messages on the form fields; returns the general message to show. */
export function applyServerErrors<T>(form: UseFormReturnType<T>, error: unknown): string {
  if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
    form.setErrors(error.fields);
  }
  return error instanceof Error ? error.message : 'Ocurrió un error inesperado. Intente nuevamente.';
}
