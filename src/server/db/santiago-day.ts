import { type SQL, sql } from 'drizzle-orm';

/**
 * The Santiago calendar day in SQL: one helper function in the database (`santiago_date`,
 * `santiago_day_start`, migration 0046), as `santiagoDateOf` (shared/format) is TypeScript's;
 * `santiago-day.test.ts` holds them equal across the clock changes. Statements call these, never a
 * zone of their own.
 */

/** The Santiago calendar date (a `date`) of a timestamptz. */
export function santiagoDate(instant: SQL): SQL<string> {
  return sql<string>`santiago_date(${instant})`;
}

/** The first instant of a Santiago calendar day (a `date`): a range of days on an indexed instant. */
export function santiagoDayStart(day: SQL): SQL<Date> {
  return sql<Date>`santiago_day_start(${day})`;
}
