import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { type DatabaseHandle, postgresHandle, postgresPool } from '../db/client';
import { loginAs } from '../test/app';
import { createReservation } from '../test/builders';
import { createPostgresTestDatabase, testDatabaseUrl } from '../test/database';
import { describeOnPostgres } from '../test/engine';
import { openEventStream } from '../test/event-stream';
import { createSaleFlow } from '../test/flow-builders';
import { systemDatabase } from '../test/system-database';
import type { EventBus, LiveEvent } from './event-bus';
import { envelopes, postgresEventBus } from './postgres-event-bus';

describe('NOTIFY payloads', () => {
  it('split an event for many users under PostgreSQL’s 8,000-byte limit, every user in one part', () => {
    const userIds = Array.from(
      { length: 500 },
      (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    );
    const event: LiveEvent = {
      type: 'flow-changed',
      flowId: userIds[0]!,
      reservationId: userIds[1]!,
      userIds,
    };
    const parts = envelopes(event);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(Buffer.byteLength(JSON.stringify({ from: userIds[2], event: part }))).toBeLessThan(8_000);
    }
    expect(parts.flatMap((part) => (part.type === 'flow-changed' ? part.userIds : []))).toEqual(userIds);
    const small: LiveEvent = { ...event, userIds: userIds.slice(0, 3) };
    expect(envelopes(small)).toEqual([small]);
  });
});

// Several server instances share one database only on PostgreSQL (the embedded database belongs to
// one process): this journey exists in the PostgreSQL run of the suite (TEST_DATABASE_URL).
const url = testDatabaseUrl();
describeOnPostgres('live events across server instances on one PostgreSQL database', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two instances as production runs them: each its own pool, LISTEN connection and server. */
  async function twoInstances() {
    const database = await createPostgresTestDatabase(url!);
    cleanups.push(() => database.drop());
    const instances: {
      app: FastifyInstance;
      db: DatabaseHandle['db'];
      appDb: DatabaseHandle['db'];
      events: EventBus;
    }[] = [];
    for (let index = 0; index < 2; index++) {
      const handle = postgresHandle(postgresPool(database.url, 4));
      cleanups.push(() => handle.close());
      const events = await postgresEventBus({
        connectionString: database.url,
        notify: async (channel, payload) => {
          await handle.db.execute(sql`select pg_notify(${channel}, ${payload})`);
        },
        log: { warn() {}, info() {} },
      });
      cleanups.push(() => events.close!());
      const app = await buildApp({
        db: handle.db,
        events,
        serveClient: false,
        env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      });
      cleanups.push(() => app.close());
      await app.listen({ host: '127.0.0.1', port: 0 });
      instances.push({ app, db: systemDatabase(handle.db), appDb: handle.db, events });
    }
    const [one, other] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const admin = await loginAs(one, { firstName: 'Admin', email: 'admin@inmoflujo.test' });
    const ana = await loginAs(other, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const tab = await openEventStream(other.app, ana.cookie);
    cleanups.push(() => tab.close());
    await tab.next('ready');
    return { one, other, admin, ana, tab };
  }

  it('delivers a change made through one instance to a stream opened on the other', async () => {
    const { one, admin, ana, tab } = await twoInstances();
    const sale = await createSaleFlow(one.db, { reservationId: (await createReservation(one.db)).id });
    const before = (await ana.get('/api/notifications/count')).json().count as number;
    const assigned = await admin.post(
      `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE FIRMA')}/assignees`,
      { userId: ana.user!.id },
    );
    expect(assigned.statusCode).toBe(200);
    expect((await tab.next('flow-changed')).data).toMatchObject({ flowId: sale.id, mine: true });
    // The other instance's badge counts it (one database).
    expect((await ana.get('/api/notifications/count')).json().count).toBe(before + 1);
  });

  it('listens again when its connection is lost, tells open tabs to refresh, and delivers again', async () => {
    const { one, admin, ana, tab } = await twoInstances();
    // Both instances' LISTEN connections cut, as a PostgreSQL restart or a failover would.
    await one.db.execute(sql`
        select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query ilike 'listen %'`);
    await tab.next('resync');
    const sale = await createSaleFlow(one.db, { reservationId: (await createReservation(one.db)).id });
    const assigned = await admin.post(
      `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE GENERACIÓN')}/assignees`,
      { userId: ana.user!.id },
    );
    expect(assigned.statusCode).toBe(200);
    expect((await tab.next('flow-changed', (event) => event.data.flowId === sale.id)).data).toMatchObject({
      mine: true,
    });
  });
});
