import { and, count, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { reservationListQuery } from '../../../shared/schemas/reservations';
import { type Database, queryRows } from '../../db/client';
import { pageSql } from '../../db/paging';
import {
  brokerCommissions,
  clients,
  defaultSeller,
  flows as flowsTable,
  flowTaskAssignees,
  flowTasks,
  promotions,
  reservations,
  workflowTaskDefaultAssignees,
  workflowTasks,
} from '../../db/schema';
import { type Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import {
  createBroker,
  createClient,
  createProject,
  createReservation,
  createUser,
  loadInBulk,
} from '../../test/builders';
import { createPaymentFlow } from '../../test/flow-builders';
import { reservationListSql } from './reservations.queries';

async function tableCount(db: Database, table: PgTable) {
  const [row] = await db.select({ n: count() }).from(table);
  return row!.n;
}

async function fixtures(ctx: { db: Database }) {
  const project = await createProject(ctx.db, { name: 'Parque Ñuñoa', stage: 'Etapa 2' });
  const client = await createClient(ctx.db, { firstName: 'Juan', lastName: 'Pérez' });
  const seller = await createUser(ctx.db, {
    firstName: 'Sergio',
    lastName: 'Vendedor',
    isSeller: true,
    userType: 'KAM',
  });
  const broker = await createBroker(ctx.db, { name: 'Corredores Sur' });
  return { project, client, seller, broker };
}

function reservationBody(f: Awaited<ReturnType<typeof fixtures>>, overrides: Record<string, unknown> = {}) {
  return {
    reservationNumber: 'R-1001',
    clientId: f.client.id,
    projectId: f.project.id,
    sellerId: f.seller.id,
    reservationDate: '2026-11-02',
    apartmentNumber: '1204',
    parkingNumber: 'E-45',
    storageNumber: 'B-12',
    apartmentPrice: '3000',
    parkingPrice: '150',
    storagePrice: '50',
    columnDiscount: '0.05',
    additionalDiscount: '0.02',
    otherDiscount: '0.01',
    reservationPayment: '20',
    promisePayment: '180',
    downPayment: '300',
    creditPayment: '2400',
    subsidyPayment: '100',
    isWithBroker: false,
    brokerId: null,
    ...overrides,
  };
}

const commission = {
  commissionAmount: '59.50',
  commissionIncludesTax: true,
  commissionForDiscount: true,
  paysSecondary: false,
  numberOfPayments: 2,
  firstPaymentPercentage: 50,
  purchaseOrder: null,
  invoice1: null,
  invoice1Date: null,
  payment1Date: null,
  invoice2: null,
  invoice2Date: null,
  payment2Date: null,
};

async function assignmentsOf(db: Database, reservationId: string) {
  return queryRows<{ task: string; userId: string }>(
    db,
    sql`select t.name as task, a.user_id as "userId" from ${flowTaskAssignees} a
        join ${flowTasks} ft on ft.id = a.flow_task_id
        join ${flowsTable} f on f.id = ft.flow_id
        join ${workflowTasks} t on t.id = ft.task_id
        where f.reservation_id = ${reservationId} order by t.name, a.user_id`,
  );
}

describe('creating a reservation', () => {
  const ctx = useTestApp();

  it('writes one reservation with the computed figures, its flow with 25 tasks and the assignments, in one go', async () => {
    const f = await fixtures(ctx);
    const defaultAssignee = await createUser(ctx.db, { userType: 'Operaciones' });
    const [promesa] = await ctx.db
      .select({ id: workflowTasks.id })
      .from(workflowTasks)
      .where(eq(workflowTasks.name, 'PENDIENTE GENERACIÓN PROMESA'));
    const [cofFirma] = await ctx.db
      .select({ id: workflowTasks.id })
      .from(workflowTasks)
      .where(eq(workflowTasks.name, 'COF PENDIENTE FIRMA'));
    await ctx.db.insert(workflowTaskDefaultAssignees).values([
      { taskId: promesa!.id, userId: defaultAssignee.id },
      // The seller is also a default assignee of a COF task: still one assignment.
      { taskId: cofFirma!.id, userId: f.seller.id },
    ]);
    const admin = await loginAs(ctx);

    const response = await admin.post('/api/reservations', reservationBody(f));
    expect(response.statusCode).toBe(201);
    const created = response.json().reservation;
    // 3000 × 0.95 × 0.98 × 0.99 = 2765.07, + 150 + 50
    expect(created).toMatchObject({
      reservationNumber: 'R-1001',
      totalPrice: '3200.00',
      minimumPrice: '2965.07',
      totalPayment: '3000.00',
      recoveryPayment: '2900.00',
      columnDiscount: '0.050000',
      commission: null,
      version: 1,
    });
    expect(created.reservationFlowId).toEqual(expect.any(String));

    expect(await tableCount(ctx.db, reservations)).toBe(1);
    const flows = await ctx.db.select().from(flowsTable);
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({
      status: 'in_progress',
      reservationId: created.id,
      createdBy: admin.user!.id,
    });
    expect(flows[0]!.startedAt).toBeInstanceOf(Date);

    const tasks = await queryRows<{ stage: string; status: string; started: boolean }>(
      ctx.db,
      sql`select s.name as stage, t.status, t.started_at is not null as started
          from ${flowTasks} t join workflow_tasks d on d.id = t.task_id
          join workflow_stages s on s.id = d.stage_id order by s.sort_order, d.sort_order`,
    );
    expect(tasks).toHaveLength(25);
    expect(tasks.every((task) => task.status === 'pending')).toBe(true);
    // Only the current stage (Reserva) has started.
    expect(tasks.filter((task) => task.started).map((task) => task.stage)).toEqual([
      'Reserva',
      'Reserva',
      'Reserva',
    ]);
    const [currentStage] = await queryRows<{ name: string }>(
      ctx.db,
      sql`select s.name from workflow_stages s join ${flowsTable} f on f.current_stage_id = s.id`,
    );
    expect(currentStage!.name).toBe('Reserva');

    expect(await assignmentsOf(ctx.db, created.id)).toEqual(
      [
        { task: 'COF PENDIENTE FIRMA', userId: f.seller.id },
        { task: 'COF PENDIENTE GENERACIÓN', userId: f.seller.id },
        { task: 'PENDIENTE GENERACIÓN PROMESA', userId: defaultAssignee.id },
        { task: 'SOLICITUD VB COF PENDIENTE', userId: f.seller.id },
      ].sort((a, b) => a.task.localeCompare(b.task) || a.userId.localeCompare(b.userId)),
    );
    const [stored] = await ctx.db.select().from(reservations);
    expect(stored).toMatchObject({ createdBy: admin.user!.id, updatedBy: admin.user!.id });
  });

  it('creates the commission with the reservation when sold with a broker, with its computed figures', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const response = await admin.post(
      '/api/reservations',
      reservationBody(f, { isWithBroker: true, brokerId: f.broker.id, commission }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().reservation.commission).toMatchObject({
      brokerId: f.broker.id,
      commissionAmount: '59.50',
      netCommission: '50.00',
      numberOfPayments: 2,
      firstPaymentPercentage: 50,
      // recovery 2900 − minimum 2965.07 − commission 59.50
      difference: '-124.57',
      hasFirstPaymentFlow: false,
    });
    expect(await tableCount(ctx.db, brokerCommissions)).toBe(1);
  });

  it('ignores computed values sent by the client and stores its own', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const response = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        minimumPrice: '1.00',
        totalPrice: '2.00',
        totalPayment: '3.00',
        recoveryPayment: '4.00',
        isWithBroker: true,
        brokerId: f.broker.id,
        commission: { ...commission, netCommission: '999.99', difference: '0' },
      }),
    );
    expect(response.statusCode).toBe(201);
    const [stored] = await ctx.db.select().from(reservations);
    expect(stored).toMatchObject({
      minimumPrice: '2965.07',
      totalPrice: '3200.00',
      totalPayment: '3000.00',
      recoveryPayment: '2900.00',
    });
    const [storedCommission] = await ctx.db.select().from(brokerCommissions);
    expect(storedCommission).toMatchObject({ netCommission: '50.00', difference: '-124.57' });
  });

  it('leaves no row anywhere when a step after the reservation insert fails', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    // Injected failure: the flow insert, which runs after the reservation and commission inserts, fails.
    await ctx.db.execute(sql`create function inject_failure() returns trigger language plpgsql as
      $$ begin raise exception 'injected failure'; end $$`);
    await ctx.db.execute(sql`create trigger inject_failure before insert on flows
      for each row execute function inject_failure()`);

    const response = await admin.post(
      '/api/reservations',
      reservationBody(f, { isWithBroker: true, brokerId: f.broker.id, commission }),
    );
    expect(response.statusCode).toBe(500);
    expect(errorOf(response).message).toBe('No se pudo crear la reserva');
    for (const table of [reservations, brokerCommissions, flowsTable, flowTasks, flowTaskAssignees]) {
      expect(await tableCount(ctx.db, table)).toBe(0);
    }
  });

  it('refuses a broker sale without a broker, or without its commission, and creates nothing', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const noBroker = await admin.post(
      '/api/reservations',
      reservationBody(f, { isWithBroker: true, brokerId: null, commission }),
    );
    expect(noBroker.statusCode).toBe(400);
    expect(errorOf(noBroker).fields?.brokerId).toBe('Seleccione el broker de la venta');

    // The commission popup was cancelled: the client never sends the reservation.
    const noCommission = await admin.post(
      '/api/reservations',
      reservationBody(f, { isWithBroker: true, brokerId: f.broker.id }),
    );
    expect(noCommission.statusCode).toBe(400);
    expect(errorOf(noCommission).message).toBe(
      'Complete la comisión del broker para guardar una venta con broker',
    );

    const strayBroker = await admin.post(
      '/api/reservations',
      reservationBody(f, { isWithBroker: false, brokerId: f.broker.id }),
    );
    expect(strayBroker.statusCode).toBe(400);
    const strayCommission = await admin.post('/api/reservations', reservationBody(f, { commission }));
    expect(strayCommission.statusCode).toBe(400);
    expect(await tableCount(ctx.db, reservations)).toBe(0);
  });

  it.each([
    [{ reservationNumber: '   ' }, 'reservationNumber', 'El número de reserva es obligatorio'],
    [{ reservationNumber: undefined }, 'reservationNumber', 'El número de reserva es obligatorio'],
    [{ apartmentNumber: '' }, 'apartmentNumber', 'El número de departamento es obligatorio'],
    [{ reservationDate: '2026-02-30' }, 'reservationDate', 'Ingrese la fecha de la reserva'],
    [
      { apartmentPrice: '-1' },
      'apartmentPrice',
      'Ingrese el precio del departamento (mayor o igual a 0, con hasta 2 decimales)',
    ],
    [
      { parkingPrice: '10.123' },
      'parkingPrice',
      'Ingrese un monto válido (mayor o igual a 0, con hasta 2 decimales)',
    ],
    [
      { creditPayment: '-0.01' },
      'creditPayment',
      'Ingrese un monto válido (mayor o igual a 0, con hasta 2 decimales)',
    ],
    [{ columnDiscount: '1.5' }, 'columnDiscount', 'Ingrese un descuento válido entre 0 % y 100 %'],
    [{ otherDiscount: '-0.1' }, 'otherDiscount', 'Ingrese un descuento válido entre 0 % y 100 %'],
    [{ projectId: 'x' }, 'projectId', 'Seleccione un proyecto'],
  ])(
    'refuses bad input with its Spanish message and writes nothing (%#)',
    async (overrides, field, message) => {
      const f = await fixtures(ctx);
      const admin = await loginAs(ctx);
      const response = await admin.post('/api/reservations', reservationBody(f, overrides));
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).fields?.[field]).toBe(message);
      expect(await tableCount(ctx.db, reservations)).toBe(0);
    },
  );

  it('refuses unknown references, a duplicate number and bad commission splits', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const nonSeller = await createUser(ctx.db, { isSeller: false });
    const missingProject = await admin.post(
      '/api/reservations',
      reservationBody(f, { projectId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(errorOf(missingProject).fields?.projectId).toBe('El proyecto seleccionado no existe');
    const notASeller = await admin.post('/api/reservations', reservationBody(f, { sellerId: nonSeller.id }));
    expect(errorOf(notASeller).fields?.sellerId).toBe('El vendedor seleccionado no está disponible');

    const oneHalf = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        isWithBroker: true,
        brokerId: f.broker.id,
        commission: { ...commission, numberOfPayments: 1 },
      }),
    );
    expect(errorOf(oneHalf).fields?.['commission.firstPaymentPercentage']).toBe(
      'Con un solo pago, el primer pago es el 100 % de la comisión',
    );
    const twoWhole = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        isWithBroker: true,
        brokerId: f.broker.id,
        commission: { ...commission, firstPaymentPercentage: 100 },
      }),
    );
    expect(twoWhole.statusCode).toBe(400);
    const thirty = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        isWithBroker: true,
        brokerId: f.broker.id,
        commission: { ...commission, firstPaymentPercentage: 30 },
      }),
    );
    expect(errorOf(thirty).fields?.['commission.firstPaymentPercentage']).toBe(
      'El porcentaje del primer pago debe ser 25, 50 o 100',
    );
    expect(await tableCount(ctx.db, reservations)).toBe(0);

    expect((await admin.post('/api/reservations', reservationBody(f))).statusCode).toBe(201);
    const duplicate = await admin.post('/api/reservations', reservationBody(f, { apartmentNumber: '1305' }));
    expect(duplicate.statusCode).toBe(409);
    expect(errorOf(duplicate).fields?.reservationNumber).toBe('Ya existe una reserva con este número');
    expect(await tableCount(ctx.db, reservations)).toBe(1);
  });

  it('offers the projects, the sellers and the default seller to the form', async () => {
    const f = await fixtures(ctx);
    await ctx.db.insert(defaultSeller).values({ userId: f.seller.id });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const response = await kam.get('/api/reservations/form-options');
    expect(response.json()).toEqual({
      projects: [{ id: f.project.id, name: 'Parque Ñuñoa', stage: 'Etapa 2' }],
      sellers: [{ id: f.seller.id, firstName: 'Sergio', lastName: 'Vendedor' }],
      defaultSellerId: f.seller.id,
    });
  });
});

describe('no unit is sold twice', () => {
  const ctx = useTestApp();

  it('refuses a second live reservation of the same apartment, parking or storage, naming the first', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    expect((await admin.post('/api/reservations', reservationBody(f))).statusCode).toBe(201);
    const apartment = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        reservationNumber: 'R-2',
        apartmentNumber: '1204',
        parkingNumber: null,
        storageNumber: null,
      }),
    );
    expect(apartment.statusCode).toBe(409);
    expect(errorOf(apartment).message).toBe(
      'El departamento 1204 ya está reservado en este proyecto (reserva R-1001)',
    );
    expect(errorOf(apartment).fields?.apartmentNumber).toBe(errorOf(apartment).message);
    const parking = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        reservationNumber: 'R-3',
        apartmentNumber: '501',
        parkingNumber: 'e-45',
        storageNumber: null,
      }),
    );
    expect(errorOf(parking).message).toBe(
      'El estacionamiento e-45 ya está reservado en este proyecto (reserva R-1001)',
    );
    const storage = await admin.post(
      '/api/reservations',
      reservationBody(f, {
        reservationNumber: 'R-4',
        apartmentNumber: '502',
        parkingNumber: null,
        storageNumber: 'B-12',
      }),
    );
    expect(errorOf(storage).message).toBe(
      'La bodega B-12 ya está reservada en este proyecto (reserva R-1001)',
    );
    // Another project may sell its own 1204; a rescinded reservation frees its units.
    const other = await createProject(ctx.db);
    expect(
      (
        await admin.post(
          '/api/reservations',
          reservationBody(f, { reservationNumber: 'R-5', projectId: other.id }),
        )
      ).statusCode,
    ).toBe(201);
    await ctx.db
      .update(reservations)
      .set({ isRescinded: true })
      .where(eq(reservations.reservationNumber, 'R-1001'));
    expect(
      (await admin.post('/api/reservations', reservationBody(f, { reservationNumber: 'R-6' }))).statusCode,
    ).toBe(201);
    expect(await tableCount(ctx.db, reservations)).toBe(3);
  });

  it('lets exactly one of 20 concurrent reservations of one apartment win', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        admin.post(
          '/api/reservations',
          reservationBody(f, { reservationNumber: `C-${i}`, parkingNumber: null, storageNumber: null }),
        ),
      ),
    );
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(19);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(errorOf(response).message).toMatch(
        /^El departamento 1204 ya está reservado en este proyecto \(reserva C-\d+\)$/,
      );
    }
    expect(await tableCount(ctx.db, reservations)).toBe(1);
    expect(await tableCount(ctx.db, flowsTable)).toBe(1);
  });

  it('refuses an edit that would take another live reservation’s unit', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    await admin.post('/api/reservations', reservationBody(f));
    const second = (
      await admin.post(
        '/api/reservations',
        reservationBody(f, {
          reservationNumber: 'R-2',
          apartmentNumber: '305',
          parkingNumber: null,
          storageNumber: null,
        }),
      )
    ).json().reservation;
    const edit = await admin.put(`/api/reservations/${second.id}`, {
      ...reservationBody(f, {
        reservationNumber: 'R-2',
        apartmentNumber: '1204',
        parkingNumber: null,
        storageNumber: null,
      }),
      version: 1,
    });
    expect(edit.statusCode).toBe(409);
    expect(errorOf(edit).message).toBe(
      'El departamento 1204 ya está reservado en este proyecto (reserva R-1001)',
    );
  });
});

describe('editing, reading and deleting a reservation', () => {
  const ctx = useTestApp();

  async function created(agent: Agent, f: Awaited<ReturnType<typeof fixtures>>, overrides = {}) {
    const response = await agent.post('/api/reservations', reservationBody(f, overrides));
    expect(response.statusCode).toBe(201);
    return response.json().reservation;
  }

  it('updates with the version read, recomputes figures and answers 409 to a stale version', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const reservation = await created(admin, f, { isWithBroker: true, brokerId: f.broker.id, commission });
    const base = reservationBody(f, { isWithBroker: true, brokerId: f.broker.id });

    const edit = await admin.put(`/api/reservations/${reservation.id}`, {
      ...base,
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      version: 1,
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().reservation).toMatchObject({ minimumPrice: '3200.00', version: 2 });
    // The commission's difference follows the new minimum price: 2900 − 3200 − 59.50.
    expect(edit.json().reservation.commission.difference).toBe('-359.50');

    const stale = await admin.put(`/api/reservations/${reservation.id}`, {
      ...base,
      apartmentPrice: '1',
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toBe('El registro fue modificado por otro usuario. Recargue la página.');
    const [stored] = await ctx.db.select().from(reservations);
    expect(stored).toMatchObject({ apartmentPrice: '3000.00', version: 2 });
  });

  it('refuses a discount of 150 % or -10 % as the form sends it, on creation and on edit, and changes nothing', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const message = 'Ingrese un descuento válido entre 0 % y 100 %';
    // What the form sends for 150 and -10 (percentToFraction never clamps).
    const outOfRange = { columnDiscount: '1.500000', additionalDiscount: '-0.100000' };

    const refusedCreation = await admin.post('/api/reservations', reservationBody(f, outOfRange));
    expect(refusedCreation.statusCode).toBe(400);
    expect(errorOf(refusedCreation).fields).toMatchObject({
      columnDiscount: message,
      additionalDiscount: message,
    });
    expect(await tableCount(ctx.db, reservations)).toBe(0);

    const reservation = await created(admin, f, { isWithBroker: true, brokerId: f.broker.id, commission });
    const base = reservationBody(f, { isWithBroker: true, brokerId: f.broker.id });
    for (const discounts of [outOfRange, { otherDiscount: '1.500000' }, { otherDiscount: '-0.100000' }]) {
      const refusedEdit = await admin.put(`/api/reservations/${reservation.id}`, {
        ...base,
        ...discounts,
        version: 1,
      });
      expect(refusedEdit.statusCode).toBe(400);
      for (const field of Object.keys(discounts)) {
        expect(errorOf(refusedEdit).fields?.[field], field).toBe(message);
      }
    }
    const [stored] = await ctx.db.select().from(reservations);
    expect(stored).toMatchObject({
      columnDiscount: '0.050000',
      additionalDiscount: '0.020000',
      otherDiscount: '0.010000',
      minimumPrice: reservation.minimumPrice,
      version: 1,
    });

    // The commission's only percentage, the first payment's share, is one of 25, 50 or 100.
    const url = `/api/reservations/${reservation.id}/commission`;
    for (const firstPaymentPercentage of [150, -10]) {
      const refused = await admin.put(url, { ...commission, firstPaymentPercentage, version: 1 });
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused).fields?.firstPaymentPercentage).toBe(
        'El porcentaje del primer pago debe ser 25, 50 o 100',
      );
    }
    const [storedCommission] = await ctx.db.select().from(brokerCommissions);
    expect(storedCommission).toMatchObject({ firstPaymentPercentage: 50, version: 1 });
  });

  it('reads a reservation, and answers 404 with the spec message for an unknown one', async () => {
    const f = await fixtures(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const reservation = await created(kam, f);
    const read = await kam.get(`/api/reservations/${reservation.id}`);
    expect(read.json().reservation).toMatchObject({
      client: { id: f.client.id, firstName: 'Juan', lastName: 'Pérez', isDeleted: false },
      promotions: [],
      broker: null,
    });
    // A client deleted while holding this reservation (before deletion was refused for live
    // reservations, or rescinded and reinstated since) stays visible on it, marked; it still saves.
    const admin = await loginAs(ctx);
    await ctx.db.update(clients).set({ deletedAt: new Date() }).where(eq(clients.id, f.client.id));
    const afterDelete = await kam.get(`/api/reservations/${reservation.id}`);
    expect(afterDelete.json().reservation.client).toMatchObject({ id: f.client.id, isDeleted: true });
    const saved = await admin.put(`/api/reservations/${reservation.id}`, {
      ...reservationBody(f),
      version: 1,
    });
    expect(saved.statusCode).toBe(200);
    const missing = await kam.get('/api/reservations/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).message).toBe('No se encontró la reserva');
  });

  it('gives the open COF tasks to a new seller', async () => {
    const f = await fixtures(ctx);
    const other = await createUser(ctx.db, { isSeller: true });
    const admin = await loginAs(ctx);
    const reservation = await created(admin, f);
    const base = reservationBody(f);
    await admin.put(`/api/reservations/${reservation.id}`, { ...base, sellerId: other.id, version: 1 });
    const assignments = await assignmentsOf(ctx.db, reservation.id);
    expect(assignments.map((a) => a.userId)).toEqual([other.id, other.id, other.id]);
  });

  it('adds a broker with its commission on edit, and removes it while no payment has started', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const reservation = await created(admin, f);
    const base = reservationBody(f);
    const withoutCommission = await admin.put(`/api/reservations/${reservation.id}`, {
      ...base,
      isWithBroker: true,
      brokerId: f.broker.id,
      version: 1,
    });
    expect(withoutCommission.statusCode).toBe(400);
    const added = await admin.put(`/api/reservations/${reservation.id}`, {
      ...base,
      isWithBroker: true,
      brokerId: f.broker.id,
      commission,
      version: 1,
    });
    expect(added.json().reservation.commission.commissionAmount).toBe('59.50');
    const removed = await admin.put(`/api/reservations/${reservation.id}`, { ...base, version: 2 });
    expect(removed.json().reservation).toMatchObject({
      isWithBroker: false,
      brokerId: null,
      commission: null,
    });
  });

  it('lets only administrators delete; removes everything that hangs off the reservation', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const reservation = await created(admin, f, { isWithBroker: true, brokerId: f.broker.id, commission });
    await admin.post(`/api/reservations/${reservation.id}/promotions`, {
      amount: '10',
      beneficiary: 'Juan Pérez',
      rut: '12.345.678-5',
      bank: 'BancoEstado',
      accountType: 'Cuenta Vista',
      accountNumber: '123',
      email: 'juan@correo.cl',
    });

    const denied = await kam.delete(`/api/reservations/${reservation.id}`);
    expect(denied.statusCode).toBe(403);
    expect(await tableCount(ctx.db, reservations)).toBe(1);

    expect((await admin.delete(`/api/reservations/${reservation.id}`)).statusCode).toBe(204);
    for (const table of [
      reservations,
      brokerCommissions,
      promotions,
      flowsTable,
      flowTasks,
      flowTaskAssignees,
    ]) {
      expect(await tableCount(ctx.db, table)).toBe(0);
    }
    expect((await admin.delete(`/api/reservations/${reservation.id}`)).statusCode).toBe(404);
  });

  it('refuses to delete a reservation whose commission payment flow is in progress', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const reservation = await created(admin, f, { isWithBroker: true, brokerId: f.broker.id, commission });
    await (await createPaymentFlow(ctx.db, { brokerCommissionId: reservation.commission.id })).start();
    const response = await admin.delete(`/api/reservations/${reservation.id}`);
    expect(response.statusCode).toBe(409);
    expect(errorOf(response).message).toBe(
      'No se puede eliminar la reserva: su comisión tiene pagos en proceso o completados',
    );
    expect(await tableCount(ctx.db, reservations)).toBe(1);
    // Nor can its broker be changed or removed.
    const base = reservationBody(f);
    const removeBroker = await admin.put(`/api/reservations/${reservation.id}`, { ...base, version: 1 });
    expect(removeBroker.statusCode).toBe(409);
  });
});

describe('commission and promotions of a reservation', () => {
  const ctx = useTestApp();

  it('edits the commission with its version and locks a payment date once its flow exists', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const reservation = (
      await admin.post(
        '/api/reservations',
        reservationBody(f, { isWithBroker: true, brokerId: f.broker.id, commission }),
      )
    ).json().reservation;
    const url = `/api/reservations/${reservation.id}/commission`;

    const edited = await admin.put(url, {
      ...commission,
      commissionAmount: '119',
      numberOfPayments: 1,
      firstPaymentPercentage: 100,
      version: 1,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().commission).toMatchObject({
      netCommission: '100.00',
      numberOfPayments: 1,
      version: 2,
    });
    const stale = await admin.put(url, { ...commission, version: 1 });
    expect(stale.statusCode).toBe(409);

    await createPaymentFlow(ctx.db, { brokerCommissionId: reservation.commission.id });
    const locked = await admin.put(url, {
      ...commission,
      numberOfPayments: 1,
      firstPaymentPercentage: 100,
      payment1Date: '2026-12-01',
      version: 2,
    });
    expect(locked.statusCode).toBe(409);
    expect(errorOf(locked).fields?.payment1Date).toBe(
      'La fecha de pago 1 la registra el flujo del primer pago',
    );
    const [stored] = await ctx.db
      .select({ payment1Date: brokerCommissions.payment1Date })
      .from(brokerCommissions)
      .where(and(eq(brokerCommissions.id, reservation.commission.id)));
    expect(stored!.payment1Date).toBeNull();
    const read = await admin.get(`/api/reservations/${reservation.id}`);
    expect(read.json().reservation.commission.hasFirstPaymentFlow).toBe(true);
  });

  it('refuses a commission on a reservation without broker', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const reservation = (await admin.post('/api/reservations', reservationBody(f))).json().reservation;
    const response = await admin.put(`/api/reservations/${reservation.id}/commission`, commission);
    expect(response.statusCode).toBe(400);
    expect(await tableCount(ctx.db, brokerCommissions)).toBe(0);
  });

  it('adds and edits promotions with their rules; only administrators delete them', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const reservation = (await admin.post('/api/reservations', reservationBody(f))).json().reservation;
    const url = `/api/reservations/${reservation.id}/promotions`;
    const promotion = {
      amount: '25.5',
      beneficiary: 'María Soto',
      rut: '12345678-5',
      bank: 'Banco Santander',
      accountType: 'Cuenta Corriente',
      accountNumber: '0-000-12345-6',
      email: 'maria@correo.cl',
      documentDate: '2026-11-10',
    };
    const badRut = await kam.post(url, { ...promotion, rut: '12.345.678-9' });
    expect(errorOf(badRut).fields?.rut).toBe(
      'El RUT del beneficiario no es válido (revise el dígito verificador)',
    );
    const badType = await kam.post(url, { ...promotion, accountType: 'Cuenta RUT' });
    expect(errorOf(badType).fields?.accountType).toBe('Seleccione el tipo de cuenta');
    const noEmail = await kam.post(url, { ...promotion, email: '' });
    expect(errorOf(noEmail).fields?.email).toBe('Ingrese un correo electrónico válido');
    expect(await tableCount(ctx.db, promotions)).toBe(0);

    const created = await kam.post(url, promotion);
    expect(created.statusCode).toBe(201);
    expect(created.json().promotion).toMatchObject({
      amount: '25.50',
      rut: '12345678-5',
      paymentDate: null,
      version: 1,
    });
    const id = created.json().promotion.id;
    // The payee's account is the payments team's to change (issue 53): a KAM's change is refused.
    const payee = await kam.put(`${url}/${id}`, { ...promotion, accountNumber: '99999999', version: 1 });
    expect(payee.statusCode).toBe(403);
    expect(errorOf(payee).code).toBe('BANK_DATA_FORBIDDEN');
    const edited = await kam.put(`${url}/${id}`, { ...promotion, amount: '30', version: 1 });
    expect(edited.json().promotion).toMatchObject({ amount: '30.00', version: 2 });
    expect((await kam.put(`${url}/${id}`, { ...promotion, version: 1 })).statusCode).toBe(409);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const byPayments = await payments.put(`${url}/${id}`, {
      ...promotion,
      amount: '30',
      accountNumber: '99999999',
      version: 2,
    });
    expect(byPayments.statusCode, byPayments.body).toBe(200);

    expect((await kam.delete(`${url}/${id}`)).statusCode).toBe(403);
    expect((await admin.delete(`${url}/${id}`)).statusCode).toBe(204);
    expect(await tableCount(ctx.db, promotions)).toBe(0);
  });

  it('holds a payee’s account for another person’s verification, and its payment until then (issue 53)', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const reservation = (await admin.post('/api/reservations', reservationBody(f))).json().reservation;
    const url = `/api/reservations/${reservation.id}/promotions`;
    const promotion = {
      amount: '25.5',
      beneficiary: 'María Soto',
      rut: '12345678-5',
      bank: 'Banco Santander',
      accountType: 'Cuenta Corriente',
      accountNumber: '0-000-12345-6',
      email: 'maria@correo.cl',
    };
    // Entered with a payment date: refused, the account is nobody's verified one yet.
    const paidAtOnce = await kam.post(url, { ...promotion, paymentDate: '2026-11-20' });
    expect(paidAtOnce.statusCode).toBe(409);
    expect(errorOf(paidAtOnce).code).toBe('PROMOTION_ACCOUNT_UNVERIFIED');
    expect(await tableCount(ctx.db, promotions)).toBe(0);
    const created = await kam.post(url, promotion);
    expect(created.json().promotion).toMatchObject({ accountStatus: 'unverified', canVerifyAccount: false });
    const id = created.json().promotion.id;
    const unpaid = await kam.put(`${url}/${id}`, { ...promotion, paymentDate: '2026-11-20', version: 1 });
    expect(unpaid.statusCode).toBe(409);
    expect(errorOf(unpaid).fields?.paymentDate).toBe(
      'La cuenta del beneficiario está por verificar: otra persona (Gestor de Pagos o administrador) debe verificarla antes de registrar el pago.',
    );

    // The payments team changes the account: its author cannot verify it, a KAM neither.
    const changed = await payments.put(`${url}/${id}`, { ...promotion, accountNumber: '55555', version: 1 });
    expect(changed.json().promotion).toMatchObject({ accountStatus: 'unverified', canVerifyAccount: false });
    const own = await payments.post(`${url}/${id}/account/verify`, { version: 2 });
    expect(errorOf(own).code).toBe('BANK_VERIFY_OWN_CHANGE');
    const outsider = await kam.post(`${url}/${id}/account/verify`, { version: 2 });
    expect(errorOf(outsider).code).toBe('BANK_VERIFY_FORBIDDEN');
    const seen = (await admin.get(`/api/reservations/${reservation.id}`)).json().reservation.promotions;
    expect(seen[0]).toMatchObject({ id, accountStatus: 'unverified', canVerifyAccount: true });
    const stale = await admin.post(`${url}/${id}/account/verify`, { version: 1 });
    expect(errorOf(stale).code).toBe('STALE_VERSION');
    const verified = await admin.post(`${url}/${id}/account/verify`, { version: 2 });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().promotion).toMatchObject({ accountStatus: 'verified', version: 3 });

    // Verified: the payment is recorded; a later change of account waits again.
    const paid = await kam.put(`${url}/${id}`, {
      ...promotion,
      accountNumber: '55555',
      paymentDate: '2026-11-20',
      version: 3,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().promotion).toMatchObject({ accountStatus: 'verified', paymentDate: '2026-11-20' });
    const moved = await payments.put(`${url}/${id}`, {
      ...promotion,
      accountNumber: '66666',
      paymentDate: '2026-11-21',
      version: 4,
    });
    expect(errorOf(moved).code).toBe('PROMOTION_ACCOUNT_UNVERIFIED');
    const movedOnly = await payments.put(`${url}/${id}`, {
      ...promotion,
      accountNumber: '66666',
      paymentDate: '2026-11-20',
      version: 4,
    });
    expect(movedOnly.json().promotion).toMatchObject({ accountStatus: 'unverified', version: 5 });

    // Each account entered, changed or verified was told to the payee (decision 0077): last four digits only.
    const notices = await queryRows<{ to: string; notice: Record<string, unknown> }>(
      ctx.db,
      sql`select to_address as "to", notices->0 as notice from mail_messages
           where kind = 'bankAccount' order by created_at, id`,
    );
    expect(notices.map(({ to, notice }) => [to, notice.action, notice.accountEnding])).toEqual([
      ['maria@correo.cl', 'changed', '···· 45-6'],
      ['maria@correo.cl', 'changed', '···· 5555'],
      ['maria@correo.cl', 'verified', '···· 5555'],
      ['maria@correo.cl', 'changed', '···· 6666'],
    ]);
    expect(notices[0]!.notice).toMatchObject({
      payee: 'promotion',
      reservationId: reservation.id,
      reservationNumber: reservation.reservationNumber,
      beneficiary: 'María Soto',
    });
    expect(JSON.stringify(notices)).not.toContain('55555');
  });

  it('tells a payee’s change of account to the address it had too, when the change moves it (decision 0077)', async () => {
    const f = await fixtures(ctx);
    const admin = await loginAs(ctx);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const reservation = (await admin.post('/api/reservations', reservationBody(f))).json().reservation;
    const url = `/api/reservations/${reservation.id}/promotions`;
    const promotion = {
      amount: '10',
      beneficiary: 'Pedro Lagos',
      rut: '12345678-5',
      bank: 'BancoEstado',
      accountType: 'Cuenta Corriente',
      accountNumber: '12345678',
      email: 'pedro@correo.cl',
    };
    const posted = await payments.post(url, promotion);
    expect(posted.statusCode, posted.body).toBe(201);
    const created = posted.json().promotion;
    // Its other fields (the amount) change no account: nobody is told.
    const amount = await payments.put(`${url}/${created.id}`, { ...promotion, amount: '12', version: 1 });
    expect(amount.statusCode, amount.body).toBe(200);
    const moved = await payments.put(`${url}/${created.id}`, {
      ...promotion,
      amount: '12',
      accountNumber: '87654321',
      email: 'otro@correo.cl',
      version: 2,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const told = await queryRows<{ to: string; action: string }>(
      ctx.db,
      sql`select to_address as "to", notices->0->>'action' as action from mail_messages
           where kind = 'bankAccount' order by created_at, to_address`,
    );
    expect(told).toEqual([
      { to: 'pedro@correo.cl', action: 'changed' },
      { to: 'otro@correo.cl', action: 'changed' },
      { to: 'pedro@correo.cl', action: 'changed' },
    ]);
  });
});

describe('the reservation list', () => {
  const ctx = useTestApp();

  it('pages newest first with client and project, finds by partial number, marks rescinded ones', async () => {
    const project = await createProject(ctx.db, { name: 'Vista Andes', stage: 'Etapa 3' });
    const client = await createClient(ctx.db, { firstName: 'Ana', lastName: 'Muñoz' });
    for (const [number, date] of [
      ['A-100', '2026-09-01'],
      ['A-101', '2026-10-01'],
      ['B-200', '2026-11-01'],
    ] as const) {
      await createReservation(ctx.db, {
        reservationNumber: number,
        reservationDate: date,
        projectId: project.id,
        clientId: client.id,
      });
    }
    await ctx.db
      .update(reservations)
      .set({ isRescinded: true })
      .where(eq(reservations.reservationNumber, 'A-100'));
    const kam = await loginAs(ctx, { userType: 'KAM' });

    const firstPage = (await kam.get('/api/reservations?page=1&pageSize=2')).json();
    expect(firstPage).toMatchObject({ total: 3, totalIsCapped: false });
    expect(firstPage.rows.map((row: { reservationNumber: string }) => row.reservationNumber)).toEqual([
      'B-200',
      'A-101',
    ]);
    expect(firstPage.rows[0]).toMatchObject({
      clientName: 'Ana Muñoz',
      projectName: 'Vista Andes',
      projectStage: 'Etapa 3',
      totalPrice: '3200.00',
      minimumPrice: '3050.00',
      totalPayment: '3000.00',
      isRescinded: false,
      reservationDate: '2026-11-01',
    });
    const secondPage = (await kam.get('/api/reservations?page=2&pageSize=2')).json();
    expect(secondPage.rows).toEqual([
      expect.objectContaining({ reservationNumber: 'A-100', isRescinded: true }),
    ]);

    const search = (await kam.get('/api/reservations?search=a-10')).json();
    expect(search.rows.map((row: { reservationNumber: string }) => row.reservationNumber)).toEqual([
      'A-101',
      'A-100',
    ]);
    const wildcard = (await kam.get(`/api/reservations?search=${encodeURIComponent('%')}`)).json();
    expect(wildcard.total).toBe(0);
  });

  it('sorts by each offered column both ways, with the newest first within one client or project', async () => {
    const andes = await createProject(ctx.db, { name: 'Andes', stage: 'Etapa 1' });
    const bosque = await createProject(ctx.db, { name: 'Bosque', stage: 'Etapa 1' });
    const ana = await createClient(ctx.db, { firstName: 'Ana', lastName: 'Zúñiga' });
    const bruno = await createClient(ctx.db, { firstName: 'Bruno', lastName: 'Alvarez' });
    const rows = [
      { reservationNumber: 'S-3', reservationDate: '2026-03-01', clientId: bruno.id, projectId: andes.id },
      { reservationNumber: 'S-1', reservationDate: '2026-01-01', clientId: ana.id, projectId: bosque.id },
      { reservationNumber: 'S-4', reservationDate: '2026-04-01', clientId: ana.id, projectId: andes.id },
      { reservationNumber: 'S-2', reservationDate: '2026-02-01', clientId: bruno.id, projectId: bosque.id },
    ];
    for (const row of rows) await createReservation(ctx.db, row);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const numbers = async (query: string) => {
      const response = await kam.get(`/api/reservations?${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json().rows.map((row: { reservationNumber: string }) => row.reservationNumber);
    };

    expect(await numbers('')).toEqual(['S-4', 'S-3', 'S-2', 'S-1']);
    expect(await numbers('sort=reservationDate&direction=asc')).toEqual(['S-1', 'S-2', 'S-3', 'S-4']);
    expect(await numbers('sort=reservationNumber&direction=asc')).toEqual(['S-1', 'S-2', 'S-3', 'S-4']);
    expect(await numbers('sort=reservationNumber&direction=desc')).toEqual(['S-4', 'S-3', 'S-2', 'S-1']);
    // By the client's name (first names, then last names); each client's newest reservation first.
    expect(await numbers('sort=clientName&direction=asc')).toEqual(['S-4', 'S-1', 'S-3', 'S-2']);
    expect(await numbers('sort=clientName&direction=desc')).toEqual(['S-3', 'S-2', 'S-4', 'S-1']);
    expect(await numbers('sort=projectName&direction=asc')).toEqual(['S-4', 'S-3', 'S-2', 'S-1']);
    expect(await numbers('sort=projectName&direction=desc')).toEqual(['S-2', 'S-1', 'S-4', 'S-3']);
    // Pages follow the order without overlapping.
    expect(await numbers('sort=clientName&direction=asc&pageSize=3&page=2')).toEqual(['S-2']);
  });

  it('filters by project, seller, reservation date range and rescission, and sums the money of every filtered row', async () => {
    const andes = await createProject(ctx.db, { name: 'Andes', stage: 'Etapa 1' });
    const bosque = await createProject(ctx.db, { name: 'Bosque', stage: 'Etapa 2' });
    const seller = await createUser(ctx.db, { firstName: 'Sara', lastName: 'Vende', isSeller: true });
    const other = await createUser(ctx.db, { firstName: 'Otto', lastName: 'Vende', isSeller: true });
    const client = await createClient(ctx.db);
    const make = (
      number: string,
      date: string,
      projectId: string,
      sellerId: string,
      apartmentPrice: string,
    ) =>
      createReservation(ctx.db, {
        reservationNumber: number,
        reservationDate: date,
        projectId,
        sellerId,
        clientId: client.id,
        apartmentPrice,
      });
    // Prices of the builder: list = apartment + 200; minimum = apartment × 0.95 + 200; escrituración 3000.
    await make('F-1', '2026-01-10', andes.id, seller.id, '1000.00');
    await make('F-2', '2026-02-10', andes.id, other.id, '2000.00');
    await make('F-3', '2026-03-10', bosque.id, seller.id, '3000.00');
    await make('F-4', '2026-04-10', andes.id, seller.id, '4000.00');
    await ctx.db
      .update(reservations)
      .set({ isRescinded: true })
      .where(eq(reservations.reservationNumber, 'F-4'));
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const list = async (query: string) => {
      const response = await kam.get(`/api/reservations?${query}`);
      expect(response.statusCode, query).toBe(200);
      const page = response.json();
      return {
        numbers: page.rows.map((row: { reservationNumber: string }) => row.reservationNumber),
        total: page.total,
        totals: page.totals,
      };
    };

    expect(await list(`projectId=${andes.id}`)).toEqual({
      numbers: ['F-4', 'F-2', 'F-1'],
      total: 3,
      totals: { totalPrice: '7600.00', minimumPrice: '7250.00', totalPayment: '9000.00' },
    });
    expect((await list(`sellerId=${seller.id}`)).numbers).toEqual(['F-4', 'F-3', 'F-1']);
    expect((await list(`projectId=${andes.id}&sellerId=${seller.id}`)).numbers).toEqual(['F-4', 'F-1']);
    // Both ends of the range are included.
    expect((await list('fromDate=2026-02-10&toDate=2026-03-10')).numbers).toEqual(['F-3', 'F-2']);
    expect((await list('fromDate=2026-03-01')).numbers).toEqual(['F-4', 'F-3']);
    expect((await list('toDate=2026-01-31')).numbers).toEqual(['F-1']);
    expect((await list('rescinded=yes')).numbers).toEqual(['F-4']);
    expect((await list('rescinded=no')).numbers).toEqual(['F-3', 'F-2', 'F-1']);
    expect((await list('rescinded=all')).numbers).toEqual(['F-4', 'F-3', 'F-2', 'F-1']);
    // The totals count every filtered row, not only the page's.
    expect(await list('rescinded=no&pageSize=1')).toEqual({
      numbers: ['F-3'],
      total: 3,
      totals: { totalPrice: '6600.00', minimumPrice: '6300.00', totalPayment: '9000.00' },
    });
    expect(await list('search=zzz')).toEqual({
      numbers: [],
      total: 0,
      totals: { totalPrice: '0.00', minimumPrice: '0.00', totalPayment: '0.00' },
    });
  });

  it('gives no totals when more reservations match than the list counts', async () => {
    const project = await createProject(ctx.db);
    const client = await createClient(ctx.db);
    await ctx.db.execute(sql`insert into reservations (reservation_number, client_id, project_id, reservation_date,
        apartment_number, total_price)
      select 'C-' || g, ${client.id}, ${project.id}, date '2026-01-01' + (g % 300), g::text, 10
      from generate_series(1, 1001) g`);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const capped = (await kam.get('/api/reservations?pageSize=1')).json();
    expect(capped).toMatchObject({ total: 1000, totalIsCapped: true, totals: null });
    const narrowed = (await kam.get('/api/reservations?search=c-100')).json();
    // C-100 and C-1000, C-1001.
    expect(narrowed).toMatchObject({ total: 3, totals: { totalPrice: '30.00' } });
  }, 60_000);

  it('refuses an unknown order, page size, project, date or rescission filter with a Spanish message', async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const refusal = async (query: string) => {
      const response = await kam.get(`/api/reservations?${query}`);
      expect(response.statusCode, query).toBe(400);
      return errorOf(response).message;
    };
    expect(await refusal('sort=apartmentNumber')).toBe(
      'Orden no válido: use reservationDate, reservationNumber, clientName, projectName',
    );
    expect(await refusal('direction=up')).toBe('Dirección de orden no válida: use asc o desc');
    expect(await refusal('pageSize=500')).toBe('El tamaño de página debe ser un número entero entre 1 y 100');
    expect(await refusal('page=0')).toBe('La página debe ser un número entero mayor o igual a 1');
    expect(await refusal('projectId=abc')).toBe('Proyecto no válido');
    expect(await refusal('sellerId=abc')).toBe('Vendedor no válido');
    expect(await refusal('fromDate=2026-02-30')).toBe('La fecha «desde» no es válida');
    expect(await refusal('toDate=ayer')).toBe('La fecha «hasta» no es válida');
    expect(await refusal('fromDate=2026-03-01&toDate=2026-02-01')).toBe(
      'La fecha «hasta» no puede ser anterior a la fecha «desde»',
    );
    expect(await refusal('rescinded=maybe')).toBe('Filtro de resciliadas no válido: use all, yes o no');
    expect(await refusal('sellerName=Sara')).toBe('Campo no permitido: sellerName');
  });

  it('answers a page in one indexed statement, even with many reservations', async () => {
    const project = await createProject(ctx.db);
    const client = await createClient(ctx.db);
    await loadInBulk(
      ctx.db,
      ['reservations'],
      [
        sql`insert into reservations (reservation_number, client_id, project_id, reservation_date, apartment_number)
        select 'N-' || g, ${client.id}, ${project.id}, date '2025-01-01' + (g % 600), g::text
        from generate_series(1, 100000) g`,
      ],
    );
    await ctx.db.execute(sql`analyze reservations`);
    const plan = await queryRows<Record<string, string>>(
      ctx.db,
      sql`explain ${pageSql(reservationListSql(reservationListQuery.parse({ search: 'n-1234' })))}`,
    );
    const text = plan.map((row) => Object.values(row)[0]).join('\n');
    expect(text).toContain('reservations_number_trgm_idx');
    expect(text).not.toMatch(/Seq Scan on reservations/);

    // The first page without a search reads the newest rows off the date index, without sorting them all.
    const firstPage = await queryRows<Record<string, string>>(
      ctx.db,
      sql`explain ${pageSql(reservationListSql(reservationListQuery.parse({})))}`,
    );
    const firstPageText = firstPage.map((row) => Object.values(row)[0]).join('\n');
    expect(firstPageText).toContain('reservations_date_idx');
    expect(firstPageText).not.toMatch(/Sort Key: r(_\d+)?\./);

    // Every other order reads its index too, and so does a date range: no sort of the matching rows
    // (only the page's 25 are put back in order, by their row number).
    for (const [query, index] of [
      [{ sort: 'reservationDate', direction: 'asc' }, 'reservations_date_idx'],
      [{ sort: 'reservationNumber', direction: 'asc' }, 'reservations_reservation_number_unique'],
      [{ sort: 'reservationNumber', direction: 'desc' }, 'reservations_reservation_number_unique'],
      [{ fromDate: '2025-03-01', toDate: '2025-03-31' }, 'reservations_date_idx'],
    ] as const) {
      const plan = await queryRows<Record<string, string>>(
        ctx.db,
        sql`explain ${pageSql(reservationListSql(reservationListQuery.parse(query)))}`,
      );
      const text = plan.map((row) => Object.values(row)[0]).join('\n');
      expect(text, JSON.stringify(query)).toContain(index);
      expect(text, JSON.stringify(query)).not.toMatch(/Sort Key: r(_\d+)?\./);
    }
  }, 180_000);
});
