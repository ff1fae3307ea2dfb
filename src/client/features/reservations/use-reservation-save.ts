import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api';

/**
 * Splits a refusal of "reservation + commission" between the commission popup (fields under
 * `commission.`) and the reservation form (every other field and the general message).
 */
export function splitCommissionErrors(error: unknown) {
  const fields = error instanceof ApiError ? error.fields : {};
  const commissionFields: Record<string, string> = {};
  const formFields: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields)) {
    if (key.startsWith('commission.')) commissionFields[key.slice('commission.'.length)] = message;
    else formFields[key] = message;
  }
  const forCommission = Object.keys(commissionFields).length > 0;
  return {
    forCommission,
    commissionError: forCommission ? { message: errorMessage(error), fields: commissionFields } : null,
    formFields,
    message: errorMessage(error),
  };
}

/**
 * Saving a reservation, with the commission popup in between when it is sold with a broker:
 * `askCommission(body)` opens the popup with the reservation kept aside (nothing is sent);
 * `save(body)` sends it. A refusal about the commission stays in the popup; any other closes it and
 * shows on the form, whose input is never lost.
 */
export function useReservationSave<Body, Saved>(
  mutation: UseMutationResult<Saved, Error, Body>,
  onSaved: (saved: Saved) => void,
) {
  const [awaitingCommission, setAwaitingCommission] = useState<Body | null>(null);
  const [commissionError, setCommissionError] = useState<unknown>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const save = (body: Body) => {
    setFailure(null);
    mutation.mutate(body, {
      onSuccess: (saved) => {
        setAwaitingCommission(null);
        onSaved(saved);
      },
      onError: (error) => {
        const split = splitCommissionErrors(error);
        if (awaitingCommission && split.forCommission) {
          setCommissionError(split.commissionError);
          return;
        }
        setAwaitingCommission(null);
        setFieldErrors(split.formFields);
        setFailure(split.message);
      },
    });
  };

  return {
    save,
    saving: mutation.isPending,
    askCommission: (body: Body) => {
      setCommissionError(null);
      setAwaitingCommission(body);
    },
    cancelCommission: () => setAwaitingCommission(null),
    awaitingCommission,
    commissionError,
    failure,
    fieldErrors,
  };
}
