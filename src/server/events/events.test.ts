import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, loginAs, useTestApp } from '../test/app';
import { createProject, createReservation, TEST_PASSWORD } from '../test/builders';
import { openEventStream } from '../test/event-stream';
import { createSaleFlow } from '../test/flow-builders';
import type { LiveEvent } from './event-bus';
import { MAX_STREAMS_PER_SESSION } from './events.routes';

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

  it('tells every tab when a project’s units change with no flow changing (a unit blocked, a price list)', async () => {
    await listening();
    const admin = await loginAs(ctx, { firstName: 'Admin', email: 'admin@inmoflujo.test' });
    const seller = await loginAs(ctx, { firstName: 'Vera', userType: 'KAM', email: 'vera@inmoflujo.test' });
    const project = await createProject(ctx.db);
    const sellerTab = await open(seller);
    await sellerTab.next('ready');
    const created = await admin.post(`/api/stock/projects/${project.id}/units`, {
      kind: 'apartment',
      number: '1203',
      floor: 12,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await sellerTab.next('stock-changed')).data).toEqual({ projectId: project.id });
    const unit = created.json().unit;
    const blocked = await admin.post(`/api/stock/units/${unit.id}/block`, {
      reason: 'Piloto de ventas',
      version: unit.version,
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect((await sellerTab.next('stock-changed')).data).toEqual({ projectId: project.id });
    const priced = await admin.post(`/api/stock/projects/${project.id}/price-lists`, {
      effectiveDate: '2026-01-01',
      rows: [{ kind: 'apartment', number: '1203', price: '3200.50' }],
    });
    expect(priced.statusCode, priced.body).toBe(201);
    expect((await sellerTab.next('stock-changed')).data).toEqual({ projectId: project.id });
  });

  it('tells a mentioned user’s tabs at once, and their other tabs when they read it (decision 0030)', async () => {
    await listening();
    const admin = await loginAs(ctx, { firstName: 'Admin', email: 'admin@inmoflujo.test' });
    const ana = await loginAs(ctx, { firstName: 'Ana', userType: 'KAM', email: 'ana@inmoflujo.test' });
    const bruno = await loginAs(ctx, { firstName: 'Bruno', userType: 'KAM', email: 'bruno@inmoflujo.test' });
    const sale = await createSaleFlow(ctx.db, { reservationId: (await createReservation(ctx.db)).id });
    const anaTab = await open(ana);
    const anaOtherTab = await open(ana);
    const brunoTab = await open(bruno);
    for (const tab of [anaTab, anaOtherTab, brunoTab]) await tab.next('ready');

    const commented = await admin.post(
      `/api/sale-flows/${sale.id}/tasks/${sale.task('COF PENDIENTE FIRMA')}/comments`,
      { content: 'Revisa esto, @Ana Rojas', mentionedUserIds: [ana.user!.id] },
    );
    expect(commented.statusCode).toBe(201);
    expect((await anaTab.next('flow-changed')).data).toMatchObject({ flowId: sale.id, mine: true });
    expect((await anaOtherTab.next('flow-changed')).data).toMatchObject({ flowId: sale.id, mine: true });
    // Everyone else's open screen of the flow hears of the comment, not as theirs.
    expect((await brunoTab.next('flow-changed')).data).toMatchObject({ flowId: sale.id, mine: false });
    expect((await ana.get('/api/notifications/count')).json().mentions).toBe(1);

    // Read in one tab: her other tabs refresh their bell; nobody else hears of it.
    const read = await ana.post(`/api/notifications/mentions/${commented.json().id}/read`);
    expect(read.statusCode).toBe(200);
    expect((await anaOtherTab.next('inbox-changed')).data).toEqual({});
    expect((await anaTab.next('inbox-changed')).data).toEqual({});
    expect((await ana.get('/api/notifications/count')).json().mentions).toBe(0);
    // A flow change after it reaches Bruno's tab; no inbox-changed came before it.
    await publishedAfterwards(bruno.user!.id, brunoTab, [], []);
    expect(brunoTab.pending().filter((event) => event.type === 'inbox-changed')).toEqual([]);

    // The comment deleted: its mention goes, and her tabs are told.
    const deleted = await admin.delete(`/api/sale-flows/${sale.id}/comments/${commented.json().id}`);
    expect(deleted.statusCode).toBe(204);
    const told = await anaTab.next('flow-changed', (event) => event.data.flowId === sale.id);
    expect(told.data).toMatchObject({ flowId: sale.id, mine: true });
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

  /** Another browser of the same user: a session of its own. */
  async function secondSession(agent: Agent) {
    const other = new Agent(ctx.app, agent.user);
    const response = await other.post('/api/auth/login', {
      email: agent.user!.email,
      password: TEST_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(other.cookie).not.toBe(agent.cookie);
    return other;
  }

  /** A tab of each agent, open and ready. */
  async function tabsOf(...agents: Agent[]) {
    const tabs = [];
    for (const agent of agents) {
      const tab = await open(agent);
      await tab.next('ready');
      tabs.push(tab);
    }
    return tabs;
  }

  type Tab = Awaited<ReturnType<typeof open>>;

  /** Ended by the server with `session-ended` (nothing in it names the session). */
  async function expectSessionEnded(tab: Tab) {
    expect((await tab.next('session-ended')).data).toEqual({});
    expect(await tab.ended()).toBe(true);
  }

  /**
   * A change that concerns `userId`, published now: `live` tabs hear it, `gone` tabs (ended) do not.
   * `through` is a tab that must hear it, so the event has gone out when `gone` are looked at.
   */
  async function publishedAfterwards(userId: string, through: Tab, live: Tab[], gone: Tab[]) {
    // A flow of its own: a gone tab may have heard earlier changes while it was live.
    const flowId = randomUUID();
    const event: LiveEvent = {
      type: 'flow-changed',
      flowId,
      reservationId: '00000000-0000-4000-8000-000000000002',
      userIds: [userId],
    };
    ctx.app.dependencies.events.publish(event);
    await through.next('flow-changed');
    for (const tab of live) expect((await tab.next('flow-changed')).data).toMatchObject({ mine: true });
    for (const tab of gone)
      expect(
        tab.pending().filter((pending) => (pending.data as { flowId?: string }).flowId === flowId),
      ).toEqual([]);
  }

  it('ends the stream of a session that signs out, and only that session’s', async () => {
    await listening();
    const ana = await loginAs(ctx, { userType: 'KAM' });
    const anaElsewhere = await secondSession(ana);
    const bruno = await loginAs(ctx, { userType: 'KAM' });
    const [anaTab, anaSecondTab, anaOtherBrowserTab, brunoTab] = await tabsOf(ana, ana, anaElsewhere, bruno);

    expect((await ana.post('/api/auth/logout')).statusCode).toBe(204);
    // Both tabs of the browser that signed out (one session), at once.
    await expectSessionEnded(anaTab!);
    await expectSessionEnded(anaSecondTab!);
    // Her other browser keeps its stream, and so does everyone else.
    await publishedAfterwards(ana.user!.id, brunoTab!, [anaOtherBrowserTab!], [anaTab!, anaSecondTab!]);
    expect(anaOtherBrowserTab!.pending().map((event) => event.type)).not.toContain('session-ended');
  });

  it('ends every stream of a user an administrator deactivates, at once', async () => {
    await listening();
    const admin = await loginAs(ctx);
    const ana = await loginAs(ctx, { userType: 'KAM' });
    const anaElsewhere = await secondSession(ana);
    const [adminTab, anaTab, anaOtherBrowserTab] = await tabsOf(admin, ana, anaElsewhere);

    expect((await admin.post(`/api/settings/users/${ana.user!.id}/deactivate`)).statusCode).toBe(200);
    await expectSessionEnded(anaTab!);
    await expectSessionEnded(anaOtherBrowserTab!);
    await publishedAfterwards(ana.user!.id, adminTab!, [], [anaTab!, anaOtherBrowserTab!]);
    expect(adminTab!.pending().map((event) => event.type)).not.toContain('session-ended');
    // And no new stream opens for her.
    expect((await ana.get('/api/events', { accept: 'text/event-stream' })).statusCode).toBe(401);
  });

  it('ends every stream of a user whose password is changed; an administrator’s own change keeps the asking browser', async () => {
    await listening();
    const admin = await loginAs(ctx);
    const adminElsewhere = await secondSession(admin);
    const ana = await loginAs(ctx, { userType: 'KAM' });
    const anaElsewhere = await secondSession(ana);
    const [adminTab, adminOtherBrowserTab, anaTab, anaOtherBrowserTab] = await tabsOf(
      admin,
      adminElsewhere,
      ana,
      anaElsewhere,
    );

    const changed = await admin.put(`/api/settings/users/${ana.user!.id}/password`, {
      password: 'otra-clave-2026',
    });
    expect(changed.statusCode).toBe(204);
    await expectSessionEnded(anaTab!);
    await expectSessionEnded(anaOtherBrowserTab!);
    await publishedAfterwards(ana.user!.id, adminTab!, [], [anaTab!, anaOtherBrowserTab!]);

    // Her own password: the browser that asked keeps its session and stream; her other one ends.
    const own = await admin.put(`/api/settings/users/${admin.user!.id}/password`, {
      password: 'otra-clave-2026',
    });
    expect(own.statusCode).toBe(204);
    await expectSessionEnded(adminOtherBrowserTab!);
    await publishedAfterwards(admin.user!.id, adminTab!, [], [adminOtherBrowserTab!]);
    expect(adminTab!.pending().map((event) => event.type)).not.toContain('session-ended');
  });

  it('holds a few streams per session and refuses one more politely; a closed tab frees its place (issue 52)', async () => {
    await listening();
    const ana = await loginAs(ctx, { userType: 'KAM', email: 'ana@inmoflujo.test' });
    const tabs = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) {
      const tab = await open(ana);
      expect(tab.response.status).toBe(200);
      await tab.next('ready');
      tabs.push(tab);
    }
    const extra = await open(ana);
    expect(extra.response.status).toBe(429);
    // Refused by the server's door, before Fastify routed it (decision 0062).
    expect(ctx.app.doorGate.refused.stream).toBe(1);
    expect(await extra.response.json()).toEqual({
      error: {
        code: 'EVENT_STREAMS_BUSY',
        message:
          'Hay demasiadas pestañas abiertas con esta sesión; esta se actualizará cada minuto en vez de al instante.',
      },
    });
    // Another session (another browser) of the same user has its own places.
    const elsewhere = new Agent(ctx.app, ana.user);
    const signedIn = await elsewhere.post('/api/auth/login', {
      email: 'ana@inmoflujo.test',
      password: TEST_PASSWORD,
    });
    expect(signedIn.statusCode).toBe(200);
    const otherBrowserTab = await open(elsewhere);
    expect(otherBrowserTab.response.status).toBe(200);
    await otherBrowserTab.next('ready');
    // A tab closed: its place is given back once the server sees it leave (polled, bounded).
    await tabs[0]!.close();
    let again = await open(ana);
    for (let i = 0; again.response.status === 429 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await open(ana);
    }
    expect(again.response.status).toBe(200);
    await again.next('ready');
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
