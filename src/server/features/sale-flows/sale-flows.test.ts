import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SALE_WORKFLOW } from '../../../shared/domain/workflow/names';
import type { SaleFlowDetail, SaleFlowListRow } from '../../../shared/schemas/sale-flows';
import type { FlowTaskCommentView } from '../../../shared/schemas/workflows';
import { queryRows } from '../../db/client';
import { pageSql } from '../../db/paging';
import { clients, flowTaskCommentMentions, profiles, reservations } from '../../db/schema';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import {
  createBroker,
  createClient,
  createProject,
  createReservation,
  createUser,
  loadInBulk,
} from '../../test/builders';
import {
  createCommission,
  createPaymentFlow,
  createSaleFlow,
  type FlowDriver,
} from '../../test/flow-builders';
import { type SaleFlowListParams, saleFlowListSql } from './sale-flows.queries';

const COF = ['COF PENDIENTE GENERACIÓN', 'COF PENDIENTE FIRMA', 'SOLICITUD VB COF PENDIENTE'];
const ADMIN_ONLY_CHANGE = 'Solo los administradores pueden modificar tareas completadas';
const ADMIN_ONLY_ASSIGN = 'No se pueden asignar usuarios a tareas completadas';
const STALE = 'El registro fue modificado por otro usuario. Recargue la página.';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');

async function saleFlowOf(ctx: TestContext, options: { clientName?: [string, string]; at?: Date } = {}) {
  const client = await createClient(ctx.db, {
    ...(options.clientName ? { firstName: options.clientName[0], lastName: options.clientName[1] } : {}),
  });
  const reservation = await createReservation(ctx.db, { clientId: client.id });
  const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id, at: options.at ?? NOW });
  return { client, reservation, flow };
}

const taskUrl = (flow: FlowDriver, task: string, rest = '') =>
  `/api/sale-flows/${flow.id}/tasks/${flow.task(task)}${rest}`;

async function detail(agent: Agent, flowId: string): Promise<SaleFlowDetail> {
  const response = await agent.get(`/api/sale-flows/${flowId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().flow;
}

function taskOf(flow: SaleFlowDetail, name: string) {
  const task = flow.stages.flatMap((stage) => stage.tasks).find((candidate) => candidate.name === name);
  if (!task) throw new Error(`no task ${name}`);
  return task;
}

async function setStatus(agent: Agent, flow: FlowDriver, task: string, body: Record<string, unknown>) {
  return agent.put(taskUrl(flow, task, '/status'), body);
}

describe('the sale flow list', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('finds flows by every word of the client’s name, accents and case ignored, with the list’s columns', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const seller = await createUser(ctx.db, { firstName: 'Sofía', lastName: 'Vera', isSeller: true });
    const { reservation, flow } = await saleFlowOf(ctx, { clientName: ['Juan Carlos', 'Pérez Soto'] });
    await saleFlowOf(ctx, { clientName: ['Juana', 'Soto Pérez'] });
    await saleFlowOf(ctx, { clientName: ['Pedro', 'Núñez'] });
    await flow.assign(COF[0]!, seller.id);

    const found = await kam.get(`/api/sale-flows?search=${encodeURIComponent('PEREZ juan carlos')}`);
    expect(found.statusCode).toBe(200);
    const page = found.json() as { rows: SaleFlowListRow[]; total: number; totalIsCapped: boolean };
    expect(page.total).toBe(1);
    expect(page.totalIsCapped).toBe(false);
    expect(page.rows[0]).toEqual({
      id: flow.id,
      reservationId: reservation.id,
      reservationNumber: reservation.reservationNumber,
      reservationDate: reservation.reservationDate,
      clientId: reservation.clientId,
      clientName: 'Juan Carlos Pérez Soto',
      projectId: reservation.projectId,
      projectName: expect.any(String),
      projectStage: 'Etapa 1',
      apartmentNumber: reservation.apartmentNumber,
      currentStageId: expect.any(String),
      currentStageName: 'Reserva',
      status: 'in_progress',
      isRescinded: false,
      assignees: [{ id: seller.id, firstName: 'Sofía', lastName: 'Vera', avatarUrl: null }],
    });
    // Both words anywhere in the name; a word of no client finds nothing; '%' is searched literally.
    const both = (await kam.get(`/api/sale-flows?search=${encodeURIComponent('soto pérez')}`)).json();
    expect(both.total).toBe(2);
    expect((await kam.get('/api/sale-flows?search=Inexistente')).json().total).toBe(0);
    expect((await kam.get(`/api/sale-flows?search=${encodeURIComponent('%')}`)).json().total).toBe(0);
    expect((await kam.get('/api/sale-flows')).json().total).toBe(3);
  });

  it('lists every assignee of the flow once, marks rescinded reservations and completed flows, and finds deleted clients', async () => {
    const admin = await loginAs(ctx);
    const users = await Promise.all(
      ['Ana', 'Bruno', 'Carla', 'Diego'].map((firstName) =>
        createUser(ctx.db, { firstName, lastName: 'Lagos' }),
      ),
    );
    const { flow, reservation, client } = await saleFlowOf(ctx, { clientName: ['Marta', 'Ibáñez'] });
    for (const [index, user] of users.entries()) await flow.assign(COF[index % 3]!, user.id);
    await flow.assign(COF[1]!, users[0]!.id);
    const rows = (await admin.get('/api/sale-flows?search=ibanez')).json().rows as SaleFlowListRow[];
    expect(rows[0]!.assignees.map((user) => user.firstName)).toEqual(['Ana', 'Bruno', 'Carla', 'Diego']);

    // Rescinded (by the payments feature's wizard; here set as it leaves it) and its client deleted.
    await ctx.db
      .update(reservations)
      .set({ isRescinded: true, rescindedReason: 'Desistimiento' })
      .where(eq(reservations.id, reservation.id));
    await ctx.db.update(clients).set({ deletedAt: NOW }).where(eq(clients.id, client.id));
    const rescinded = (await admin.get('/api/sale-flows?search=marta')).json().rows as SaleFlowListRow[];
    expect(rescinded).toHaveLength(1);
    expect(rescinded[0]).toMatchObject({ id: flow.id, isRescinded: true });

    const done = await saleFlowOf(ctx, { clientName: ['Tomás', 'Completo'] });
    await done.flow.completeAll(done.flow.taskNames());
    const completed = (await admin.get('/api/sale-flows?search=completo')).json().rows as SaleFlowListRow[];
    expect(completed[0]).toMatchObject({ status: 'completed', currentStageName: null, assignees: [] });
  });

  it("finds a flow by its client's name as it is now: renamed, or the reservation moved to another client", async () => {
    const admin = await loginAs(ctx);
    const { flow, reservation, client } = await saleFlowOf(ctx, { clientName: ['Rosa', 'Antigua'] });
    const other = await createClient(ctx.db, { firstName: 'Pablo', lastName: 'Segundo' });
    const found = async (search: string) =>
      (
        (await admin.get(`/api/sale-flows?search=${encodeURIComponent(search)}`)).json()
          .rows as SaleFlowListRow[]
      ).map((row) => row.id);
    expect(await found('antigua')).toEqual([flow.id]);

    await ctx.db.update(clients).set({ lastName: 'Núñez Nueva' }).where(eq(clients.id, client.id));
    expect(await found('antigua')).toEqual([]);
    expect(await found('rosa nunez')).toEqual([flow.id]);

    await ctx.db.update(reservations).set({ clientId: other.id }).where(eq(reservations.id, reservation.id));
    expect(await found('rosa')).toEqual([]);
    expect(await found('pablo segundo')).toEqual([flow.id]);

    // Nothing can write the copy itself: the client's row stays the only truth.
    await ctx.db.execute(
      sql`update reservations set client_search_text = 'inventado' where id = ${reservation.id}`,
    );
    expect(await found('inventado')).toEqual([]);
    expect(await found('segundo')).toEqual([flow.id]);
  });

  it('pages and sorts on the server: newest first by default, by number, client or project', async () => {
    const admin = await loginAs(ctx);
    const projectA = await createProject(ctx.db, { name: 'Aromos' });
    const projectB = await createProject(ctx.db, { name: 'Boldos' });
    const made = [];
    for (const [index, [first, project, date]] of (
      [
        ['Carlos', projectB, '2026-01-10'],
        ['Beatriz', projectA, '2026-03-10'],
        ['Andrés', projectB, '2026-02-10'],
      ] as const
    ).entries()) {
      const client = await createClient(ctx.db, { firstName: first, lastName: 'Orden' });
      const reservation = await createReservation(ctx.db, {
        clientId: client.id,
        projectId: project.id,
        reservationDate: date,
        reservationNumber: `ORD-${index + 1}`,
      });
      made.push(await createSaleFlow(ctx.db, { reservationId: reservation.id }));
    }
    const names = async (query: string) =>
      ((await admin.get(`/api/sale-flows?search=orden&${query}`)).json().rows as SaleFlowListRow[]).map(
        (row) => row.clientName.split(' ')[0],
      );
    expect(await names('')).toEqual(['Beatriz', 'Andrés', 'Carlos']);
    expect(await names('sort=reservationDate&direction=asc')).toEqual(['Carlos', 'Andrés', 'Beatriz']);
    expect(await names('sort=reservationNumber&direction=asc')).toEqual(['Carlos', 'Beatriz', 'Andrés']);
    expect(await names('sort=reservationNumber&direction=desc')).toEqual(['Andrés', 'Beatriz', 'Carlos']);
    expect(await names('sort=clientName&direction=asc')).toEqual(['Andrés', 'Beatriz', 'Carlos']);
    expect(await names('sort=projectName&direction=asc')).toEqual(['Beatriz', 'Andrés', 'Carlos']);
    const second = (await admin.get('/api/sale-flows?search=orden&pageSize=2&page=2')).json();
    expect(second).toMatchObject({ total: 3, totalIsCapped: false });
    expect(second.rows.map((row: SaleFlowListRow) => row.id)).toEqual([made[0]!.id]);

    const unknown = await admin.get('/api/sale-flows?sort=assignees');
    expect(unknown.statusCode).toBe(400);
    expect((await admin.get('/api/sale-flows?color=red')).statusCode).toBe(400);
  });

  it('answers 401 without a session', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/sale-flows' });
    expect(response.statusCode).toBe(401);
  });

  it('reads one page in one statement off the indexes, even with many reservations', async () => {
    const project = await createProject(ctx.db);
    // One client in twenty a Valenzuela, scattered (a regular pattern would line up with the sampled
    // statistics' histogram and mislead the estimate).
    await loadInBulk(
      ctx.db,
      ['clients', 'reservations', 'flows'],
      [
        sql`insert into clients (rut, first_name, last_name, birth_date)
        select g || '-' || (g % 10), 'Cliente ' || g,
               case when abs(hashtext(g::text)) % 20 = 0 then 'Valenzuela' else 'Apellido' end || ' ' || g, date '1980-01-01'
          from generate_series(1000000, 1030000) g`,
        // The copy of the client's search text, as its trigger would have written it (decision 0025).
        sql`insert into reservations (reservation_number, client_id, client_search_text, project_id, reservation_date,
                                    apartment_number)
        select 'N-' || n, id, search_text, ${project.id}, date '2025-01-01' + (n % 600)::int, n::text
          from (select c.id, c.search_text, row_number() over (order by c.id) as n from clients c) numbered`,
        // Plan shape only: the flow rows (one sale flow per reservation) as the engine would have made them.
        sql`insert into flows (workflow_id, kind, reservation_id, status)
        select w.id, 'sale', r.id, 'in_progress' from reservations r, workflows w where w.name = ${SALE_WORKFLOW}`,
      ],
    );
    await ctx.db.execute(sql`analyze`);
    const planOf = async (query: Partial<SaleFlowListParams>) =>
      (
        await queryRows<Record<string, string>>(
          ctx.db,
          sql`explain ${pageSql(saleFlowListSql({ page: 1, pageSize: 25, sort: 'reservationDate', direction: 'desc', ...query }))}`,
        )
      )
        .map((row) => Object.values(row)[0])
        .join('\n');
    const rare = await planOf({ search: 'cliente 1012345' });
    expect(rare).toContain('reservations_client_search_trgm_idx');
    expect(rare).not.toMatch(/Seq Scan on (clients|reservations)/);
    // A common surname: the page walks the newest reservations, and no client is visited to tell.
    const common = await planOf({ search: 'valenzuela' });
    expect(common).toContain('reservations_date_idx');
    expect(common).not.toMatch(/Seq Scan on reservations|on clients m/);
    expect(await planOf({})).toContain('reservations_date_idx');
    expect(await planOf({ sort: 'reservationNumber' })).toContain('reservations_reservation_number_unique');
    expect(await planOf({ sort: 'clientName', direction: 'asc' })).toContain('clients_name_idx');
    // 30,000 rows on the embedded database: ~25 s alone, 60-125 s beside the journeys in npm test's
    // other lane. A ceiling, not a measure.
  }, 300_000);
});

describe('the sale flow detail', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('shows the reservation around the flow and its stages with their tasks, days and counts', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db, { name: 'Propiedades Sur' });
    const client = await createClient(ctx.db, { firstName: 'Elena', lastName: 'Díaz' });
    const reservation = await createReservation(ctx.db, {
      clientId: client.id,
      isWithBroker: true,
      brokerId: broker.id,
      promiseDate: '2026-11-02',
    });
    // Created three days ago (Santiago calendar).
    const flow = await createSaleFlow(ctx.db, {
      reservationId: reservation.id,
      at: new Date('2026-11-17T13:00:00Z'),
    });
    const commission = await createCommission(ctx.db, reservation);
    const payment = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id });
    await flow.assign(COF[0]!, kam.user!.id);
    await flow.complete(COF[1]!, { at: new Date('2026-11-18T20:00:00Z') });

    const view = await detail(kam, flow.id);
    expect(view).toMatchObject({
      id: flow.id,
      status: 'in_progress',
      currentStageName: 'Reserva',
      progress: 4,
      reservation: {
        id: reservation.id,
        reservationNumber: reservation.reservationNumber,
        promiseDate: '2026-11-02',
        deedDate: null,
        commissionProjectionMonth: null,
        isRescinded: false,
        version: reservation.version,
      },
      rescission: null,
      client: { id: client.id, firstName: 'Elena', lastName: 'Díaz', isDeleted: false, restriction: null },
      project: { id: reservation.projectId, deadline: '2027-06-30', isDeadlinePassed: false },
      broker: { id: broker.id, name: 'Propiedades Sur' },
      commissionId: commission.id,
      paymentFlowId: payment.id,
    });
    expect(view.stages.map((stage) => [stage.name, stage.tasks.length, stage.isComplete])).toEqual([
      ['Reserva', 3, false],
      ['Promesa', 6, false],
      ['Escrituración', 13, false],
      ['Reparos', 3, false],
    ]);
    expect(taskOf(view, COF[0]!)).toMatchObject({
      status: 'pending',
      daysManaged: 3,
      daysLate: 0,
      daysToComplete: null,
      assignees: [{ id: kam.user!.id, firstName: kam.user!.firstName, isActive: true }],
      commentCount: 0,
      completedAt: null,
    });
    expect(taskOf(view, COF[1]!)).toMatchObject({ status: 'completed', daysManaged: 1, assignees: [] });
    // A later stage's tasks have not started.
    expect(taskOf(view, 'PENDIENTE GENERACIÓN PROMESA')).toMatchObject({
      startedAt: null,
      daysManaged: null,
    });
  });

  it('shows the rescission box of a rescinded reservation', async () => {
    const admin = await loginAs(ctx);
    const { flow, reservation } = await saleFlowOf(ctx);
    await ctx.db
      .update(reservations)
      .set({
        isRescinded: true,
        rescindedAt: NOW,
        rescindedReason: 'Desistimiento del cliente',
        rescindedBy: admin.user!.id,
      })
      .where(eq(reservations.id, reservation.id));
    const view = await detail(admin, flow.id);
    expect(view.reservation.isRescinded).toBe(true);
    expect(view.rescission).toEqual({
      reason: 'Desistimiento del cliente',
      rescindedAt: NOW.toISOString(),
      rescindedBy: { id: admin.user!.id, firstName: admin.user!.firstName, lastName: admin.user!.lastName },
    });
  });

  it('says when the client’s data are blocked by the holder (Ley 21.719), so the screen marks it', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow, client } = await saleFlowOf(ctx);
    await ctx.db.update(clients).set({ restriction: 'blocking' }).where(eq(clients.id, client.id));
    expect((await detail(kam, flow.id)).client).toMatchObject({ id: client.id, restriction: 'blocking' });
  });

  it('answers 404 with the spec’s message for an unknown flow or a payment flow', async () => {
    const admin = await loginAs(ctx);
    const unknown = await admin.get('/api/sale-flows/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe('Flujo no encontrado');
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const payment = await createPaymentFlow(ctx.db, {
      brokerCommissionId: (await createCommission(ctx.db, reservation)).id,
    });
    const wrongKind = await admin.get(`/api/sale-flows/${payment.id}`);
    expect(wrongKind.statusCode).toBe(404);
    expect(errorOf(wrongKind).message).toBe('Flujo no encontrado');
    expect((await admin.get('/api/sale-flows/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('the task rules of a sale flow (workflows.md §2)', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('lets anyone set any status from the select; completing dates the task and removes its assignees', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow } = await saleFlowOf(ctx);
    await flow.assign(COF[0]!, kam.user!.id);
    for (const status of ['in_progress', 'blocked', 'pending', 'in_progress'] as const) {
      const response = await setStatus(kam, flow, COF[0]!, { status });
      expect(response.statusCode, response.body).toBe(200);
      expect(taskOf(await detail(kam, flow.id), COF[0]!)).toMatchObject({ status, completedAt: null });
    }
    const completed = await setStatus(kam, flow, COF[0]!, { status: 'completed' });
    expect(completed.statusCode).toBe(200);
    expect(taskOf(await detail(kam, flow.id), COF[0]!)).toMatchObject({
      status: 'completed',
      completedAt: NOW.toISOString(),
      assignees: [],
    });
  });

  it('takes an administrator’s completion date, and refuses one from anyone else', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow } = await saleFlowOf(ctx, { at: new Date('2026-11-18T12:00:00Z') });
    const given = '2026-11-19T09:30:00-03:00';
    const refused = await setStatus(kam, flow, COF[0]!, { status: 'completed', completedAt: given });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe('No tiene permisos para realizar esta acción.');
    expect(taskOf(await detail(kam, flow.id), COF[0]!).status).toBe('pending');
    const allowed = await setStatus(admin, flow, COF[0]!, { status: 'completed', completedAt: given });
    expect(allowed.statusCode).toBe(200);
    expect(taskOf(await detail(admin, flow.id), COF[0]!).completedAt).toBe(new Date(given).toISOString());
  });

  it('keeps completed tasks for administrators: others are refused with the spec’s messages', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const other = await createUser(ctx.db, { firstName: 'Olga' });
    const { flow } = await saleFlowOf(ctx);
    // Before: the screen is told that completing is the one change the KAM could not take back.
    expect(taskOf(await detail(kam, flow.id), COF[0]!).commands.irreversible).toEqual(['completed']);
    expect(taskOf(await detail(admin, flow.id), COF[0]!).commands.irreversible).toEqual([]);
    await flow.complete(COF[0]!);

    const change = await setStatus(kam, flow, COF[0]!, { status: 'in_progress' });
    expect(change.statusCode).toBe(403);
    expect(errorOf(change).message).toBe(ADMIN_ONLY_CHANGE);
    const assign = await kam.post(taskUrl(flow, COF[0]!, '/assignees'), { userId: other.id });
    expect(assign.statusCode).toBe(403);
    expect(errorOf(assign).message).toBe(ADMIN_ONLY_ASSIGN);
    const unchanged = taskOf(await detail(kam, flow.id), COF[0]!);
    expect(unchanged).toMatchObject({ status: 'completed', assignees: [] });

    // An administrator may assign a completed task, and others may not take that assignee off.
    const adminAssign = await admin.post(taskUrl(flow, COF[0]!, '/assignees'), { userId: other.id });
    expect(adminAssign.statusCode).toBe(200);
    const unassign = await kam.delete(taskUrl(flow, COF[0]!, `/assignees/${other.id}`));
    expect(unassign.statusCode).toBe(403);
    expect(errorOf(unassign).message).toBe(ADMIN_ONLY_ASSIGN);
    expect((await admin.delete(taskUrl(flow, COF[0]!, `/assignees/${other.id}`))).statusCode).toBe(200);

    // An administrator reopens it: leaving completed clears the completion.
    const reopened = await setStatus(admin, flow, COF[0]!, { status: 'in_progress' });
    expect(reopened.statusCode).toBe(200);
    expect(taskOf(await detail(admin, flow.id), COF[0]!)).toMatchObject({
      status: 'in_progress',
      completedAt: null,
    });
    // Open again, anyone may change it.
    expect((await setStatus(kam, flow, COF[0]!, { status: 'pending' })).statusCode).toBe(200);
  });

  it('assigns several users to a task and takes them off; identifies nobody without a session', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const users = await Promise.all(['Ana', 'Bruno'].map((firstName) => createUser(ctx.db, { firstName })));
    const { flow } = await saleFlowOf(ctx);
    for (const user of users) {
      expect((await kam.post(taskUrl(flow, COF[2]!, '/assignees'), { userId: user.id })).statusCode).toBe(
        200,
      );
    }
    // Assigned at the same instant (the app's clock is fixed): in no particular order.
    expect(
      taskOf(await detail(kam, flow.id), COF[2]!)
        .assignees.map((a) => a.firstName)
        .sort(),
    ).toEqual(['Ana', 'Bruno']);
    expect((await kam.delete(taskUrl(flow, COF[2]!, `/assignees/${users[0]!.id}`))).statusCode).toBe(200);
    expect(taskOf(await detail(kam, flow.id), COF[2]!).assignees.map((a) => a.firstName)).toEqual(['Bruno']);

    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: taskUrl(flow, COF[2]!, '/assignees'),
      headers: { origin: 'http://localhost' },
      payload: { userId: users[0]!.id },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(errorOf(anonymous).message).toBe('No se ha podido identificar al usuario');
    const anonymousUnassign = await ctx.app.inject({
      method: 'DELETE',
      url: taskUrl(flow, COF[2]!, `/assignees/${users[1]!.id}`),
      headers: { origin: 'http://localhost' },
    });
    expect(anonymousUnassign.statusCode).toBe(401);
    expect(errorOf(anonymousUnassign).message).toBe('No se ha podido identificar al usuario');
    expect(taskOf(await detail(kam, flow.id), COF[2]!).assignees.map((a) => a.firstName)).toEqual(['Bruno']);

    // A deactivated user gets no task.
    await ctx.db.update(profiles).set({ isActive: false }).where(eq(profiles.id, users[0]!.id));
    const inactive = await kam.post(taskUrl(flow, COF[2]!, '/assignees'), { userId: users[0]!.id });
    expect(inactive.statusCode).toBe(400);
    expect(errorOf(inactive).message).toBe('El usuario seleccionado no existe o está desactivado');
  });

  it('advances the stage and starts its tasks; completes the flow with its last task and reopens it', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow } = await saleFlowOf(ctx, { at: new Date('2026-11-10T12:00:00Z') });
    for (const task of COF)
      expect((await setStatus(kam, flow, task, { status: 'completed' })).statusCode).toBe(200);
    let view = await detail(kam, flow.id);
    expect(view.currentStageName).toBe('Promesa');
    expect(view.stages[0]!.isComplete).toBe(true);
    for (const task of view.stages[1]!.tasks) expect(task.startedAt).toBe(NOW.toISOString());
    expect(view.stages[2]!.tasks.every((task) => task.startedAt === null)).toBe(true);

    // Every task completed: the flow is completed; its list row has no current stage.
    for (const task of flow.taskNames().slice(3)) {
      expect((await setStatus(kam, flow, task, { status: 'completed' })).statusCode).toBe(200);
    }
    view = await detail(kam, flow.id);
    expect(view).toMatchObject({ status: 'completed', currentStageId: null, progress: 100 });
    expect(view.completedAt).toBe(NOW.toISOString());

    // Reopening a task (administrators) puts the flow back in progress at that task's stage.
    const reopened = await setStatus(admin, flow, 'PENDIENTE ORIGEN DE FONDOS', { status: 'pending' });
    expect(reopened.statusCode).toBe(200);
    view = await detail(admin, flow.id);
    expect(view).toMatchObject({ status: 'in_progress', currentStageName: 'Promesa', completedAt: null });
  });

  it('refuses a stale status change with 409, but a non-administrator’s change of a task completed meanwhile with the spec’s message', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow } = await saleFlowOf(ctx);
    const { version } = taskOf(await detail(kam, flow.id), COF[0]!);
    expect((await setStatus(kam, flow, COF[0]!, { status: 'in_progress', version })).statusCode).toBe(200);
    const stale = await setStatus(kam, flow, COF[0]!, { status: 'blocked', version });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toBe(STALE);
    expect(taskOf(await detail(kam, flow.id), COF[0]!).status).toBe('in_progress');

    // Read while open; completed by someone else since: the rule speaks, not the version.
    const read = taskOf(await detail(kam, flow.id), COF[1]!).version;
    await flow.complete(COF[1]!);
    const late = await setStatus(kam, flow, COF[1]!, { status: 'in_progress', version: read });
    expect(late.statusCode).toBe(403);
    expect(errorOf(late).message).toBe(ADMIN_ONLY_CHANGE);
  });

  it('lets only administrators edit a task’s start and completion dates', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow } = await saleFlowOf(ctx);
    const startedAt = '2026-11-01T10:00:00-03:00';
    const refused = await kam.put(taskUrl(flow, COF[0]!, '/dates'), { startedAt });
    expect(refused.statusCode).toBe(403);
    const allowed = await admin.put(taskUrl(flow, COF[0]!, '/dates'), { startedAt });
    expect(allowed.statusCode).toBe(200);
    expect(taskOf(await detail(kam, flow.id), COF[0]!)).toMatchObject({
      startedAt: new Date(startedAt).toISOString(),
      daysManaged: 19,
    });
  });

  it('changes nothing on a cancelled flow (a rescinded reservation)', async () => {
    const admin = await loginAs(ctx);
    const { flow } = await saleFlowOf(ctx);
    await flow.cancel();
    const response = await setStatus(admin, flow, COF[0]!, { status: 'completed' });
    expect(response.statusCode).toBe(409);
    expect(errorOf(response).message).toBe(
      'El flujo está cancelado (la reserva fue resciliada) y no se puede modificar',
    );
  });
});

describe('comments with mentions', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('stores the mentioned users with the comment and lists them; the count follows additions and deletions', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM', firstName: 'Karla', lastName: 'Mendoza' });
    const mentioned = await createUser(ctx.db, { firstName: 'Olga', lastName: 'Pinto' });
    const { flow } = await saleFlowOf(ctx);
    const url = taskUrl(flow, COF[0]!, '/comments');

    expect((await kam.get(url)).json()).toEqual({ comments: [] });
    const empty = await kam.post(url, { content: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).message).toBe('El comentario es obligatorio');

    const first = await kam.post(url, {
      content: 'Revisar con @Olga Pinto',
      mentionedUserIds: [mentioned.id],
    });
    expect(first.statusCode).toBe(201);
    const second = await admin.post(url, { content: 'Listo' });
    expect(second.statusCode).toBe(201);
    const [stored] = await ctx.db
      .select()
      .from(flowTaskCommentMentions)
      .where(eq(flowTaskCommentMentions.commentId, first.json().id));
    expect(stored).toEqual({
      commentId: first.json().id,
      userId: mentioned.id,
      createdAt: expect.any(Date),
      readAt: null,
    });

    const listed = (await kam.get(url)).json().comments as FlowTaskCommentView[];
    expect(listed).toEqual([
      {
        id: first.json().id,
        content: 'Revisar con @Olga Pinto',
        createdAt: expect.stringMatching(/Z$/),
        author: { id: kam.user!.id, firstName: 'Karla', lastName: 'Mendoza', avatarUrl: null },
        mentions: [{ id: mentioned.id, firstName: 'Olga', lastName: 'Pinto' }],
      },
      expect.objectContaining({ id: second.json().id, content: 'Listo', mentions: [] }),
    ]);
    expect(taskOf(await detail(kam, flow.id), COF[0]!).commentCount).toBe(2);

    // Only administrators delete; the count follows.
    const refused = await kam.delete(`/api/sale-flows/${flow.id}/comments/${first.json().id}`);
    expect(refused.statusCode).toBe(403);
    expect((await admin.delete(`/api/sale-flows/${flow.id}/comments/${first.json().id}`)).statusCode).toBe(
      204,
    );
    expect(taskOf(await detail(kam, flow.id), COF[0]!).commentCount).toBe(1);
    expect(((await kam.get(url)).json().comments as FlowTaskCommentView[]).map((c) => c.content)).toEqual([
      'Listo',
    ]);
  });

  it('refuses a mention of a deactivated user, and comments of another flow’s task', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const gone = await createUser(ctx.db, { firstName: 'Ida' });
    await ctx.db.update(profiles).set({ isActive: false }).where(eq(profiles.id, gone.id));
    const { flow } = await saleFlowOf(ctx);
    const other = await saleFlowOf(ctx);
    const refused = await kam.post(taskUrl(flow, COF[0]!, '/comments'), {
      content: 'Hola @Ida',
      mentionedUserIds: [gone.id],
    });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toBe('El usuario seleccionado no existe o está desactivado');
    const crossed = await kam.get(`/api/sale-flows/${flow.id}/tasks/${other.flow.task(COF[0]!)}/comments`);
    expect(crossed.statusCode).toBe(404);
    expect(errorOf(crossed).message).toBe('Tarea no encontrada');
  });
});

describe('the reservation fields the detail edits', () => {
  const ctx = useTestApp({ now: () => NOW });

  const patch = (agent: Agent, flowId: string, body: Record<string, unknown>) =>
    agent.patch(`/api/sale-flows/${flowId}/reservation`, body);

  it('edits the months (stored as their first day) and the dates with the version read; empty clears them', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow, reservation } = await saleFlowOf(ctx);
    const edited = await patch(kam, flow.id, {
      version: reservation.version,
      commissionProjectionMonth: '2027-03',
      commissionPaymentMonth: '2027-04-18',
      promiseDate: '2026-12-01',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().flow.reservation).toMatchObject({
      commissionProjectionMonth: '2027-03-01',
      commissionPaymentMonth: '2027-04-01',
      promiseDate: '2026-12-01',
      deedDate: null,
      version: reservation.version + 1,
    });
    const cleared = await patch(kam, flow.id, {
      version: reservation.version + 1,
      commissionProjectionMonth: null,
      deedDate: '2027-01-15',
    });
    expect(cleared.json().flow.reservation).toMatchObject({
      commissionProjectionMonth: null,
      commissionPaymentMonth: '2027-04-01',
      deedDate: '2027-01-15',
    });

    const stale = await patch(kam, flow.id, { version: reservation.version, promiseDate: null });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toBe(STALE);
    const badMonth = await patch(kam, flow.id, {
      version: reservation.version + 2,
      commissionProjectionMonth: '2027-13',
    });
    expect(badMonth.statusCode).toBe(400);
    expect(errorOf(badMonth).fields).toEqual({
      commissionProjectionMonth: 'Ingrese un mes válido (por ejemplo «marzo de 2027» o 2027-03)',
    });
    const nothing = await patch(kam, flow.id, { version: reservation.version + 2 });
    expect(nothing.statusCode).toBe(400);
    const unknownField = await patch(kam, flow.id, { version: reservation.version + 2, totalPrice: '1' });
    expect(unknownField.statusCode).toBe(400);
  });

  it('takes the deed bank only once the project’s deadline has passed', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow, reservation } = await saleFlowOf(ctx);
    const bank = {
      bankName: 'Banco Estado',
      bankExecutive: 'Rosa Muñoz',
      bankExecutiveEmail: 'Rosa.Munoz@bancoestado.cl',
      bankExecutivePhone: '+56 9 1234 5678',
    };
    const early = await patch(kam, flow.id, { version: reservation.version, ...bank });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).message).toBe(
      'Los datos del Banco Escrituración se registran una vez vencido el plazo de entrega del proyecto',
    );

    const delivered = await createProject(ctx.db, { deadline: '2026-11-19' });
    const late = await createReservation(ctx.db, { projectId: delivered.id });
    const lateFlow = await createSaleFlow(ctx.db, { reservationId: late.id });
    expect((await detail(kam, lateFlow.id)).project.isDeadlinePassed).toBe(true);
    const saved = await patch(kam, lateFlow.id, { version: late.version, ...bank });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().flow.reservation).toMatchObject({
      ...bank,
      bankExecutiveEmail: 'rosa.munoz@bancoestado.cl',
    });
    const badEmail = await patch(kam, lateFlow.id, {
      version: late.version + 1,
      bankExecutiveEmail: 'rosa@',
    });
    expect(badEmail.statusCode).toBe(400);
    expect(errorOf(badEmail).fields).toEqual({ bankExecutiveEmail: 'Ingrese un correo electrónico válido' });
  });

  it('refuses edits of a rescinded reservation and of a flow that is not a sale flow', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { flow, reservation } = await saleFlowOf(ctx);
    await ctx.db.update(reservations).set({ isRescinded: true }).where(eq(reservations.id, reservation.id));
    const rescinded = await patch(kam, flow.id, { version: reservation.version, promiseDate: '2026-12-01' });
    expect(rescinded.statusCode).toBe(409);
    expect(errorOf(rescinded).message).toBe('La reserva está resciliada y no se puede modificar');
    const unknown = await patch(kam, '00000000-0000-4000-8000-000000000000', {
      version: 1,
      promiseDate: null,
    });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe('Flujo no encontrado');
  });
});
