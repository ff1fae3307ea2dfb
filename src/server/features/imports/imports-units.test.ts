import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import type { UnitView } from '../../../shared/schemas/stock';
import type { ServiceContext } from '../../context';
import { actingAs } from '../../db/actor';
import { queryRows } from '../../db/client';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import {
  createClient,
  createProject,
  createReservation,
  createUser,
  PLAIN_RESERVATION_TERMS,
} from '../../test/builders';
import { openEventStream } from '../../test/event-stream';
import {
  applyAndWait,
  dataOf,
  dotted,
  rowFor,
  tableSnapshot,
  templateHeaders,
  upload,
  uploadAndCheck,
  workbook,
} from '../../test/imports';
import { addUnit, gridOf } from '../../test/stock-builders';
import * as imports from './imports.service';

/** The app's clock: noon on 20 March 2027 in Santiago (the day an imported price list takes). */
const NOW = new Date('2027-03-20T15:00:00Z');
/** The set-up happens the day before (the audit log dates it by the app's clock, and undo reads it). */
const SET_UP = new Date('2027-03-19T15:00:00Z');
let clock = NOW;

/** Every table a units or reservations import may touch, compared row by row before and after. */
const TABLES = [
  'units',
  'price_lists',
  'price_list_items',
  'reservations',
  'reservation_units',
  'broker_commissions',
  'flows',
  'flow_tasks',
  'flow_task_assignees',
  'task_inbox',
  'dashboard_counts',
] as const;

const snapshot = (ctx: TestContext) => tableSnapshot(ctx, TABLES);

async function priceList(admin: Agent, projectId: string, effectiveDate: string, rows: unknown[]) {
  const response = await admin.post(`/api/stock/projects/${projectId}/price-lists`, { effectiveDate, rows });
  expect(response.statusCode, response.body).toBe(201);
}

/** A reservation as the form sends it for a project with an inventory (its unit chosen). */
function formReservation(values: Record<string, unknown>) {
  return { ...PLAIN_RESERVATION_TERMS, ...values };
}

const reasonsOf = (errors: { rowNumber: number; column: string; value: string; reason: string }[]) =>
  errors.map((error) => `${error.rowNumber} ${error.column} [${error.value}]: ${error.reason}`);

describe('imports: Unidades y precios (decision 0041)', { timeout: 180_000 }, () => {
  const ctx = useTestApp({ now: () => clock });
  const streams: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  it('round trip: template → filled → dry run → apply (a new price list) → the same file changes nothing → undo restores exactly', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    clock = SET_UP;
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const project = await createProject(ctx.db, { name: 'Parque Ñuñoa' });
    const a1201 = await addUnit(admin, project.id, {
      kind: 'apartment',
      number: '1201',
      floor: 12,
      typology: '2D2B',
      usableArea: '54.20',
    });
    await addUnit(admin, project.id, { kind: 'apartment', number: '1202', floor: 12, typology: '1D1B' });
    await priceList(admin, project.id, '2026-11-01', [
      { kind: 'apartment', number: '1201', price: '3200' },
      { kind: 'apartment', number: '1202', price: '2500.5' },
    ]);
    const before = await snapshot(ctx);
    clock = NOW;

    // The template: Spanish headers, an example row, the kinds of unit as an Excel list.
    const headers = await templateHeaders(admin, 'units');
    expect(headers).toEqual([
      'Proyecto',
      'Tipo de unidad',
      'Número',
      'Piso',
      'Edificio / Torre',
      'Tipología',
      'Orientación',
      'm² útiles',
      'm² terraza',
      'm² totales',
      'Precio lista UF',
      'Precio vigente desde',
    ]);
    const templateBook = new ExcelJS.Workbook();
    await templateBook.xlsx.load((await admin.get('/api/imports/templates/units')).rawPayload as never);
    const templateSheet = templateBook.worksheets[0]!;
    expect(templateSheet.name).toBe('Unidades y precios');
    expect(templateSheet.getCell('B2').value).toBe('Departamento');
    expect(templateSheet.getCell('B3').dataValidation).toMatchObject({
      type: 'list',
      formulae: ['"Departamento,Estacionamiento,Bodega"'],
    });
    // Administrators only, as every import.
    expect((await upload(kam, 'units', 'u.xlsx', Buffer.from('x'))).statusCode).toBe(403);
    expect((await kam.get('/api/imports/templates/units')).statusCode).toBe(403);

    const rows = [
      // 1201: its typology and its price change.
      {
        Proyecto: 'parque ñuñoa',
        'Tipo de unidad': 'Departamento',
        Número: '1201',
        Piso: '12',
        Tipología: '2D1B',
        'm² útiles': '54,2',
        'Precio lista UF': '3.300,00',
      },
      // 1202: as it is.
      {
        Proyecto: 'Parque Ñuñoa',
        'Tipo de unidad': 'departamento',
        Número: '1202',
        Piso: 12,
        Tipología: '1D1B',
        'Precio lista UF': '2500,50',
      },
      {
        Proyecto: 'Parque Ñuñoa',
        'Tipo de unidad': 'Departamento',
        Número: '1301',
        Piso: 13,
        'Edificio / Torre': 'Torre A',
        Tipología: '3D2B',
        Orientación: 'Norte',
        'm² útiles': '70,10',
        'm² terraza': '9',
        'm² totales': '79,10',
        'Precio lista UF': '4.100',
      },
      {
        Proyecto: 'Parque Ñuñoa',
        'Tipo de unidad': 'Estacionamiento',
        Número: 'E-1',
        Piso: '-1',
        'Precio lista UF': 180,
      },
      { Proyecto: 'Parque Ñuñoa', 'Tipo de unidad': 'Bodega', Número: 'B-1', Piso: '-1' },
    ];
    const bytes = await workbook([headers, ...rows.map((values) => rowFor(headers, values))]);
    const { file, dry } = await uploadAndCheck(admin, 'units', 'unidades.xlsx', bytes);
    expect(dry.errors).toEqual([]);
    expect(dry.summary).toBe('3 nuevos, 1 actualizados, 1 sin cambios, 0 con errores');
    expect(await snapshot(ctx)).toEqual(before);

    const sellerTab = await openEventStream(ctx.app, kam.cookie);
    streams.push(sellerTab);
    await sellerTab.next('ready');
    const run = await applyAndWait(admin, file.runId, file.mapping);
    expect(run.status).toBe('applied');
    expect(run.counts).toEqual({ created: 3, updated: 1, unchanged: 1, errors: 0 });
    // Every open Disponibilidad of the project hears it.
    expect((await sellerTab.next('stock-changed')).data).toEqual({ projectId: project.id });

    const stored = await queryRows<Record<string, unknown>>(
      ctx.db,
      sql`select kind, number, floor, building, typology, orientation, usable_area, terrace_area, total_area, version
          from units order by kind, number`,
    );
    expect(stored).toEqual([
      {
        kind: 'apartment',
        number: '1201',
        floor: 12,
        building: null,
        typology: '2D1B',
        orientation: null,
        usable_area: '54.20',
        terrace_area: null,
        total_area: null,
        version: 2,
      },
      {
        kind: 'apartment',
        number: '1202',
        floor: 12,
        building: null,
        typology: '1D1B',
        orientation: null,
        usable_area: null,
        terrace_area: null,
        total_area: null,
        version: 1,
      },
      {
        kind: 'apartment',
        number: '1301',
        floor: 13,
        building: 'Torre A',
        typology: '3D2B',
        orientation: 'Norte',
        usable_area: '70.10',
        terrace_area: '9.00',
        total_area: '79.10',
        version: 1,
      },
      {
        kind: 'parking',
        number: 'E-1',
        floor: -1,
        building: null,
        typology: null,
        orientation: null,
        usable_area: null,
        terrace_area: null,
        total_area: null,
        version: 1,
      },
      {
        kind: 'storage',
        number: 'B-1',
        floor: -1,
        building: null,
        typology: null,
        orientation: null,
        usable_area: null,
        terrace_area: null,
        total_area: null,
        version: 1,
      },
    ]);
    // The prices: one new list from the import's day naming the prices that changed; the old one kept.
    const lists = await queryRows<{
      effective_date: string;
      price_count: number;
      note: string | null;
      prices: string;
    }>(
      ctx.db,
      sql`select l.effective_date, l.price_count, l.note,
                 string_agg(u.number || '=' || i.price::text, ' ' order by u.number) as prices
          from price_lists l join price_list_items i on i.price_list_id = l.id join units u on u.id = i.unit_id
          group by l.id order by l.effective_date`,
    );
    expect(lists).toEqual([
      { effective_date: '2026-11-01', price_count: 2, note: null, prices: '1201=3200.00 1202=2500.50' },
      {
        effective_date: '2027-03-20',
        price_count: 3,
        note: 'Importada desde Excel (Unidades y precios)',
        prices: '1201=3300.00 1301=4100.00 E-1=180.00',
      },
    ]);
    const prices = Object.fromEntries(
      (await gridOf(admin, project.id)).units.map((unit) => [unit.number, unit.price]),
    );
    expect(prices).toEqual({
      '1201': '3300.00',
      '1202': '2500.50',
      '1301': '4100.00',
      'E-1': '180.00',
      'B-1': null,
    });
    // In the audit log, tied to the run: the units created and updated, and the price list.
    const audited = await queryRows<{ table_name: string; action: string; n: number }>(
      ctx.db,
      sql`select table_name, action, count(*)::int as n from audit_log where request_id = ${file.runId}
          and table_name in ('units', 'price_lists') group by 1, 2 order by 1, 2`,
    );
    expect(audited).toEqual([
      { table_name: 'price_lists', action: 'insert', n: 1 },
      { table_name: 'units', action: 'insert', n: 3 },
      { table_name: 'units', action: 'update', n: 1 },
    ]);

    const after = await snapshot(ctx);
    const again = await uploadAndCheck(admin, 'units', 'unidades.xlsx', bytes);
    expect(again.dry.summary).toBe('0 nuevos, 0 actualizados, 5 sin cambios, 0 con errores');
    await applyAndWait(admin, again.file.runId, again.file.mapping);
    expect(await snapshot(ctx)).toEqual(after);

    const undone = await admin.post(`/api/imports/runs/${file.runId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    // The data as it was; the unit the import updated as a new version (never backwards).
    expect(dataOf(await snapshot(ctx))).toEqual(dataOf(before));
    expect((await sellerTab.next('stock-changed')).data).toEqual({ projectId: project.id });
    const [restored] = await queryRows<{ version: number; typology: string }>(
      ctx.db,
      sql`select version, typology from units where id = ${a1201.id}`,
    );
    // Its typology back, as a new version: 1 → 2 by the import, 2 → 3 by the undo (never backwards).
    expect(restored).toEqual({ version: 3, typology: '2D2B' });
  });

  it('says why a unit row cannot be imported, with the stock forms’ messages, writing nothing', async () => {
    clock = NOW;
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db, { name: 'Parque Ñuñoa' });
    await addUnit(admin, project.id, { kind: 'apartment', number: '1201' });
    await priceList(admin, project.id, '2026-11-01', [{ kind: 'apartment', number: '1201', price: '3200' }]);
    const before = await snapshot(ctx);
    const csv = [
      'Proyecto;Tipo de unidad;Número;Piso;m² útiles;Precio lista UF;Precio vigente desde',
      'Parque Ñuñoa;Departamento;101;1;-5;3000;',
      'Parque Ñuñoa;Departamento;102;1;50;-10;',
      'Parque Ñuñoa;Departamento;103;1;50;3000;',
      'Parque Ñuñoa;departamento;103;2;50;3000;',
      'Torre Sur;Departamento;104;1;50;3000;',
      'Parque Ñuñoa;Casa;105;1;50;3000;',
      'Parque Ñuñoa;Bodega;B-1;alto;;;',
      'Parque Ñuñoa;Departamento;1201;12;;3500;01/11/2026',
      'Parque Ñuñoa;Estacionamiento;103;-1;;150;',
    ].join('\n');
    const { file, dry } = await uploadAndCheck(admin, 'units', 'unidades.csv', Buffer.from(csv));
    // Rows 4 and 5 name one unit with other values: the first is kept, the second names it.
    expect(dry.summary).toBe('2 nuevos, 0 actualizados, 0 sin cambios, 7 con errores');
    expect(reasonsOf(dry.errors)).toEqual([
      '2 m² útiles [-5]: Ingrese los m² útiles válidos (mayor o igual a 0, con hasta 2 decimales)',
      '3 Precio lista UF [-10]: Ingrese un precio válido en UF (mayor o igual a 0, con hasta 2 decimales)',
      '5 Número [Departamento 103 (Parque Ñuñoa)]: Número repetido en 1 fila (la primera es la 4)',
      '6 Proyecto [Torre Sur]: No hay un proyecto con este nombre',
      '7 Tipo de unidad [Casa]: Use uno de estos valores: Departamento, Estacionamiento, Bodega',
      '8 Piso [alto]: Ingrese un piso válido (número entero entre -10 y 200)',
      '9 Precio vigente desde [01/11/2026]: Ya existe una lista de precios vigente desde el 01/11/2026: elija otra fecha',
    ]);
    const refused = await admin.post(`/api/imports/runs/${file.runId}/apply`, { mapping: file.mapping });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).code).toBe('IMPORT_HAS_ERRORS');
    expect(await snapshot(ctx)).toEqual(before);
    // Only the valid rows: the first apartment 103 and the parking 103 (a number may repeat across
    // kinds), priced from today.
    const run = await applyAndWait(admin, file.runId, file.mapping, { onlyValidRows: true });
    expect(run.counts).toEqual({ created: 2, updated: 0, unchanged: 0, errors: 7 });
    const units = await queryRows<{ kind: string; number: string }>(
      ctx.db,
      sql`select kind, number from units order by kind, number`,
    );
    expect(units).toEqual([
      { kind: 'apartment', number: '103' },
      { kind: 'apartment', number: '1201' },
      { kind: 'parking', number: '103' },
    ]);
  });

  it('an apply failing before its price lists are written leaves no unit and no list', async () => {
    clock = NOW;
    const admin = await loginAs(ctx);
    const project = await createProject(ctx.db, { name: 'Parque Ñuñoa' });
    const before = await snapshot(ctx);
    const lines = ['Proyecto;Tipo de unidad;Número;Precio lista UF'];
    for (let n = 0; n < 250; n++) lines.push(`Parque Ñuñoa;Departamento;${1000 + n};3000`);
    const { file, dry } = await uploadAndCheck(admin, 'units', 'u.csv', Buffer.from(lines.join('\n')));
    expect(dry.summary).toBe('250 nuevos, 0 actualizados, 0 sin cambios, 0 con errores');
    const told: unknown[] = [];
    await imports.startApply(
      {
        db: actingAs(ctx.appDb, { userId: admin.user!.id }),
        user: admin.user! as unknown as ServiceContext['user'],
        now: NOW,
        events: ctx.app.dependencies.events,
      },
      file.runId,
      { mapping: file.mapping, onlyValidRows: false },
      {
        // Chunks 0 and 1 are the 250 units; 2 is the last step, the project's new price list.
        beforeChunk: (index) => {
          if (index === 2) throw new Error('fallo inyectado');
        },
        onFailure: (error) => told.push(error),
      },
    );
    expect((await imports.settled(file.runId))?.status).toBe('failed');
    expect(told.map((error) => (error as Error).message)).toEqual(['fallo inyectado']);
    expect(await snapshot(ctx)).toEqual(before);
    expect((await gridOf(admin, project.id)).units).toEqual([]);
  });
});

describe('imports: reservations hold their units and follow the commercial policy (decision 0041)', {
  timeout: 180_000,
}, () => {
  const ctx = useTestApp({ now: () => clock });

  it('resolves units by number, holds them as the form does, refuses taken, blocked, unknown and doubly claimed units and a policy breach without a reason; the reason overrides (audited); re-apply changes nothing; undo restores', async () => {
    clock = SET_UP;
    const admin = await loginAs(ctx);
    const seller = await createUser(ctx.db, { isSeller: true, email: 'vera@inmoflujo.test' });
    const project = await createProject(ctx.db, { name: 'Parque Ñuñoa' });
    await createProject(ctx.db, { name: 'Sin Stock' });
    const client = await createClient(ctx.db);
    const units: Record<string, UnitView> = {};
    for (const number of ['1201', '1202', '1301', '1401', '1402', '1501']) {
      units[number] = await addUnit(admin, project.id, { kind: 'apartment', number });
    }
    units['E-12'] = await addUnit(admin, project.id, { kind: 'parking', number: 'E-12' });
    await priceList(admin, project.id, '2027-01-01', [
      ...['1201', '1202', '1301', '1401', '1402', '1501'].map((number) => ({
        kind: 'apartment',
        number,
        price: '3200',
      })),
      { kind: 'parking', number: 'E-12', price: '180' },
    ]);
    const policy = await admin.put(`/api/stock/projects/${project.id}/policy`, {
      reservationAmount: '20',
      maxColumnDiscount: '0.05',
      maxAdditionalDiscount: null,
      maxOtherDiscount: null,
      maxSubsidyFraction: null,
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const blocked = await admin.post(`/api/stock/units/${units['1301']!.id}/block`, {
      reason: 'Piloto de ventas',
      version: units['1301']!.version,
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    // 1202 is already held by a reservation made on the form.
    const held = await admin.post(
      '/api/reservations',
      formReservation({
        reservationNumber: 'R-OLD',
        clientId: client.id,
        projectId: project.id,
        sellerId: seller.id,
        reservationDate: '2027-03-10',
        apartmentUnitId: units['1202']!.id,
      }),
    );
    expect(held.statusCode, held.body).toBe(201);
    // A reservation typed before the project had an inventory: its free text names no unit.
    await createReservation(ctx.db, {
      reservationNumber: 'R-TXT',
      clientId: client.id,
      projectId: project.id,
      reservationDate: '2027-03-01',
      apartmentNumber: '9000',
    });
    const before = await snapshot(ctx);
    clock = NOW;

    const rut = dotted(client.rut);
    const csv = [
      'N° Reserva;RUT Cliente;Proyecto;Fecha reserva;Departamento;Estacionamiento;Precio departamento;Precio estacionamiento;Descuento columna;Pago reserva;Motivo excepción política',
      `IMP-1;${rut};Parque Ñuñoa;10/03/2027;1201;e-12;3200;180;5%;20;`,
      `IMP-2;${rut};Parque Ñuñoa;10/03/2027;1202;;3200;;0%;20;`,
      `IMP-3;${rut};Parque Ñuñoa;10/03/2027;9999;;3200;;0%;20;`,
      `IMP-4;${rut};Parque Ñuñoa;10/03/2027;1301;;3200;;0%;20;`,
      `IMP-5;${rut};Parque Ñuñoa;10/03/2027;1401;;3200;;8%;20;`,
      `IMP-6;${rut};Parque Ñuñoa;10/03/2027;1402;;3100;;8%;20;Cliente frecuente`,
      `IMP-7;${rut};Parque Ñuñoa;10/03/2027;1501;;3200;;0%;20;`,
      `IMP-8;${rut};Parque Ñuñoa;10/03/2027;1501;;3200;;0%;20;`,
      `IMP-9;${rut};Sin Stock;10/03/2027;55;;2000;;8%;20;`,
    ].join('\n');
    const { file, dry } = await uploadAndCheck(admin, 'reservations', 'reservas.csv', Buffer.from(csv));
    expect(reasonsOf(dry.errors)).toEqual([
      '3 Departamento [1202]: La unidad Departamento 1202 ya está reservada (reserva N° R-OLD); elija otra unidad',
      '4 Departamento [9999]: El proyecto no tiene el departamento 9999: impórtelo primero en Unidades y precios',
      '5 Departamento [1301]: La unidad Departamento 1301 está bloqueada: Piloto de ventas',
      '6 Motivo excepción política []: La reserva excede la política comercial del proyecto: el descuento columna supera el máximo (5,00 %). Solo un administrador puede aprobarla, indicando el motivo.',
      '8 Departamento [1501]: Lo toman 2 filas de este archivo (esta es la primera)',
      '9 Departamento [1501]: Lo toman 2 filas de este archivo (la primera es la 8)',
    ]);
    expect(dry.summary).toBe('3 nuevos, 0 actualizados, 0 sin cambios, 6 con errores');
    const run = await applyAndWait(admin, file.runId, file.mapping, { onlyValidRows: true });
    expect(run.counts).toEqual({ created: 3, updated: 0, unchanged: 0, errors: 6 });

    // The units are held as the form holds them: the file's price, the list named when it is its price.
    const holding = await queryRows<{
      reservation: string;
      number: string;
      price: string;
      from_list: boolean;
      is_live: boolean;
    }>(
      ctx.db,
      sql`select r.reservation_number as reservation, u.number, ru.price::text as price,
                 ru.price_list_id is not null as from_list, ru.is_live
          from reservation_units ru join reservations r on r.id = ru.reservation_id join units u on u.id = ru.unit_id
          order by 1, 2`,
    );
    expect(holding).toEqual([
      { reservation: 'IMP-1', number: '1201', price: '3200.00', from_list: true, is_live: true },
      { reservation: 'IMP-1', number: 'E-12', price: '180.00', from_list: true, is_live: true },
      { reservation: 'IMP-6', number: '1402', price: '3100.00', from_list: false, is_live: true },
      { reservation: 'R-OLD', number: '1202', price: '3200.00', from_list: true, is_live: true },
    ]);
    const statuses = Object.fromEntries(
      (await gridOf(admin, project.id)).units.map((unit) => [unit.number, unit.status]),
    );
    expect(statuses).toMatchObject({
      '1201': 'Reservada',
      'E-12': 'Reservada',
      '1402': 'Reservada',
      '1501': 'Disponible',
    });
    // The override is the administrator's, with its reason, in the reservation's audit trail tied to the run.
    const [override] = await queryRows<{ reason: string; actor_id: string; request_id: string }>(
      ctx.db,
      sql`select a.after->>'policy_override_reason' as reason, a.actor_id, a.request_id from audit_log a
          join reservations r on r.id::text = a.record_id
          where a.table_name = 'reservations' and a.action = 'insert' and r.reservation_number = 'IMP-6'`,
    );
    expect(override).toEqual({
      reason: 'Cliente frecuente',
      actor_id: admin.user!.id,
      request_id: file.runId,
    });
    const free = await queryRows<{
      number: string;
      apartment_number: string;
      policy_override_reason: string | null;
    }>(
      ctx.db,
      sql`select reservation_number as number, apartment_number, policy_override_reason from reservations
          where reservation_number in ('IMP-1', 'IMP-9') order by 1`,
    );
    // A project without an inventory keeps the free text (and has no policy).
    expect(free).toEqual([
      { number: 'IMP-1', apartment_number: '1201', policy_override_reason: null },
      { number: 'IMP-9', apartment_number: '55', policy_override_reason: null },
    ]);
    // The database's one live reservation per unit holds for the form after the import too.
    const taken = await admin.post(
      '/api/reservations',
      formReservation({
        reservationNumber: 'R-NEW',
        clientId: client.id,
        projectId: project.id,
        sellerId: seller.id,
        reservationDate: '2027-03-20',
        apartmentUnitId: units['1201']!.id,
      }),
    );
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).message).toBe(
      'La unidad Departamento 1201 ya está reservada (reserva N° IMP-1); elija otra unidad',
    );

    const after = await snapshot(ctx);
    const again = await uploadAndCheck(admin, 'reservations', 'reservas.csv', Buffer.from(csv));
    expect(again.dry.summary).toBe('0 nuevos, 0 actualizados, 3 sin cambios, 6 con errores');
    await applyAndWait(admin, again.file.runId, again.file.mapping, { onlyValidRows: true });
    expect(await snapshot(ctx)).toEqual(after);

    // An existing reservation's units are changed on its form, not by a file.
    const moved = await uploadAndCheck(
      admin,
      'reservations',
      'movida.csv',
      Buffer.from(
        [
          'N° Reserva;RUT Cliente;Proyecto;Fecha reserva;Departamento;Estacionamiento;Precio departamento;Precio estacionamiento;Descuento columna;Pago reserva',
          `IMP-1;${rut};Parque Ñuñoa;10/03/2027;1501;E-12;3200;180;5%;20`,
          `R-TXT;${rut};Parque Ñuñoa;01/03/2027;9000;;3100;;5%;20`,
        ].join('\n'),
      ),
    );
    expect(reasonsOf(moved.dry.errors)).toEqual([
      '2 Departamento [1501]: Las unidades de una reserva existente se cambian en su ficha',
    ]);
    // …and the one typed before the inventory keeps its free text, as on its form.
    expect(moved.dry.summary).toBe('0 nuevos, 1 actualizados, 0 sin cambios, 1 con errores');

    expect((await admin.post(`/api/imports/runs/${file.runId}/undo`)).statusCode).toBe(200);
    expect(await snapshot(ctx)).toEqual(before);
  });

  it('undo refuses, naming the unit, when a reservation it did not import holds a unit it created', async () => {
    clock = NOW;
    const admin = await loginAs(ctx);
    const seller = await createUser(ctx.db, { isSeller: true });
    const project = await createProject(ctx.db, { name: 'Parque Ñuñoa' });
    const client = await createClient(ctx.db);
    const csv = ['Proyecto;Tipo de unidad;Número;Precio lista UF', 'Parque Ñuñoa;Departamento;701;2900'].join(
      '\n',
    );
    const { file } = await uploadAndCheck(admin, 'units', 'u.csv', Buffer.from(csv));
    expect((await applyAndWait(admin, file.runId, file.mapping)).status).toBe('applied');
    const unit = (await gridOf(admin, project.id)).units[0]!;
    const reserved = await admin.post(
      '/api/reservations',
      formReservation({
        reservationNumber: 'R-1',
        clientId: client.id,
        projectId: project.id,
        sellerId: seller.id,
        reservationDate: '2027-03-20',
        apartmentUnitId: unit.id,
      }),
    );
    expect(reserved.statusCode, reserved.body).toBe(201);
    const refused = await admin.post(`/api/imports/runs/${file.runId}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain('Departamento 701');
    expect(errorOf(refused).message).toContain('Lista de precios del 20/03/2027');
    expect(await queryRows(ctx.db, sql`select 1 from units`)).toHaveLength(1);
  });
});
