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
