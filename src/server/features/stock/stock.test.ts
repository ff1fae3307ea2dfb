import { count, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UNIT_STATUSES } from '../../../shared/domain/stock';
import type { PriceListDiff, UnitGrid, UnitView } from '../../../shared/schemas/stock';
import { type Database, queryRows } from '../../db/client';
import { auditLog, priceLists, reservations, reservationUnits, units } from '../../db/schema';
import { errorOf, useTestApp } from '../../test/app';
import { createProject, PLAIN_RESERVATION_TERMS } from '../../test/builders';
import { FlowDriver } from '../../test/flow-builders';
import { addUnit, gridOf, type StockScene, stockScene } from '../../test/stock-builders';

describe('stock (decision 0032)', () => {
  const ctx = useTestApp({ now: () => new Date('2026-11-10T15:00:00Z') });

  const setup = () => stockScene(ctx);
  type Setup = StockScene;

  /** Three apartments on two floors, a parking and a storage, priced from 2026-11-01. */
  async function inventory(s: Setup) {
    const a1201 = await addUnit(s.admin, s.project.id, {
      kind: 'apartment',
      number: '1201',
      floor: 12,
      typology: '2D2B',
      orientation: 'Norte',
      usableArea: '54.20',
      terraceArea: '8.10',
      totalArea: '62.30',
    });
    const a1202 = await addUnit(s.admin, s.project.id, {
      kind: 'apartment',
      number: '1202',
      floor: 12,
      typology: '1D1B',
    });
    const a1301 = await addUnit(s.admin, s.project.id, {
      kind: 'apartment',
      number: '1301',
      floor: 13,
      typology: '2D2B',
    });
    const e12 = await addUnit(s.admin, s.project.id, { kind: 'parking', number: 'E-12', floor: -1 });
    const b7 = await addUnit(s.admin, s.project.id, { kind: 'storage', number: 'B-7', floor: -1 });
    const applied = await s.admin.post(`/api/stock/projects/${s.project.id}/price-lists`, {
      effectiveDate: '2026-11-01',
      rows: [
        { kind: 'apartment', number: '1201', price: '3200' },
        { kind: 'apartment', number: '1202', price: '2500.5' },
        { kind: 'apartment', number: '1301', price: '3300' },
        { kind: 'parking', number: 'E-12', price: '180' },
        { kind: 'storage', number: 'B-7', price: '60' },
      ],
    });
    expect(applied.statusCode, applied.body).toBe(201);
    return { a1201, a1202, a1301, e12, b7 };
  }

  function reservationBody(s: Setup, overrides: Record<string, unknown> = {}) {
    return {
      reservationNumber: 'R-1',
      clientId: s.client.id,
      projectId: s.project.id,
      sellerId: s.seller.user!.id,
      reservationDate: '2026-11-10',
      ...PLAIN_RESERVATION_TERMS,
      ...overrides,
    };
  }

  const statusOf = (grid: UnitGrid, number: string) =>
    grid.units.find((unit) => unit.number === number)?.status;

  async function tableCount(db: Database, table: typeof units | typeof priceLists | typeof reservationUnits) {
    const [row] = await db.select({ n: count() }).from(table);
    return row!.n;
  }

  describe('units', () => {
    it('lets an administrator create, edit, block and unblock units; refuses bad input with nothing changed', async () => {
      const s = await setup();
      const unit = await addUnit(s.admin, s.project.id, {
        kind: 'apartment',
        number: '101',
        floor: 1,
        typology: '2D1B',
      });
      expect(unit).toMatchObject({ status: 'Disponible', price: null, floor: 1, version: 1 });

      // The same number within a project and kind.
      const repeated = await s.admin.post(`/api/stock/projects/${s.project.id}/units`, {
        kind: 'apartment',
        number: '101',
      });
      expect(repeated.statusCode).toBe(409);
      expect(errorOf(repeated).message).toBe(
        'Ya existe la unidad Departamento 101 en este proyecto: el número no se repite para un mismo tipo de unidad',
      );
      // …but a parking may be 101.
      await addUnit(s.admin, s.project.id, { kind: 'parking', number: '101' });
      // A negative area.
      const negative = await s.admin.post(`/api/stock/projects/${s.project.id}/units`, {
        kind: 'apartment',
        number: '102',
        usableArea: '-3',
      });
      expect(negative.statusCode).toBe(400);
      expect(errorOf(negative).fields?.usableArea).toMatch(/m² útiles/);
      expect(await tableCount(ctx.db, units)).toBe(2);

      const edited = await s.admin.put(`/api/stock/units/${unit.id}`, {
        kind: 'apartment',
        number: '101',
        floor: 1,
        typology: '3D2B',
        version: 1,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect((edited.json() as { unit: UnitView }).unit.typology).toBe('3D2B');
      const stale = await s.admin.put(`/api/stock/units/${unit.id}`, {
        kind: 'apartment',
        number: '101',
        version: 1,
      });
      expect(stale.statusCode).toBe(409);

      // A block without a reason.
      const noReason = await s.admin.post(`/api/stock/units/${unit.id}/block`, { reason: ' ', version: 2 });
      expect(noReason.statusCode).toBe(400);
      expect(errorOf(noReason).fields?.reason).toBe('Indique el motivo del bloqueo');
      const blocked = await s.admin.post(`/api/stock/units/${unit.id}/block`, {
        reason: 'Piloto de ventas',
        version: 2,
      });
      expect((blocked.json() as { unit: UnitView }).unit).toMatchObject({
        status: 'Bloqueada',
        blockedReason: 'Piloto de ventas',
      });
      const unblocked = await s.admin.post(`/api/stock/units/${unit.id}/unblock`, { version: 3 });
      expect((unblocked.json() as { unit: UnitView }).unit.status).toBe('Disponible');

      const logged = await ctx.db
        .select({ action: auditLog.action, after: auditLog.after })
        .from(auditLog)
        .where(eq(auditLog.tableName, 'units'))
        // In the order they were written (the log's ids ascend so); unordered, PostgreSQL may answer
        // from wherever a reset's freed space put the rows.
        .orderBy(auditLog.id);
      expect(logged.map((row) => row.action)).toEqual(['insert', 'insert', 'update', 'update', 'update']);
      expect(logged[3]!.after).toEqual({ blocked_reason: 'Piloto de ventas' });
    });

    it('answers the grid to every user, and refuses writes to non-administrators (allow and deny)', async () => {
      const s = await setup();
      const { a1201 } = await inventory(s);
      const base = `/api/stock/projects/${s.project.id}`;
      for (const url of [
        `${base}/units`,
        `${base}/picker?kind=apartment`,
        `${base}/price-lists`,
        `${base}/policy`,
        '/api/stock/projects',
      ]) {
        expect((await s.seller.get(url)).statusCode, url).toBe(200);
      }
      const denied = [
        await s.seller.post(`${base}/units`, { kind: 'apartment', number: '999' }),
        await s.seller.put(`/api/stock/units/${a1201.id}`, { kind: 'apartment', number: '1201', version: 1 }),
        await s.seller.post(`/api/stock/units/${a1201.id}/block`, { reason: 'No', version: 1 }),
        await s.seller.post(`/api/stock/units/${a1201.id}/unblock`, { version: 1 }),
        await s.seller.post(`${base}/price-lists/preview`, {
          effectiveDate: '2026-12-01',
          rows: [{ kind: 'apartment', number: '1201', price: '1' }],
        }),
        await s.seller.post(`${base}/price-lists`, {
          effectiveDate: '2026-12-01',
          rows: [{ kind: 'apartment', number: '1201', price: '1' }],
        }),
        await s.seller.put(`${base}/policy`, {
          reservationAmount: null,
          maxColumnDiscount: '0.5',
          maxAdditionalDiscount: null,
          maxOtherDiscount: null,
          maxSubsidyFraction: null,
        }),
      ];
      for (const response of denied) expect(response.statusCode).toBe(403);
      const anonymous = await ctx.app.inject({ method: 'GET', url: `${base}/units` });
      expect(anonymous.statusCode).toBe(401);
      const grid = await gridOf(s.seller, s.project.id);
      expect(grid.counts).toMatchObject({
        total: 5,
        byStatus: { Disponible: 5, Bloqueada: 0, Reservada: 0 },
      });
      expect(grid.counts.byTypology).toEqual([
        { typology: '1D1B', total: 1, available: 1 },
        { typology: '2D2B', total: 2, available: 2 },
      ]);
      expect(grid.units.map((unit) => unit.number)).toEqual(['E-12', 'B-7', '1201', '1202', '1301']);
      expect(grid.units.find((unit) => unit.number === '1201')?.price).toBe('3200.00');
      // Filters: kind, typology, status.
      expect((await gridOf(s.seller, s.project.id, '?kind=parking')).units.map((u) => u.number)).toEqual([
        'E-12',
      ]);
      expect((await gridOf(s.seller, s.project.id, '?typology=2d2b')).units.map((u) => u.number)).toEqual([
        '1201',
        '1301',
      ]);
      expect((await gridOf(s.seller, s.project.id, '?status=Reservada')).units).toEqual([]);
      const bad = await s.seller.get(`${base}/units?status=Vendida`);
      expect(bad.statusCode).toBe(400);
      // The XLSX export of the grid.
      const xlsx = await s.seller.get(`${base}/units/export?format=xlsx`);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      const csv = await s.seller.get(`${base}/units/export?format=csv`);
      expect(csv.body).toContain('Departamento;1201;12');
      // Issue 57: areas as numbers with a decimal comma, like the prices; the file's name keeps its ñ.
      expect(csv.body).toContain('Departamento;1201;12;;2D2B;Norte;54,20;8,10;62,30;');
      expect(csv.headers['content-disposition']).toContain(
        "filename*=UTF-8''disponibilidad_Parque_%C3%91u%C3%B1oa_Etapa_1_2026-11-10.csv",
      );
    });
    it('sorts unit numbers naturally (E-2, E-10, E-12, E-100), in the grid and the picker', async () => {
      const s = await setup();
      await inventory(s);
      for (const number of ['E-100', 'E-10', 'E-2'])
        await addUnit(s.admin, s.project.id, { kind: 'parking', number, floor: -1 });
      const grid = await gridOf(s.seller, s.project.id, '?kind=parking');
      expect(grid.units.map((unit) => unit.number)).toEqual(['E-2', 'E-10', 'E-12', 'E-100']);
      const picker = await s.seller.get(`/api/stock/projects/${s.project.id}/picker?kind=parking`);
      expect(picker.statusCode, picker.body).toBe(200);
      expect((picker.json() as { rows: { number: string }[] }).rows.map((unit) => unit.number)).toEqual([
        'E-2',
        'E-10',
        'E-12',
        'E-100',
      ]);
    });
    it('global search finds units by number, kind and project words ("depto 1201 parque")', async () => {
      const s = await setup();
      await inventory(s);
      const other = await createProject(ctx.db, { name: 'Bosque Alto', stage: 'Etapa 1' });
      await addUnit(s.admin, other.id, { kind: 'apartment', number: '1201' });
      const found = (
        await s.seller.get(`/api/search?q=${encodeURIComponent('depto 1201 parque')}`)
      ).json() as {
        units: { number: string; projectName: string; status: string; kind: string }[];
      };
      expect(found.units).toEqual([
        expect.objectContaining({
          number: '1201',
          projectName: 'Parque Ñuñoa',
          status: 'Disponible',
          kind: 'apartment',
        }),
      ]);
      const both = (await s.seller.get('/api/search?q=1201')).json() as { units: { projectName: string }[] };
      expect(both.units.map((unit) => unit.projectName)).toEqual(['Bosque Alto', 'Parque Ñuñoa']);
      const storage = (await s.seller.get('/api/search?q=bod%20b-7')).json() as {
        units: { number: string }[];
      };
      expect(storage.units.map((unit) => unit.number)).toEqual(['B-7']);
      const none = (await s.seller.get('/api/search?q=parque')).json() as { units: unknown[] };
      expect(none.units).toEqual([]);
    });
  });

  describe('price lists', () => {
    it('shows the differences before applying, lists unknown units and applies nothing, keeps history', async () => {
      const s = await setup();
      await inventory(s);
      const extra = await addUnit(s.admin, s.project.id, { kind: 'apartment', number: '1302', floor: 13 });
      const base = `/api/stock/projects/${s.project.id}`;
      const list = {
        effectiveDate: '2026-12-01',
        rows: [
          { kind: 'apartment', number: '1201', price: '3250' },
          { kind: 'apartment', number: '1202', price: '2500.50' },
          { kind: 'apartment', number: '1302', price: '3400' },
          { kind: 'parking', number: 'e-12', price: '190' },
          { kind: 'apartment', number: '1301', price: '3000' },
        ],
      };
      const preview = await s.admin.post(`${base}/price-lists/preview`, list);
      expect(preview.statusCode, preview.body).toBe(200);
      const diff = (preview.json() as { diff: PriceListDiff }).diff;
      // Issue 57: the summary says which way prices go; the new unit's price is in the answer.
      expect(diff.summary).toBe('3 precios cambian (2 suben, 1 baja), 1 unidad nueva, 1 sin cambio');
      expect(diff.changes).toEqual([
        expect.objectContaining({ number: '1201', from: '3200.00', to: '3250.00' }),
        expect.objectContaining({ number: 'E-12', from: '180.00', to: '190.00' }),
        expect.objectContaining({ number: '1301', to: '3000.00' }),
      ]);
      expect(diff.newlyPriced).toEqual([expect.objectContaining({ unitId: extra.id, to: '3400.00' })]);
      expect(await tableCount(ctx.db, priceLists)).toBe(1);

      const unknown = await s.admin.post(`${base}/price-lists`, {
        ...list,
        rows: [
          ...list.rows,
          { kind: 'apartment', number: '9999', price: '1' },
          { kind: 'storage', number: 'B-99', price: '1' },
        ],
      });
      expect(unknown.statusCode).toBe(400);
      expect(errorOf(unknown).message).toBe(
        'La lista nombra unidades que el proyecto no tiene: Departamento 9999, Bodega B-99. No se aplicó ningún precio.',
      );
      const negative = await s.admin.post(`${base}/price-lists`, {
        ...list,
        rows: [{ kind: 'apartment', number: '1201', price: '-5' }],
      });
      expect(negative.statusCode).toBe(400);
      expect(await tableCount(ctx.db, priceLists)).toBe(1);

      const applied = await s.admin.post(`${base}/price-lists`, list);
      expect(applied.statusCode, applied.body).toBe(201);
      const again = await s.admin.post(`${base}/price-lists`, list);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).message).toBe(
        'Ya existe una lista de precios vigente desde el 01/12/2026: elija otra fecha',
      );

      // Today (2026-11-10) the November list is in force; December's is history waiting for its date.
      const history = (await s.seller.get(`${base}/price-lists`)).json() as {
        rows: { effectiveDate: string; isCurrent: boolean; isScheduled: boolean; priceCount: number }[];
      };
      expect(history.rows).toEqual([
        expect.objectContaining({
          effectiveDate: '2026-12-01',
          isCurrent: false,
          isScheduled: true,
          priceCount: 5,
        }),
        expect.objectContaining({
          effectiveDate: '2026-11-01',
          isCurrent: true,
          isScheduled: false,
          priceCount: 5,
        }),
      ]);
      expect(statusOf(await gridOf(s.seller, s.project.id), '1201')).toBe('Disponible');
      expect((await gridOf(s.seller, s.project.id)).units.find((u) => u.number === '1201')?.price).toBe(
        '3200.00',
      );
    });

    it('reads a CSV or Excel price list into rows, listing the lines it cannot read (administrators only)', async () => {
      const s = await setup();
      const url = `/api/stock/projects/${s.project.id}/price-lists/read`;
      const csv =
        'Tipo;Número;Precio\r\nDepartamento;1201;3.250,50\r\nEst;E-12;190\r\nCasa;9;1\r\nBodega;B-7;-5\r\n';
      const read = await s.admin.post(url, { contentBase64: Buffer.from(`\uFEFF${csv}`).toString('base64') });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toEqual({
        rows: [
          { kind: 'apartment', number: '1201', price: '3250.50' },
          { kind: 'parking', number: 'E-12', price: '190.00' },
        ],
        problems: [
          'Fila 4: tipo «Casa» desconocido (Departamento, Estacionamiento o Bodega)',
          'Fila 5: precio «-5» no válido',
        ],
      });
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Precios');
      sheet.addRow(['Precio', 'Tipo', 'Numero']);
      sheet.addRow([3300, 'Departamento', '1301']);
      const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
      const xlsx = await s.admin.post(url, { contentBase64: bytes.toString('base64') });
      expect(xlsx.json()).toEqual({
        rows: [{ kind: 'apartment', number: '1301', price: '3300.00' }],
        problems: [],
      });
      const denied = await s.seller.post(url, { contentBase64: bytes.toString('base64') });
      expect(denied.statusCode).toBe(403);
    });
  });

  describe('reservations holding units', () => {
    it('prefills prices from the list in force, follows the sale flow to Promesada and Escriturada, and a rescission frees the unit', async () => {
      const s = await setup();
      const { a1201, e12, b7 } = await inventory(s);
      // The project has an inventory: the free text is refused.
      const typed = await s.seller.post('/api/reservations', reservationBody(s, { apartmentNumber: '1201' }));
      expect(typed.statusCode).toBe(400);
      expect(errorOf(typed).fields?.apartmentUnitId).toBe(
        'Este proyecto tiene inventario: seleccione el departamento entre sus unidades',
      );

      const picker = (
        await s.seller.get(`/api/stock/projects/${s.project.id}/picker?kind=apartment&search=2d2b`)
      ).json() as {
        rows: { number: string; price: string }[];
      };
      expect(picker.rows.map((row) => [row.number, row.price])).toEqual([
        ['1201', '3200.00'],
        ['1301', '3300.00'],
      ]);
      const byFloor = (
        await s.seller.get(`/api/stock/projects/${s.project.id}/picker?kind=apartment&search=13`)
      ).json() as {
        rows: { number: string }[];
      };
      expect(byFloor.rows.map((row) => row.number)).toEqual(['1301']);

      const created = await s.seller.post(
        '/api/reservations',
        reservationBody(s, {
          apartmentUnitId: a1201.id,
          parkingUnitIds: [e12.id],
          storageUnitIds: [b7.id],
          // What the browser says is ignored: the list's prices are the reservation's.
          apartmentPrice: '1',
        }),
      );
      expect(created.statusCode, created.body).toBe(201);
      const reservation = (
        created.json() as { reservation: Record<string, unknown> & { id: string; reservationFlowId: string } }
      ).reservation;
      expect(reservation).toMatchObject({
        apartmentNumber: '1201',
        parkingNumber: 'E-12',
        storageNumber: 'B-7',
        apartmentPrice: '3200.00',
        parkingPrice: '180.00',
        storagePrice: '60.00',
        totalPrice: '3440.00',
      });
      expect(reservation.units).toEqual([
        expect.objectContaining({ number: '1201', price: '3200.00', priceListDate: '2026-11-01' }),
        expect.objectContaining({ number: 'E-12', price: '180.00' }),
        expect.objectContaining({ number: 'B-7', price: '60.00' }),
      ]);

      let grid = await gridOf(s.admin, s.project.id);
      expect(statusOf(grid, '1201')).toBe('Reservada');
      expect(statusOf(grid, 'E-12')).toBe('Reservada');
      expect(grid.units.find((u) => u.number === '1201')?.reservation).toEqual({
        id: reservation.id,
        reservationNumber: 'R-1',
        clientName: 'Juan Pérez',
        sellerName: 'Sara Vende',
        flowId: reservation.reservationFlowId,
      });
      // The picker offers only available units; a blocked or taken unit cannot be blocked/reserved.
      const left = (
        await s.seller.get(`/api/stock/projects/${s.project.id}/picker?kind=apartment`)
      ).json() as {
        rows: { number: string }[];
      };
      expect(left.rows.map((row) => row.number)).toEqual(['1202', '1301']);
      const blockTaken = await s.admin.post(`/api/stock/units/${a1201.id}/block`, {
        reason: 'x',
        version: 1,
      });
      expect(blockTaken.statusCode).toBe(409);
      expect(errorOf(blockTaken).message).toBe(
        'No se puede bloquear la unidad Departamento 1201: está tomada por la reserva N° R-1',
      );

      // The sale flow reaches the promise stage: Promesada; every task done: Escriturada.
      const flow = await FlowDriver.open(ctx.db, reservation.reservationFlowId);
      await flow.completeAll([
        'COF PENDIENTE GENERACIÓN',
        'COF PENDIENTE FIRMA',
        'SOLICITUD VB COF PENDIENTE',
      ]);
      grid = await gridOf(s.admin, s.project.id);
      expect(statusOf(grid, '1201')).toBe('Promesada');
      expect(grid.counts.byStatus.Promesada).toBe(3);
      await flow.completeAll(flow.taskNames());
      expect(statusOf(await gridOf(s.admin, s.project.id), '1201')).toBe('Escriturada');
      // Every status the view answers is one the screens know (the zod response refuses others).
      const viewStatuses = await queryRows<{ status: string }>(
        ctx.db,
        sql`select distinct status from unit_statuses`,
      );
      for (const row of viewStatuses) expect(UNIT_STATUSES).toContain(row.status);

      // A rescission frees its units.
      const rescinded = await s.admin.post(`/api/reservations/${reservation.id}/rescission`, {
        reason: 'Cliente desiste',
        confirmation: 'CONFIRMAR',
      });
      expect(rescinded.statusCode, rescinded.body).toBe(200);
      grid = await gridOf(s.admin, s.project.id);
      expect(statusOf(grid, '1201')).toBe('Disponible');
      expect(statusOf(grid, 'E-12')).toBe('Disponible');
      expect(grid.units.find((u) => u.number === '1201')?.reservation).toBeNull();
      // …and another reservation may take them.
      const again = await s.seller.post(
        '/api/reservations',
        reservationBody(s, { reservationNumber: 'R-2', apartmentUnitId: a1201.id }),
      );
      expect(again.statusCode, again.body).toBe(201);
    });

    it('reads a unit’s status from its stage’s data, not from the stage’s name (migration 0046)', async () => {
      const s = await setup();
      const { a1201 } = await inventory(s);
      const created = await s.seller.post(
        '/api/reservations',
        reservationBody(s, { apartmentUnitId: a1201.id }),
      );
      expect(created.statusCode, created.body).toBe(201);
      const { reservationFlowId } = (created.json() as { reservation: { reservationFlowId: string } })
        .reservation;
      const statusOf1201 = async () =>
        (
          await queryRows(
            ctx.db,
            sql`select status from unit_statuses where unit_id = ${a1201.id}`,
            z.object({ status: z.enum(UNIT_STATUSES) }),
          )
        )[0]?.status;

      // Every stage renamed: the statuses hold, as the stages' data says.
      await ctx.db.execute(sql`update workflow_stages set name = name || ' (renombrada)'`);
      expect(await statusOf1201()).toBe('Reservada');
      const flow = await FlowDriver.open(ctx.db, reservationFlowId);
      await flow.completeAll([
        'COF PENDIENTE GENERACIÓN',
        'COF PENDIENTE FIRMA',
        'SOLICITUD VB COF PENDIENTE',
      ]);
      expect(await statusOf1201()).toBe('Promesada');

      // The stage's data changed: the status follows it.
      await ctx.db.execute(
        sql`update workflow_stages set unit_status = 'Reservada' where name = 'Promesa (renombrada)'`,
      );
      expect(await statusOf1201()).toBe('Reservada');
    });

    it('lets exactly one of 20 concurrent reservations of one unit win; the others name the unit', async () => {
      const s = await setup();
      const { a1202 } = await inventory(s);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          s.seller.post(
            '/api/reservations',
            reservationBody(s, { reservationNumber: `C-${i}`, apartmentUnitId: a1202.id }),
          ),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
      const refused = responses.filter((r) => r.statusCode === 409);
      expect(refused).toHaveLength(19);
      for (const response of refused) {
        expect(errorOf(response).message).toMatch(
          /^(La unidad Departamento 1202 ya está reservada \(reserva N° C-\d+\); elija otra unidad|El departamento 1202 ya está reservado en este proyecto \(reserva C-\d+\))$/,
        );
      }
      const [row] = await ctx.db.select({ n: count() }).from(reservations);
      expect(row!.n).toBe(1);
      expect(await tableCount(ctx.db, reservationUnits)).toBe(1);
    });

    it('changing a reservation’s unit frees the old one; a new price list never alters it', async () => {
      const s = await setup();
      const { a1201, a1301 } = await inventory(s);
      const created = await s.seller.post(
        '/api/reservations',
        reservationBody(s, { apartmentUnitId: a1201.id }),
      );
      const reservation = (created.json() as { reservation: { id: string; version: number } }).reservation;

      // A new list from today: the reservation keeps 3200, the grid shows the new price.
      const list = await s.admin.post(`/api/stock/projects/${s.project.id}/price-lists`, {
        effectiveDate: '2026-11-10',
        rows: [
          { kind: 'apartment', number: '1201', price: '3500' },
          { kind: 'apartment', number: '1301', price: '3600' },
        ],
      });
      expect(list.statusCode, list.body).toBe(201);
      let view = (await s.seller.get(`/api/reservations/${reservation.id}`)).json() as {
        reservation: {
          apartmentPrice: string;
          version: number;
          units: { price: string; priceListDate: string }[];
        };
      };
      expect(view.reservation.apartmentPrice).toBe('3200.00');
      expect(view.reservation.units[0]).toMatchObject({ price: '3200.00', priceListDate: '2026-11-01' });
      // An edit that keeps the unit keeps its price.
      const kept = await s.seller.put(
        `/api/reservations/${reservation.id}`,
        reservationBody(s, {
          apartmentUnitId: a1201.id,
          reservationPayment: '25',
          version: view.reservation.version,
        }),
      );
      expect(kept.statusCode, kept.body).toBe(200);
      expect((kept.json() as { reservation: { apartmentPrice: string } }).reservation.apartmentPrice).toBe(
        '3200.00',
      );

      // Moving to 1301: it takes today's price, and 1201 is free again.
      view = (await s.seller.get(`/api/reservations/${reservation.id}`)).json() as typeof view;
      const moved = await s.seller.put(
        `/api/reservations/${reservation.id}`,
        reservationBody(s, { apartmentUnitId: a1301.id, version: view.reservation.version }),
      );
      expect(moved.statusCode, moved.body).toBe(200);
      expect(
        (moved.json() as { reservation: { apartmentNumber: string; apartmentPrice: string } }).reservation,
      ).toMatchObject({
        apartmentNumber: '1301',
        apartmentPrice: '3600.00',
      });
      const grid = await gridOf(s.admin, s.project.id);
      expect(statusOf(grid, '1201')).toBe('Disponible');
      expect(statusOf(grid, '1301')).toBe('Reservada');
      // A unit of another kind, or a blocked one, is refused.
      const wrongKind = await s.seller.post(
        '/api/reservations',
        reservationBody(s, { reservationNumber: 'R-9', apartmentUnitId: (await inventoryParking(s)).id }),
      );
      expect(wrongKind.statusCode).toBe(400);
      expect(errorOf(wrongKind).message).toBe('La unidad Estacionamiento E-12 no es un departamento');
    });
  });

  async function inventoryParking(s: Setup) {
    const grid = await gridOf(s.admin, s.project.id, '?kind=parking');
    return grid.units[0]!;
  }

  describe('commercial policy', () => {
    it('refuses a reservation beyond the policy; an administrator overrides it with a reason (audited)', async () => {
      const s = await setup();
      const { a1201, a1202 } = await inventory(s);
      const base = `/api/stock/projects/${s.project.id}`;
      const saved = await s.admin.put(`${base}/policy`, {
        reservationAmount: '20',
        maxColumnDiscount: '0.05',
        maxAdditionalDiscount: '0.02',
        maxOtherDiscount: null,
        maxSubsidyFraction: '0.1',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect((await s.seller.get(`${base}/policy`)).json()).toEqual({
        policy: {
          reservationAmount: '20.00',
          maxColumnDiscount: '0.050000',
          maxAdditionalDiscount: '0.020000',
          maxOtherDiscount: null,
          maxSubsidyFraction: '0.100000',
          version: 1,
        },
      });

      const beyond = reservationBody(s, {
        apartmentUnitId: a1201.id,
        columnDiscount: '0.08',
        subsidyPayment: '400',
      });
      const refused = await s.seller.post('/api/reservations', beyond);
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused).message).toBe(
        'La reserva excede la política comercial del proyecto: el descuento columna supera el máximo (5,00 %); el bono pie supera el máximo (10,00 % del precio lista, UF 320,00). Solo un administrador puede aprobarla, indicando el motivo.',
      );
      const sellerOverride = await s.seller.post('/api/reservations', {
        ...beyond,
        policyOverrideReason: 'Cliente frecuente',
      });
      expect(sellerOverride.statusCode).toBe(403);
      const [before] = await ctx.db.select({ n: count() }).from(reservations);
      expect(before!.n).toBe(0);

      const overridden = await s.admin.post('/api/reservations', {
        ...beyond,
        policyOverrideReason: 'Cliente frecuente',
      });
      expect(overridden.statusCode, overridden.body).toBe(201);
      const id = (overridden.json() as { reservation: { id: string; policyOverrideReason: string } })
        .reservation;
      expect(id.policyOverrideReason).toBe('Cliente frecuente');
      const [audited] = await ctx.db
        .select({ after: auditLog.after, actorId: auditLog.actorId })
        .from(auditLog)
        .where(
          sql`${auditLog.tableName} = 'reservations' and ${auditLog.recordId} = ${id.id} and ${auditLog.action} = 'insert'`,
        );
      expect(audited?.after).toMatchObject({
        policy_override_reason: 'Cliente frecuente',
        column_discount: '0.080000',
      });
      expect(audited?.actorId).toBe(s.admin.user!.id);

      // Within the policy, a seller reserves without anyone's leave.
      const within = await s.seller.post(
        '/api/reservations',
        reservationBody(s, { reservationNumber: 'R-2', apartmentUnitId: a1202.id, columnDiscount: '0.05' }),
      );
      expect(within.statusCode, within.body).toBe(201);
      const policyAudit = await ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.tableName, 'project_policies'));
      expect(policyAudit).toHaveLength(1);
      expect(policyAudit[0]!.rootId).toBe(s.project.id);
    });
  });

  it('keeps the free text for a project without an inventory', async () => {
    const s = await setup();
    const other = await createProject(ctx.db, { name: 'Sin Stock', stage: 'Etapa 1' });
    const response = await s.seller.post(
      '/api/reservations',
      reservationBody(s, { projectId: other.id, apartmentNumber: '55', apartmentPrice: '2000' }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(
      (response.json() as { reservation: { apartmentPrice: string; units: unknown[] } }).reservation,
    ).toMatchObject({
      apartmentPrice: '2000.00',
      units: [],
    });
  });
});
