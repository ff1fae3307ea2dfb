import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { brokerCommissions, clients, reservations } from '../../db/schema';
import { Agent, loginAs, useTestApp } from '../../test/app';
import {
  createBroker,
  createClient,
  createProject,
  createReservation,
  createUser,
  PLAIN_RESERVATION_TERMS,
} from '../../test/builders';
import { testDatabaseUrl } from '../../test/database';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import { addUnit, gridOf, stockScene } from '../../test/stock-builders';

// The clock of the app under test: each test sets it before asking.
const clock = { now: new Date('2026-03-15T15:00:00Z') };
const MINUTE = 60_000;

describe('GET /api/dashboard', () => {
  const ctx = useTestApp({ now: () => clock.now });

  it('aggregates every figure of a known dataset', async () => {
    clock.now = new Date('2026-03-15T15:00:00Z'); // 12:00 on 15 March in Santiago
    const admin = await loginAs(ctx);
    const seller = await createUser(ctx.db, { firstName: 'Sofía', lastName: 'Vendedora', isSeller: true });
    const payer = await createUser(ctx.db, { firstName: 'Pedro', lastName: 'Pagos' });

    const alameda = await createProject(ctx.db, {
      name: 'Edificio Alameda',
      stage: 'Etapa 1',
      totalUnits: 10,
    });
    const nunoa = await createProject(ctx.db, { name: 'Parque Ñuñoa', stage: 'Etapa 2', totalUnits: null });
    const torre = await createProject(ctx.db, { name: 'Torre Costanera', stage: 'Etapa 3', totalUnits: 3 });
    await createProject(ctx.db, { name: 'Alto Vitacura', stage: 'Etapa 1', totalUnits: 50 });

    const norte = await createBroker(ctx.db, { name: 'Corredora Norte' });
    const sur = await createBroker(ctx.db, { name: 'Propiedades Sur' });
    const zeta = await createBroker(ctx.db, { name: 'Inversiones Zeta' });
    const andes = await createBroker(ctx.db, { name: 'Broker Andes' });
    const bosque = await createBroker(ctx.db, { name: 'Broker Bosque' });
    const cordillera = await createBroker(ctx.db, { name: 'Broker Cordillera' });
    await createBroker(ctx.db, { name: 'Broker Sin Ventas' });

    // r1 is the newest entered, r13 the oldest.
    const entered = new Date('2026-03-15T12:00:00Z').getTime();
    let order = 0;
    const reserve = (
      projectId: string,
      reservationDate: string,
      extra: Partial<Parameters<typeof createReservation>[1]> = {},
    ) =>
      createReservation(ctx.db, {
        projectId,
        reservationDate,
        createdAt: new Date(entered - ++order * MINUTE),
        ...extra,
      });
    const broker = (id: string) => ({ isWithBroker: true, brokerId: id });

    const r1 = await reserve(alameda.id, '2026-03-01', {
      ...broker(norte.id),
      reservationNumber: 'R-001',
      apartmentNumber: '1201',
    });
    const r2 = await reserve(alameda.id, '2026-03-10', broker(sur.id));
    const r3 = await reserve(nunoa.id, '2026-03-10', { sellerId: seller.id, reservationNumber: 'R-003' });
    const r4 = await reserve(alameda.id, '2026-03-05', {
      ...broker(norte.id),
      isRescinded: true,
      reservationNumber: 'R-004',
    });
    const r5 = await reserve(nunoa.id, '2026-02-28', broker(norte.id));
    await reserve(torre.id, '2026-02-01');
    await reserve(torre.id, '2025-12-31');
    await reserve(torre.id, '2025-10-01');
    const r9 = await reserve(torre.id, '2025-09-30', broker(zeta.id));
    await reserve(alameda.id, '2026-04-01');
    const r11 = await reserve(nunoa.id, '2025-08-10', broker(andes.id));
    const r12 = await reserve(nunoa.id, '2025-08-11', broker(bosque.id));
    await reserve(nunoa.id, '2025-08-12', broker(cordillera.id));
    // Soft-deleted clients are not counted.
    await ctx.db
      .update(clients)
      .set({ deletedAt: new Date() })
      .where(eq(clients.id, (await createClient(ctx.db)).id));

    const c1 = await createCommission(ctx.db, r1, { commissionAmount: '120.50' });
    const c2 = await createCommission(ctx.db, r2, { commissionAmount: '80.25' });
    await createCommission(ctx.db, r4, { commissionAmount: '999.00' }); // rescinded: left out
    const c5 = await createCommission(ctx.db, r5, {
      commissionAmount: '200.00',
      numberOfPayments: 2,
      firstPaymentPercentage: 25,
      payment1Date: '2026-02-20',
    });
    await createCommission(ctx.db, r9, { commissionAmount: '1000.00' });
    const c11 = await createCommission(ctx.db, r11, { commissionAmount: '10.00' });
    const c12 = await createCommission(ctx.db, r12, { commissionAmount: '5.00' });
    const flowOfR1 = await createSaleFlow(ctx.db, { reservationId: r1.id });

    // Payment flows. In progress: the oldest open task is the current one. It started at 23:30 on
    // 11 March in Santiago (already the 12th in UTC): 4 Santiago days to the 15th, minus 1 allowed.
    const at = (iso: string) => ({ at: new Date(iso) });
    const f1 = await createPaymentFlow(ctx.db, { brokerCommissionId: c1.id, ...at('2026-03-10T13:00:00Z') });
    await f1.start(at('2026-03-10T13:00:00Z'));
    await f1.completeAll(
      ['Solicitud Liquidación', 'Solicitud a Jefe Inversiones'],
      at('2026-03-11T12:00:00Z'),
    );
    // Both branches open when 'VB Jefe Inversiones' completes (workflows.md §1.4).
    await f1.complete('VB Jefe Inversiones', at('2026-03-12T02:30:00Z'));
    await f1.setStatus('Solicitud Gerente Comercial', 'in_progress', at('2026-03-12T02:30:00Z'));
    await f1.assign('Solicitud Gerente Comercial', payer.id, at('2026-03-12T02:30:00Z'));
    // 'VB Operaciones' opens a day later: not the current task, which is the oldest open one.
    await f1.complete('Solicitud Operaciones', at('2026-03-13T12:00:00Z'));
    const f2 = await createPaymentFlow(ctx.db, { brokerCommissionId: c5.id, ...at('2026-02-01T13:00:00Z') });
    await f2.start(at('2026-02-01T13:00:00Z'));
    await f2.completeAll(f2.taskNames(), at('2026-02-20T13:00:00Z'));
    const f3 = await createPaymentFlow(ctx.db, {
      brokerCommissionId: c5.id,
      isSecondPayment: true,
      ...at('2026-03-14T12:00:00Z'),
    });
    await f3.start(at('2026-03-14T12:00:00Z'));
    const f4 = await createPaymentFlow(ctx.db, { brokerCommissionId: c2.id, ...at('2026-03-13T12:00:00Z') });
    const f7 = await createPaymentFlow(ctx.db, { brokerCommissionId: c11.id, ...at('2026-03-01T12:00:00Z') });
    await createPaymentFlow(ctx.db, { brokerCommissionId: c12.id, ...at('2026-02-01T12:00:00Z') });

    const response = await admin.get('/api/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json();

    expect(data.totals).toEqual({ reservations: 12, clients: 13, projects: 4, brokers: 7 });
    expect(data.monthlyStats).toEqual({
      month: '2026-03',
      reservations: 3,
      previousReservations: 2,
      reservationsChange: 50,
      commissions: '200.75',
      previousCommissions: '200.00',
    });
    // The reservation of 30 September and the one of 1 April fall outside the six months.
    expect(data.monthlyReservations).toEqual([
      { month: '2025-10', count: 1 },
      { month: '2025-11', count: 0 },
      { month: '2025-12', count: 1 },
      { month: '2026-01', count: 0 },
      { month: '2026-02', count: 2 },
      { month: '2026-03', count: 3 },
    ]);
    expect(data.monthlyCommissions).toEqual([
      { month: '2025-10', amount: '0.00' },
      { month: '2025-11', amount: '0.00' },
      { month: '2025-12', amount: '0.00' },
      { month: '2026-01', amount: '0.00' },
      { month: '2026-02', amount: '200.00' },
      { month: '2026-03', amount: '200.75' },
    ]);
    expect(data.projectStats).toEqual([
      expect.objectContaining({
        name: 'Alto Vitacura',
        stage: 'Etapa 1',
        reserved: 0,
        total: 50,
        available: 50,
      }),
      { id: alameda.id, name: 'Edificio Alameda', stage: 'Etapa 1', reserved: 3, total: 10, available: 7 },
      expect.objectContaining({ name: 'Parque Ñuñoa', reserved: 5, total: null, available: null }),
      expect.objectContaining({ name: 'Torre Costanera', reserved: 4, total: 3, available: 0 }),
    ]);
    expect(data.brokerStats).toEqual([
      { id: zeta.id, name: 'Inversiones Zeta', reservations: 1, commissions: '1000.00' },
      { id: norte.id, name: 'Corredora Norte', reservations: 2, commissions: '320.50' },
      { id: sur.id, name: 'Propiedades Sur', reservations: 1, commissions: '80.25' },
      { id: andes.id, name: 'Broker Andes', reservations: 1, commissions: '10.00' },
      { id: bosque.id, name: 'Broker Bosque', reservations: 1, commissions: '5.00' },
    ]);

    expect(data.recentReservations.map((row: { id: string }) => row.id)).toEqual([
      r1.id,
      r2.id,
      r3.id,
      r4.id,
      r5.id,
    ]);
    expect(data.recentReservations[0]).toEqual({
      id: r1.id,
      reservationNumber: 'R-001',
      projectName: 'Edificio Alameda',
      projectStage: 'Etapa 1',
      apartmentNumber: '1201',
      clientName: expect.stringMatching(/^Juan Pérez/),
      sellerName: null,
      brokerName: 'Corredora Norte',
      totalPrice: r1.totalPrice,
      reservationDate: '2026-03-01',
      isRescinded: false,
      reservationFlowId: flowOfR1.id,
    });
    expect(data.recentReservations[2]).toMatchObject({
      reservationNumber: 'R-003',
      sellerName: 'Sofía Vendedora',
      brokerName: null,
      reservationFlowId: null,
    });
    expect(data.recentReservations[3]).toMatchObject({ reservationNumber: 'R-004', isRescinded: true });

    // started_at desc, then the flows not started yet by created_at desc; five of them.
    expect(data.recentPayments).toEqual([
      {
        id: f3.id,
        brokerName: 'Corredora Norte',
        reservationId: r5.id,
        reservationNumber: r5.reservationNumber,
        isSecondPayment: true,
        status: 'in_progress',
        currentTaskName: 'Generación de Entrada 2',
        daysOverdue: 0,
        assigneeName: null,
        amount: '150.00',
        paymentDate: null,
      },
      {
        id: f1.id,
        brokerName: 'Corredora Norte',
        reservationId: r1.id,
        reservationNumber: 'R-001',
        isSecondPayment: false,
        status: 'in_progress',
        currentTaskName: 'Solicitud Gerente Comercial',
        daysOverdue: 3,
        assigneeName: 'Pedro Pagos',
        amount: '120.50',
        paymentDate: null,
      },
      expect.objectContaining({
        id: f2.id,
        status: 'completed',
        currentTaskName: null,
        daysOverdue: null,
        amount: '50.00',
        paymentDate: '2026-02-20',
      }),
      expect.objectContaining({
        id: f4.id,
        brokerName: 'Propiedades Sur',
        status: 'pending',
        currentTaskName: null,
        amount: '80.25',
      }),
      expect.objectContaining({ id: f7.id, brokerName: 'Broker Andes', status: 'pending' }),
    ]);

    // The task's days late keep growing with the clock while it stays open.
    clock.now = new Date('2026-03-17T15:00:00Z');
    const later = (await admin.get('/api/dashboard')).json();
    expect(later.recentPayments[1]).toMatchObject({ id: f1.id, daysOverdue: 5 });
  });

  it('counts months on the Santiago calendar and signs the change versus the previous month', async () => {
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db);
    for (const date of ['2025-12-15', '2026-01-02', '2026-01-15', '2026-01-31', '2026-02-01', '2026-02-27']) {
      await createReservation(ctx.db, { projectId: project.id, reservationDate: date });
    }
    await createReservation(ctx.db, { projectId: project.id, reservationDate: '2026-03-01' });
    const monthly = async () => (await admin.get('/api/dashboard')).json();

    // 23:00 on 28 February in Santiago, already 1 March in UTC: the current month is February and
    // the reservation dated 1 March is not in the window yet. 2 against 3: −33 %.
    clock.now = new Date('2026-03-01T02:00:00Z');
    let data = await monthly();
    expect(data.monthlyStats).toMatchObject({
      month: '2026-02',
      reservations: 2,
      previousReservations: 3,
      reservationsChange: -33,
    });
    expect(data.monthlyReservations.map((m: { month: string }) => m.month)).toEqual([
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
    expect(data.monthlyReservations.at(-1)).toEqual({ month: '2026-02', count: 2 });

    // 00:30 on 1 March in Santiago: March has the reservation dated on the 1st (and only March).
    clock.now = new Date('2026-03-01T03:30:00Z');
    data = await monthly();
    expect(data.monthlyStats).toMatchObject({
      month: '2026-03',
      reservations: 1,
      previousReservations: 2,
      reservationsChange: -50,
    });
    expect(data.monthlyReservations.slice(-3)).toEqual([
      { month: '2026-01', count: 3 },
      { month: '2026-02', count: 2 },
      { month: '2026-03', count: 1 },
    ]);

    // January (3) against December (1): +200 %. December against an empty November: 100 %, positive.
    clock.now = new Date('2026-01-20T15:00:00Z');
    expect((await monthly()).monthlyStats).toMatchObject({ reservations: 3, reservationsChange: 200 });
    clock.now = new Date('2025-12-20T15:00:00Z');
    expect((await monthly()).monthlyStats).toMatchObject({
      reservations: 1,
      previousReservations: 0,
      reservationsChange: 100,
    });
  });

  it('answers an empty database with zeros and empty lists, and needs a session', async () => {
    clock.now = new Date('2026-03-15T15:00:00Z');
    expect((await new Agent(ctx.app).get('/api/dashboard')).statusCode).toBe(401);
    const admin = await loginAs(ctx);
    const data = (await admin.get('/api/dashboard')).json();
    expect(data.totals).toEqual({ reservations: 0, clients: 0, projects: 0, brokers: 0 });
    expect(data.monthlyStats).toEqual({
      month: '2026-03',
      reservations: 0,
      previousReservations: 0,
      reservationsChange: 100,
      commissions: '0.00',
      previousCommissions: '0.00',
    });
    expect(data.monthlyReservations).toHaveLength(6);
    expect(data.monthlyCommissions.every((m: { amount: string }) => m.amount === '0.00')).toBe(true);
    expect(data.projectStats).toEqual([]);
    expect(data.brokerStats).toEqual([]);
    expect(data.recentReservations).toEqual([]);
    expect(data.recentPayments).toEqual([]);

    // While fewer than five brokers have commissions, brokers with reservations still show, at 0 UF.
    const broker = await createBroker(ctx.db, { name: 'Broker Nuevo' });
    await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    expect((await admin.get('/api/dashboard')).json().brokerStats).toEqual([
      { id: broker.id, name: 'Broker Nuevo', reservations: 2, commissions: '0.00' },
    ]);
  });
});

describe('dashboard rollups (kept by the database, whoever writes)', () => {
  const ctx = useTestApp({ now: () => clock.now });

  /**
   * The rollup tables as they are, and as rebuilt from scratch (rows of zeros aside: a rebuild
   * writes one for every project and broker, the triggers only for those ever touched).
   */
  async function rollupsAndRebuilt(): Promise<[string, string]> {
    const snapshot = async () =>
      JSON.stringify(
        await queryRows(
          ctx.db,
          sql`select
            (select json_agg(x order by x.project_id) from dashboard_project_figures x where x.reserved > 0) as projects,
            (select json_agg(x order by x.month) from dashboard_month_figures x where x.reservations > 0) as months,
            (select json_agg(x order by x.broker_id) from dashboard_broker_figures x
               where x.reservations > 0 or x.commissions > 0) as brokers,
            (select json_agg(x) from dashboard_counts x) as counts`,
        ),
      );
    const kept = await snapshot();
    await ctx.db.execute(sql`select dashboard_rebuild()`);
    return [kept, await snapshot()];
  }

  it('counts rows written behind the API at once, and always equals a rebuild from scratch', async () => {
    clock.now = new Date('2026-03-15T15:00:00Z');
    const admin = await loginAs(ctx);
    const total = async () => (await admin.get('/api/dashboard')).json().totals.reservations;
    const project = await createProject(ctx.db);
    const other = await createProject(ctx.db);
    const broker = await createBroker(ctx.db);
    const second = await createBroker(ctx.db);
    const first = await createReservation(ctx.db, { projectId: project.id, reservationDate: '2026-03-02' });
    expect(await total()).toBe(1);
    const sold = await createReservation(ctx.db, {
      projectId: project.id,
      reservationDate: '2026-02-10',
      isWithBroker: true,
      brokerId: broker.id,
    });
    expect(await total()).toBe(2);
    const commission = await createCommission(ctx.db, sold, { commissionAmount: '80.00' });
    let [kept, rebuilt] = await rollupsAndRebuilt();
    expect(kept).toBe(rebuilt);

    // Every kind of change, straight to the database (a job, a script, another server).
    await ctx.db
      .update(brokerCommissions)
      .set({ commissionAmount: '95.50' })
      .where(eq(brokerCommissions.id, commission.id));
    await ctx.db
      .update(brokerCommissions)
      .set({ brokerId: second.id })
      .where(eq(brokerCommissions.id, commission.id));
    await ctx.db
      .update(reservations)
      .set({ reservationDate: '2026-01-20', projectId: other.id })
      .where(eq(reservations.id, sold.id));
    await ctx.db.update(reservations).set({ isRescinded: true }).where(eq(reservations.id, first.id));
    expect(await total()).toBe(1);
    [kept, rebuilt] = await rollupsAndRebuilt();
    expect(kept).toBe(rebuilt);
    await ctx.db.update(reservations).set({ isRescinded: false }).where(eq(reservations.id, first.id));
    await ctx.db.delete(brokerCommissions).where(eq(brokerCommissions.id, commission.id));
    await createCommission(ctx.db, sold, { commissionAmount: '10.00' });
    // Deleting a reservation cascades to its commission: both triggers run, in either order.
    await ctx.db.delete(reservations).where(eq(reservations.id, sold.id));
    const client = await createClient(ctx.db);
    await ctx.db.update(clients).set({ deletedAt: new Date() }).where(eq(clients.id, client.id));
    await createBroker(ctx.db);
    [kept, rebuilt] = await rollupsAndRebuilt();
    expect(kept).toBe(rebuilt);
    const data = (await admin.get('/api/dashboard')).json();
    expect(data.totals).toMatchObject({ reservations: 1, brokers: 3 });
    expect(data.monthlyStats).toMatchObject({ month: '2026-03', reservations: 1, commissions: '0.00' });
  });

  it('stays exact when transactions write reservations of one project and month at once', async () => {
    const project = await createProject(ctx.db);
    const [one, two, three] = [
      await createClient(ctx.db),
      await createClient(ctx.db),
      await createClient(ctx.db),
    ];
    const inMarch = { projectId: project.id, reservationDate: '2026-03-05' };
    const earlier = await createReservation(ctx.db, { ...inMarch, clientId: one.id });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const reached = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    // One transaction adds a reservation and keeps its project's and month's rows until released…
    const first = ctx.db.transaction(async (tx) => {
      await createReservation(tx as unknown as typeof ctx.db, { ...inMarch, clientId: two.id });
      inserted();
      await released;
    });
    await reached;
    // …while others add one and rescind one of the same project and month: on PostgreSQL they wait
    // for those rows, and a count taken before the wait would miss the first one's reservation.
    const second = createReservation(ctx.db, { ...inMarch, clientId: three.id });
    const third = Promise.resolve(
      ctx.db.update(reservations).set({ isRescinded: true }).where(eq(reservations.id, earlier.id)),
    );
    if (testDatabaseUrl()) {
      // PostgreSQL: release once both wait for a lock (the embedded database runs them in turn).
      for (let tries = 0; tries < 100; tries += 1) {
        const [row] = await queryRows<{ n: number }>(
          ctx.db,
          sql`select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (row!.n >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    release();
    await Promise.all([first, second, third]);
    const [kept, rebuilt] = await rollupsAndRebuilt();
    expect(kept).toBe(rebuilt);
  });
});

describe('GET /api/dashboard: the bars of a project with an inventory (decision 0032)', () => {
  const ctx = useTestApp({ now: () => new Date('2026-11-20T15:00:00Z') });

  const barOf = async (agent: Agent, projectId: string) => {
    const response = await agent.get('/api/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    return (
      response.json() as { projectStats: { id: string; total: number | null; available: number | null }[] }
    ).projectStats.find((project) => project.id === projectId);
  };

  it('counts its apartments and the available ones again after every change, whoever makes it', async () => {
    const s = await stockScene(ctx);
    for (const number of ['1201', '1202', '1301'])
      await addUnit(s.admin, s.project.id, { kind: 'apartment', number, floor: 12, typology: '2D2B' });
    await addUnit(s.admin, s.project.id, { kind: 'parking', number: 'E-12', floor: -1 });
    const priced = await s.admin.post(`/api/stock/projects/${s.project.id}/price-lists`, {
      effectiveDate: '2026-11-01',
      rows: ['1201', '1202', '1301'].map((number) => ({ kind: 'apartment', number, price: '3000' })),
    });
    expect(priced.statusCode, priced.body).toBe(201);
    const [a1201, a1202] = (await gridOf(s.admin, s.project.id, '?kind=apartment')).units;
    expect(await barOf(s.admin, s.project.id)).toMatchObject({ total: 3, available: 3 });
    // Asked again with nothing changed: the same figures.
    expect(await barOf(s.admin, s.project.id)).toMatchObject({ total: 3, available: 3 });

    const reserved = await s.seller.post('/api/reservations', {
      reservationNumber: 'R-1',
      clientId: s.client.id,
      projectId: s.project.id,
      sellerId: s.seller.user!.id,
      reservationDate: '2026-11-10',
      ...PLAIN_RESERVATION_TERMS,
      apartmentUnitId: a1201!.id,
    });
    expect(reserved.statusCode, reserved.body).toBe(201);
    expect(await barOf(s.admin, s.project.id)).toMatchObject({ total: 3, available: 2 });

    // Another instance (or a script) blocks an apartment: the stock version it bumps tells this one.
    await ctx.db.execute(sql`update units set blocked_reason = 'Piloto' where id = ${a1202!.id}`);
    expect(await barOf(s.admin, s.project.id)).toMatchObject({ total: 3, available: 1 });
    await addUnit(s.admin, s.project.id, { kind: 'apartment', number: '1302', floor: 13 });
    expect(await barOf(s.admin, s.project.id)).toMatchObject({ total: 4, available: 2 });
  });
});
