import type { UseFormReturnType } from '@mantine/form';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { useEffect } from 'react';
import { ApiError } from './api';

/** Puts the server's per-field messages on the form fields; returns the general message to show. */
export function applyServerErrors<T>(form: UseFormReturnType<T>, error: unknown): string {
  if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
    form.setErrors(error.fields);
  }
  return error instanceof Error ? error.message : 'Ocurrió un error inesperado. Intente nuevamente.';
}

/**
 * Runs a shared zod schema over a request body built from the form, and returns Mantine form errors
 * keyed like the API's fields ('reservationNumber', 'commission.commissionAmount'), so the client
 * shows the same Spanish messages the server would answer.
 */
export function schemaErrors(schema: StandardSchemaV1, body: unknown): Record<string, string> {
  const result = schema['~standard'].validate(body);
  if (result instanceof Promise) throw new Error('schemaErrors needs a synchronous schema');
  const errors: Record<string, string> = {};
  for (const issue of result.issues ?? []) {
    const path = (issue.path ?? [])
      .map((part) => (typeof part === 'object' ? String(part.key) : String(part)))
      .join('.');
    errors[path || '_'] ??= issue.message;
  }
  return errors;
}

/** Puts each new server refusal's per-field messages on the form (popups that stay open on error). */
export function useServerFieldErrors<T>(form: UseFormReturnType<T>, error: unknown): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: apply each new server error once.
  useEffect(() => {
    const fields = (error as { fields?: Record<string, string> } | null | undefined)?.fields;
    if (fields) form.setErrors(fields);
  }, [error]);
}
