import { desc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';
import { createClient } from '../test/builders';
import { isoInstant } from './client';
import { type PageSpec, selectPage } from './paging';
import { clients } from './schema';
import { escapeLike, matchesEveryWord } from './search';

describe('selectPage', () => {
  const ctx = useTestApp();

  const spec = (overrides: Partial<PageSpec> = {}): PageSpec => ({
    columns: {
      id: clients.id,
      rut: clients.rut,
      birthDate: clients.birthDate,
      createdAt: isoInstant(clients.createdAt),
    },
    from: clients,
    orderBy: [desc(clients.createdAt), desc(clients.id)],
    page: 1,
    pageSize: 2,
    ...overrides,
  });

  it('answers one ordered page plus a total capped at the limit, and keeps the total on an empty page', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(
        await createClient(ctx.db, {
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
          birthDate: '1990-02-03',
        }),
      );
    }
    const newestFirst = created.reverse().map((client) => client.id);

    const first = await selectPage<{ id: string; birthDate: string; createdAt: string }>(ctx.db, spec());
    expect(first.rows.map((row) => row.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.rows[0]).toEqual({
      id: newestFirst[0],
      rut: expect.stringMatching(/^\d+-[\dK]$/),
      birthDate: '1990-02-03',
      createdAt: '2026-01-05T00:00:00.000Z',
    });
    expect(first).toMatchObject({ total: 5, totalIsCapped: false });

    const last = await selectPage<{ id: string }>(ctx.db, spec({ page: 3 }));
    expect(last.rows.map((row) => row.id)).toEqual(newestFirst.slice(4));

    const beyond = await selectPage(ctx.db, spec({ page: 9 }));
    expect(beyond).toEqual({ rows: [], total: 5, totalIsCapped: false });

    const capped = await selectPage(ctx.db, spec({ cap: 3 }));
    expect(capped).toMatchObject({ total: 3, totalIsCapped: true });
    expect(capped.rows).toHaveLength(2);

    const exactlyAtCap = await selectPage(ctx.db, spec({ cap: 5 }));
    expect(exactlyAtCap).toMatchObject({ total: 5, totalIsCapped: false });

    const none = await selectPage(ctx.db, spec({ where: sql`false` }));
    expect(none).toEqual({ rows: [], total: 0, totalIsCapped: false });
  });

  it('matches every word literally, whatever characters the user typed', async () => {
    const percent = await createClient(ctx.db, { firstName: '100%_\\ Real', lastName: 'Núñez' });
    await createClient(ctx.db, { firstName: '1000 Otro', lastName: 'Núñez' });
    const search = (query: string) =>
      selectPage<{ id: string }>(
        ctx.db,
        spec({ pageSize: 10, where: matchesEveryWord(clients.searchText, query) }),
      );

    expect((await search('100%_\\')).rows.map((row) => row.id)).toEqual([percent.id]);
    expect((await search('nunez 100%')).rows.map((row) => row.id)).toEqual([percent.id]);
    expect((await search('NÚÑEZ')).total).toBe(2);
    expect((await search("'; drop table clients; --")).total).toBe(0);
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });
});
