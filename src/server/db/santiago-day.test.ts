import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { projectSources } from '../../../scripts/import-boundaries';
import { santiagoDateOf, santiagoInstant } from '../../shared/format';
import { useTestApp } from '../test/app';
import { isoInstant, queryRows } from './client';
import { santiagoDate, santiagoDayStart } from './santiago-day';

/** Every half hour from `from` for `hours` hours. */
function halfHours(from: string, hours: number): Date[] {
  const start = Date.parse(from);
  return Array.from({ length: hours * 2 }, (_, index) => new Date(start + index * 30 * 60_000));
}

const dayOf = z.object({ instant: z.string(), day: z.string() });
const startOf = z.object({ day: z.string(), start: z.string() });

describe('the Santiago day: one home in TypeScript, one in SQL, held equal (issue 62)', () => {
  const ctx = useTestApp();

  // Chile's clocks went back at 24:00 on 4 April 2026 (−03 → −04) and forward at 24:00 on
  // 5 September 2026 (−04 → −03): around each, midnight and the repeated or skipped hour.
  const changes = [...halfHours('2026-04-03T12:00:00Z', 60), ...halfHours('2026-09-04T12:00:00Z', 60)];

  it('gives each instant the same calendar date as santiagoDateOf', async () => {
    const rows = await queryRows(
      ctx.db,
      sql`select ${isoInstant(sql`t`)} as instant, ${santiagoDate(sql`t`)}::text as day
            from unnest(${`{${changes.map((instant) => instant.toISOString()).join(',')}}`}::timestamptz[]) as t`,
      dayOf,
    );
    expect(rows).toHaveLength(changes.length);
    expect(rows.map((row) => [row.instant, row.day])).toEqual(
      changes.map((instant) => [instant.toISOString(), santiagoDateOf(instant)]),
    );
    // The sweep crosses both changes: the dates it saw include each change's two days.
    expect(new Set(rows.map((row) => row.day))).toEqual(
      new Set(['2026-04-03', '2026-04-04', '2026-04-05', '2026-09-04', '2026-09-05', '2026-09-06']),
    );
  });

  it('starts each day at the instant santiagoInstant gives its midnight (or the first after a skipped one)', async () => {
    const days = ['2026-04-04', '2026-04-05', '2026-04-06', '2026-09-05', '2026-09-06', '2026-09-07'];
    const rows = await queryRows(
      ctx.db,
      sql`select d::text as day, ${isoInstant(santiagoDayStart(sql`d`))} as start
            from unnest(${`{${days.join(',')}}`}::date[]) as d order by d`,
      startOf,
    );
    expect(rows).toEqual(days.map((day) => ({ day, start: santiagoInstant(day, '00:00')?.toISOString() })));
    // 5 April began at −04; 6 September began at 01:00 −03, the clocks having skipped its midnight.
    expect(rows.find((row) => row.day === '2026-04-05')?.start).toBe('2026-04-05T04:00:00.000Z');
    expect(rows.find((row) => row.day === '2026-09-06')?.start).toBe('2026-09-06T04:00:00.000Z');
  });

  it('is computed nowhere else: no statement of the server names a zone but UTC', () => {
    const zoned = projectSources('src/server')
      .filter((file) => !file.path.endsWith('.test.ts'))
      .flatMap((file) =>
        file.text
          .split('\n')
          .map((line, index) => ({ line, at: `${file.path}:${index + 1}` }))
          .filter(({ line }) => /at time zone (?!'UTC')/i.test(line))
          .map(({ at }) => at),
      );
    expect(
      zoned,
      'use santiagoDate / santiagoDayStart (db/santiago-day.ts) or santiago_date() in SQL',
    ).toEqual([]);
  });
});
