import { afterEach, describe, expect, it } from 'vitest';
import { Agent, loginAs, useTestApp } from '../test/app';
import { createReservation } from '../test/builders';
import { openEventStream } from '../test/event-stream';
import { createSaleFlow } from '../test/flow-builders';

describe('GET /api/events (live updates, one stream per tab)', () => {
  const ctx = useTestApp();
  const streams: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  async function listening() {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  }
  async function open(agent: Agent) {
    const stream = await openEventStream(ctx.app, agent.cookie);
    streams.push(stream);
    return stream;
  }

  it('tells the assigned user’s tab that their tasks changed, and everyone else’s which flow changed', async () => {
    await listening();
    const admin = await loginAs(ctx, { firstName: 'Admin', email: 'admin@inmoflujo.test' });
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const bruno = await loginAs(ctx, { firstName: 'Bruno', userType: 'KAM', email: 'bruno@inmoflujo.test' });
    const sale = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    const anaTab = await open(ana);
    const brunoTab = await open(bruno);
    expect(anaTab.response.status).toBe(200);
    expect(anaTab.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(anaTab.response.headers.get('cache-control')).toBe('no-store');
    await anaTab.next('ready');
    await brunoTab.next('ready');

    const before = (await ana.get('/api/notifications/count')).json().count as number;
    const assigned = await admin.post(
      `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE FIRMA')}/assignees`,
      {
        userId: ana.user!.id,
      },
    );
    expect(assigned.statusCode).toBe(200);
    const mine = await anaTab.next('flow-changed');
    expect(mine.data).toMatchObject({ flowId: sale.id, mine: true });
    expect((await ana.get('/api/notifications/count')).json().count).toBe(before + 1);
    const theirs = await brunoTab.next('flow-changed');
    expect(theirs.data).toMatchObject({ flowId: sale.id, mine: false });

    // Completed: the task leaves Ana's list, and her tab hears it.
    const completed = await admin.put(
      `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE FIRMA')}/status`,
      {
        status: 'completed',
      },
    );
    expect(completed.statusCode).toBe(200);
    expect((await anaTab.next('flow-changed')).data).toMatchObject({ flowId: sale.id, mine: true });
    expect((await ana.get('/api/notifications/count')).json().count).toBe(before);
  });

  it('needs a session, and is a stream only for those who ask for one', async () => {
    const response = await new Agent(ctx.app).get('/api/events', { accept: 'text/event-stream' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
    const ana = await loginAs(ctx, { userType: 'KAM' });
    const notAStream = await ana.get('/api/events');
    expect(notAStream.statusCode).toBe(406);
    expect(notAStream.json().error.code).toBe('EVENT_STREAM_ONLY');
    expect((await ana.get('/api/events?desde=ayer', { accept: 'text/event-stream' })).statusCode).toBe(400);
  });

  it('lets go of its streams when the server closes', async () => {
    await listening();
    const ana = await loginAs(ctx, { userType: 'KAM' });
    const tab = await open(ana);
    await tab.next('ready');
    await ctx.app.close();
    expect(await tab.ended()).toBe(true);
  });
});
