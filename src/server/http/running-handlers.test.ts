import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { queryRows } from '../db/client';
import { collectedLog, useTestApp } from '../test/app';

/** A gate a test opens: the handler under test waits at it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('closing the server while a handler still runs', () => {
  const ctx = useTestApp();

  it('waits for a handler whose client has gone before the database closes under it', async () => {
    const app = await buildApp({
      db: ctx.appDb,
      serveClient: false,
      env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    });
    const started = gate();
    const release = gate();
    const order: string[] = [];
    // What a route does after its client left: its work, then a read (the read-back of a write).
    app.get('/probe/slow', { config: { public: true } }, async () => {
      started.open();
      await release.opened;
      const [row] = await queryRows<{ answer: number }>(ctx.appDb, sql`select 42 as answer`);
      order.push(`handler read ${row!.answer}`);
      return { answer: row!.answer };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const client = httpRequest({ host: '127.0.0.1', port, path: '/probe/slow' });
    client.on('error', () => {});
    client.end();
    await started.opened;
    client.destroy();
    // The server stops once its last connection is gone; the handler goes on a while after (a close
    // that waited for sockets alone was over by then).
    app.server.once('close', () => setTimeout(release.open, 200));
    await app.close();
    order.push('app closed');
    expect(order).toEqual(['handler read 42', 'app closed']);
  });

  it('waits no longer than its grace, and says what it left running', async () => {
    const { lines, stream: logStream } = collectedLog();
    const app = await buildApp({
      db: ctx.appDb,
      serveClient: false,
      env: { NODE_ENV: 'test', LOG_LEVEL: 'info' },
      logStream,
      stopGraceMs: 50,
    });
    const started = gate();
    const never = gate();
    app.get('/probe/stuck', { config: { public: true } }, async () => {
      started.open();
      await never.opened;
      return {};
    });
    await app.ready();
    void app.inject({ method: 'GET', url: '/probe/stuck' });
    await started.opened;
    await app.close();
    const warning = lines.map((line) => JSON.parse(line)).find((line) => line.level === 40);
    expect(warning).toMatchObject({ running: 1, graceMs: 50, msg: 'closing with requests still running' });
    never.open();
  });

  it('counts handlers that answered, returned their reply or threw as ended', async () => {
    const app = await buildApp({
      db: ctx.appDb,
      serveClient: false,
      env: { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      stopGraceMs: 60_000,
    });
    app.get('/probe/value', { config: { public: true } }, async () => ({ ok: true }));
    app.get('/probe/reply', { config: { public: true } }, (_request, reply) => reply.send({ ok: true }));
    app.get('/probe/throws', { config: { public: true } }, () => {
      throw new Error('falla de la prueba');
    });
    app.get('/probe/rejects', { config: { public: true } }, async () => {
      throw new Error('falla de la prueba');
    });
    await app.ready();
    const statuses = [];
    for (const url of ['/probe/value', '/probe/reply', '/probe/throws', '/probe/rejects'])
      statuses.push((await app.inject({ method: 'GET', url })).statusCode);
    expect(statuses).toEqual([200, 200, 500, 500]);
    // A count left above nought would hold this close for its minute of grace (the test's timeout).
    await app.close();
  });
});
