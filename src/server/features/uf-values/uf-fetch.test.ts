import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { errorOf, loginAs, useTestApp } from '../../test/app';
import { startUfFetchJob } from './uf-values.service';

// The automatic UF fetch (issue 33, decision 0034) against a local fake of the CMF's API.

const NOW = new Date('2026-11-26T15:00:00Z');

/** November 10 to December 9, 2026, as the CMF publishes them ('39.701,23'). */
function publishedMonth(): { Valor: string; Fecha: string }[] {
  const rows: { Valor: string; Fecha: string }[] = [];
  const start = Date.UTC(2026, 10, 10);
  for (let day = 0; day < 30; day++) {
    const value = (39_700 * 1.0001 ** day).toFixed(2);
    const [whole, cents] = value.split('.');
    rows.push({
      Valor: `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents}`,
      Fecha: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
    });
  }
  return rows;
}

/** What the fake answers next: the month, an error, something unreadable. */
let answer: { status: number; body: string } = { status: 200, body: '' };
const asked: string[] = [];
let fake: Server;
let fakeUrl = '';

beforeAll(async () => {
  fake = createServer((request, response) => {
    asked.push(request.url ?? '');
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/api-sbifv3/recursos_api/uf`;
});
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

const month = () => ({ status: 200, body: JSON.stringify({ UFs: publishedMonth() }) });

async function stored(ctx: ReturnType<typeof useTestApp>) {
  return queryRows<{ date: string; value: string; source: string }>(
    ctx.db,
    sql`select date::text as date, value::text as value, source from uf_values order by date`,
  );
}

describe('the automatic UF fetch, with an API key', () => {
  const ctx = useTestApp({ now: () => NOW, env: () => ({ UF_API_KEY: 'clave-cmf', UF_API_URL: fakeUrl }) });

  it('saves the published values as automatic, records the attempt, and shows it', async () => {
    const admin = await loginAs(ctx);
    answer = month();
    asked.length = 0;
    const first = await admin.post('/api/uf-values/automatic');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().fetch).toMatchObject({ status: 'saved', received: 30, added: 30, failure: null });
    expect(asked).toEqual(['/api-sbifv3/recursos_api/uf/posteriores/2026/11?apikey=clave-cmf&formato=json']);
    const values = await stored(ctx);
    expect(values).toHaveLength(30);
    expect(values[0]).toEqual({ date: '2026-11-10', value: '39700.00', source: 'automatic' });
    expect(values.at(-1)).toMatchObject({ date: '2026-12-09', source: 'automatic' });
    // Audited, the administrator who asked for the attempt as their author.
    const authors = await queryRows<{ actor_id: string | null }>(
      ctx.db,
      sql`select distinct actor_id from audit_log where table_name = 'uf_values'`,
    );
    expect(authors).toEqual([{ actor_id: admin.user!.id }]);

    // Again: nothing new; the status says the last attempt.
    expect((await admin.post('/api/uf-values/automatic')).json().fetch).toMatchObject({
      status: 'saved',
      received: 30,
      added: 0,
    });
    const status = (await admin.get('/api/uf-values/automatic')).json();
    expect(status).toMatchObject({
      enabled: true,
      source: new URL(fakeUrl).host,
      last: { status: 'saved', added: 0, attemptedAt: NOW.toISOString() },
    });
  });

  it('changes nothing when the source fails or answers what cannot be taken, and says why', async () => {
    const admin = await loginAs(ctx);
    answer = month();
    await admin.post('/api/uf-values/automatic');
    // A person corrected a day: the fetch will not overwrite it.
    await ctx.db.execute(
      sql`update uf_values set value = 39800.00, source = 'user' where date = '2026-11-20'`,
    );
    const before = await stored(ctx);
    const cases: [{ status: number; body: string }, string][] = [
      [{ status: 503, body: '' }, 'La fuente respondió con el error 503'],
      [{ status: 200, body: '<html>mantención</html>' }, 'La respuesta de la fuente no se pudo leer'],
      [{ status: 200, body: '{"UFs": []}' }, 'La respuesta de la fuente no trae valores UF'],
      [
        { status: 200, body: JSON.stringify({ UFs: [{ Valor: 'N/D', Fecha: '2026-11-27' }] }) },
        'La fuente trae un valor ilegible',
      ],
      [month(), 'No se guardó nada. Revise y confirme antes de guardar'],
    ];
    for (const [reply, reason] of cases) {
      answer = reply;
      const attempt = await admin.post('/api/uf-values/automatic');
      expect(attempt.statusCode, attempt.body).toBe(200);
      expect(attempt.json().fetch).toMatchObject({ status: 'failed', added: 0 });
      expect(attempt.json().fetch.failure).toContain(reason);
      expect(await stored(ctx)).toEqual(before);
    }
    const status = (await admin.get('/api/uf-values/automatic')).json();
    expect(status.last.failure).toMatch(/El 20.11.2026 cambia de/);
  });

  it('lets only administrators see it or ask for an attempt', async () => {
    const seller = await loginAs(ctx, { userType: 'KAM' });
    answer = month();
    expect((await seller.get('/api/uf-values/automatic')).statusCode).toBe(403);
    const refused = await seller.post('/api/uf-values/automatic');
    expect(refused.statusCode).toBe(403);
    expect(await stored(ctx)).toEqual([]);
  });

  it('runs by itself in the server until the day is saved, then waits for the next day', async () => {
    answer = month();
    asked.length = 0;
    const stop = startUfFetchJob({
      db: ctx.appDb,
      settings: { apiKey: 'clave-cmf', baseUrl: fakeUrl },
      log: { warn: () => {} },
      everyMs: 50,
    });
    try {
      await expect.poll(async () => (await stored(ctx)).length, { timeout: 10_000 }).toBe(30);
      // The server's own writes: 'sistema' in the audit trail.
      const authors = await queryRows<{ actor_id: string | null }>(
        ctx.db,
        sql`select distinct actor_id from audit_log where table_name = 'uf_values'`,
      );
      expect(authors).toEqual([{ actor_id: null }]);
      // Saved today: the next rounds do not ask again.
      const askedOnce = asked.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(asked.length).toBe(askedOnce);
    } finally {
      stop();
    }
  });
});

describe('the automatic UF fetch, without an API key', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('is off: the status says so and an attempt is refused in Spanish', async () => {
    const admin = await loginAs(ctx);
    expect((await admin.get('/api/uf-values/automatic')).json()).toEqual({
      enabled: false,
      source: null,
      last: null,
    });
    const refused = await admin.post('/api/uf-values/automatic');
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      'La consulta automática de valores UF no está activada: configure UF_API_KEY en el servidor.',
    );
  });
});
