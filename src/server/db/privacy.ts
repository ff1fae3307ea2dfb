import { sql } from 'drizzle-orm';
import { RESTRICTED_HOLDER_TEXT } from '../../shared/domain/privacy';

/**
 * What reports, approvals and their exports show instead of the name and RUT of a client who opposed
 * or blocked processing (Ley 21.719, decision 0027): the figures stay, the person is not named.
 */
export const RESTRICTED_HOLDER = sql`${RESTRICTED_HOLDER_TEXT}::text`;

/** A text[] parameter (Drizzle spreads an array into a list of parameters: built element by element). */
export function textArray(values: readonly string[]) {
  return values.length === 0
    ? sql`array[]::text[]`
    : sql`array[${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )}]::text[]`;
}
