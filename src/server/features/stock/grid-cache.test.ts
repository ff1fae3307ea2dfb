import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type UnitGrid, unitGrid } from '../../../shared/schemas/stock';
import { buildApp } from '../../app';
import { queryRows } from '../../db/client';
import { Agent, loginAs, useTestApp } from '../../test/app';
import { createProject, PLAIN_RESERVATION_TERMS } from '../../test/builders';
import { FlowDriver } from '../../test/flow-builders';
import { addUnit, stockScene } from '../../test/stock-builders';
import * as stock from './stock.service';

const NOW = new Date('2026-11-10T15:00:00Z');

// Disponibilidad's answers are kept per instance and checked against the project's stock version
// (decision 0032, update of 2026-11-27): after every kind of change, made through this instance,
// another one or straight in the database, each instance answers what a grid built afresh says.
describe('Disponibilidad kept per project (decision 0032)', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('answers what a grid built afresh says after every kind of change, on both instances', async () => {
    const { admin, seller, project, client } = await stockScene(ctx);
    const a1201 = await addUnit(admin, project.id, {
      kind: 'apartment',
      number: '1201',
      floor: 12,
      typology: '2D2B',
    });
    const a1202 = await addUnit(admin, project.id, {
      kind: 'apartment',
      number: '1202',
      floor: 12,
      typology: '1D1B',
    });
    await addUnit(admin, project.id, { kind: 'parking', number: 'E-12', floor: -1 });
    const priced = await admin.post(`/api/stock/projects/${project.id}/price-lists`, {
      effectiveDate: '2026-11-01',
      rows: [
        { kind: 'apartment', number: '1201', price: '3200' },
        { kind: 'apartment', number: '1202', price: '2500' },
      ],
    });
    expect(priced.statusCode, priced.body).toBe(201);

    // A second instance on the same database: nothing of the first one's memory (DESIGN §14).
    const other = await buildApp({
      db: ctx.db,
      serveClient: false,
      now: () => NOW,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    try {
      const elsewhere = new Agent(other);
      elsewhere.cookie = admin.cookie;
      const instances = [admin, elsewhere];
      const filters = ['', '?kind=apartment', '?status=Disponible', '?typology=2d2b'];

      const version = async () =>
        (
          await queryRows<{ version: string }>(
            ctx.db,
            sql`select coalesce(max(version::text), '') as version from project_stock_versions where project_id = ${project.id}`,
          )
        )[0]!.version;

      /** Every instance's answer, for every filter, is the grid built afresh; returns the whole grid. */
      async function expectFresh(): Promise<UnitGrid> {
        for (const query of filters) {
          const params = Object.fromEntries(new URLSearchParams(query));
          const fresh = unitGrid.parse(await stock.grid({ db: ctx.appDb, now: NOW }, project.id, params));
          for (const agent of instances) {
            const response = await agent.get(`/api/stock/projects/${project.id}/units${query}`);
            expect(response.statusCode, response.body).toBe(200);
            expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
            expect(response.json(), `${query} on ${agent === admin ? 'this' : 'the other'} instance`).toEqual(
              JSON.parse(JSON.stringify(fresh)),
            );
          }
        }
        return (await admin.get(`/api/stock/projects/${project.id}/units`)).json() as UnitGrid;
      }
      const unitOf = (grid: UnitGrid, number: string) => grid.units.find((unit) => unit.number === number)!;

      let grid = await expectFresh();
      expect(unitOf(grid, '1201')).toMatchObject({
        status: 'Disponible',
        price: '3200.00',
        reservation: null,
      });
      // Reading changes nothing; every change below gives the version a new value in its transaction.
      let seen = await version();
      expect(seen).not.toBe('');
      await expectFresh();
      expect(await version()).toBe(seen);
      const bumped = async () => {
        const now = await version();
        expect(now).not.toBe(seen);
        seen = now;
      };

      // Reserved through the other instance.
      const created = await elsewhere.post('/api/reservations', {
        reservationNumber: 'R-1',
        clientId: client.id,
        projectId: project.id,
        sellerId: seller.user!.id,
        reservationDate: '2026-11-10',
        ...PLAIN_RESERVATION_TERMS,
        apartmentUnitId: a1201.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      const reservation = (created.json() as { reservation: { id: string; reservationFlowId: string } })
        .reservation;
      await bumped();
      grid = await expectFresh();
      expect(unitOf(grid, '1201')).toMatchObject({
        status: 'Reservada',
        reservation: {
          id: reservation.id,
          reservationNumber: 'R-1',
          clientName: 'Juan Pérez',
          sellerName: 'Sara Vende',
          flowId: reservation.reservationFlowId,
        },
      });

      // The sale flow to the promise stage, then every task (the deed): by the engine, no instance.
      const flow = await FlowDriver.open(ctx.db, reservation.reservationFlowId);
      await flow.completeAll([
        'COF PENDIENTE GENERACIÓN',
        'COF PENDIENTE FIRMA',
        'SOLICITUD VB COF PENDIENTE',
      ]);
      await bumped();
      expect(unitOf(await expectFresh(), '1201').status).toBe('Promesada');
      await flow.completeAll(flow.taskNames());
      await bumped();
      expect(unitOf(await expectFresh(), '1201').status).toBe('Escriturada');

      // The holder's client and seller renamed straight in the database.
      await ctx.db.execute(sql`update clients set last_name = 'Pérez Soto' where id = ${client.id}`);
      await bumped();
      expect(unitOf(await expectFresh(), '1201').reservation?.clientName).toBe('Juan Pérez Soto');
      await ctx.db.execute(sql`update profiles set first_name = 'Sarita' where id = ${seller.user!.id}`);
      await bumped();
      expect(unitOf(await expectFresh(), '1201').reservation?.sellerName).toBe('Sarita Vende');

      // A rescission frees the unit.
      const rescinded = await admin.post(`/api/reservations/${reservation.id}/rescission`, {
        reason: 'Cliente desiste',
        confirmation: 'CONFIRMAR',
      });
      expect(rescinded.statusCode, rescinded.body).toBe(200);
      await bumped();
      expect(unitOf(await expectFresh(), '1201')).toMatchObject({ status: 'Disponible', reservation: null });

      // Blocked through the other instance, unblocked through this one.
      const blocked = await elsewhere.post(`/api/stock/units/${a1202.id}/block`, {
        reason: 'Piloto',
        version: 1,
      });
      expect(blocked.statusCode, blocked.body).toBe(200);
      await bumped();
      expect(unitOf(await expectFresh(), '1202')).toMatchObject({
        status: 'Bloqueada',
        blockedReason: 'Piloto',
      });
      const unblocked = await admin.post(`/api/stock/units/${a1202.id}/unblock`, { version: 2 });
      expect(unblocked.statusCode, unblocked.body).toBe(200);
      await bumped();
      expect(unitOf(await expectFresh(), '1202')).toMatchObject({
        status: 'Disponible',
        blockedReason: null,
      });

      // A new price list through the other instance.
      const repriced = await elsewhere.post(`/api/stock/projects/${project.id}/price-lists`, {
        effectiveDate: '2026-11-05',
        rows: [{ kind: 'apartment', number: '1202', price: '2600' }],
      });
      expect(repriced.statusCode, repriced.body).toBe(201);
      await bumped();
      grid = await expectFresh();
      expect(unitOf(grid, '1202').price).toBe('2600.00');
      expect(grid.currentPriceList?.effectiveDate).toBe('2026-11-05');

      // The project renamed: its name is read with the version on every request.
      await ctx.db.execute(sql`update projects set name = 'Parque Ñuñoa II' where id = ${project.id}`);
      expect((await expectFresh()).project.name).toBe('Parque Ñuñoa II');
    } finally {
      await other.close();
    }
  });

  it('answers the kept grid while nothing it shows changed (a write that bumps nothing is not seen)', async () => {
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db);
    const unit = await addUnit(admin, project.id, { kind: 'apartment', number: '101', typology: '2D1B' });
    const typologyOf = async () =>
      ((await admin.get(`/api/stock/projects/${project.id}/units`)).json() as UnitGrid).units[0]!.typology;
    expect(await typologyOf()).toBe('2D1B');
    // Triggers off for this one write (only a test does this): the kept answer stays.
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update units set typology = '3D2B' where id = ${unit.id}`);
    });
    expect(await typologyOf()).toBe('2D1B');
    // The next change to the project shows both.
    await ctx.db.execute(sql`update units set orientation = 'Norte' where id = ${unit.id}`);
    expect(await typologyOf()).toBe('3D2B');
  });
});
