import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { QuoteListResponse, QuoteView } from '../../../shared/schemas/quotes';
import type { ReservationView } from '../../../shared/schemas/reservations';
import { quotes, reservations } from '../../db/schema';
import { type Agent, errorOf, useTestApp } from '../../test/app';
import { createClient, seedUfValues, uniqueRut } from '../../test/builders';
import { addUnit, type StockScene, stockScene } from '../../test/stock-builders';

/** 12:00 on 10 November 2026 in Santiago (UTC−3 in summer). */
const START = new Date('2026-11-10T15:00:00Z');

describe('cotizaciones (issue 59)', () => {
  let now = START;
  const ctx = useTestApp({ now: () => now });

  async function scene() {
    now = START;
    const s = await stockScene(ctx);
    const a1201 = await addUnit(s.admin, s.project.id, { kind: 'apartment', number: '1201', floor: 12 });
    const a1202 = await addUnit(s.admin, s.project.id, { kind: 'apartment', number: '1202', floor: 12 });
    const e12 = await addUnit(s.admin, s.project.id, { kind: 'parking', number: 'E-12', floor: -1 });
    const b7 = await addUnit(s.admin, s.project.id, { kind: 'storage', number: 'B-7', floor: -1 });
    const applied = await s.admin.post(`/api/stock/projects/${s.project.id}/price-lists`, {
      effectiveDate: '2026-11-01',
      rows: [
        { kind: 'apartment', number: '1201', price: '3200' },
        { kind: 'apartment', number: '1202', price: '2500' },
        { kind: 'parking', number: 'E-12', price: '180' },
        { kind: 'storage', number: 'B-7', price: '60' },
      ],
    });
    expect(applied.statusCode, applied.body).toBe(201);
    await seedUfValues(ctx.db, {
      '2026-11-10': '39000.00',
      '2026-11-20': '39100.00',
      '2026-11-21': '39110.00',
    });
    return { ...s, a1201, a1202, e12, b7 };
  }
  type Scene = StockScene & Awaited<ReturnType<typeof scene>>;

  function quoteBody(s: Scene, overrides: Record<string, unknown> = {}) {
    return {
      projectId: s.project.id,
      prospectName: 'Ana Prospecto',
      prospectEmail: 'ana@example.cl',
      prospectPhone: '+56 9 1234 5678',
      apartmentUnitId: s.a1201.id,
      parkingUnitIds: [s.e12.id],
      storageUnitIds: [s.b7.id],
      columnDiscount: '0.05',
      reservationAmount: '20',
      downPaymentFraction: '0.2',
      installments: 12,
      ...overrides,
    };
  }

  async function quote(agent: Agent, body: Record<string, unknown>): Promise<QuoteView> {
    const response = await agent.post('/api/quotes', body);
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { quote: QuoteView }).quote;
  }

  async function quoteCount() {
    const [row] = await ctx.db.select({ n: count() }).from(quotes);
    return row!.n;
  }

  it('prices a quote from the list in force, with the plan in UF and in pesos, valid 10 days', async () => {
    const s = await scene();
    const made = await quote(s.seller, quoteBody(s));
    expect(made).toMatchObject({
      state: 'vigente',
      sellerName: 'Sara Vende',
      brokerId: null,
      quoteDate: '2026-11-10',
      validUntil: '2026-11-20',
      ufValue: '39000.00',
      priceListDate: '2026-11-01',
      apartmentPrice: '3200.00',
      parkingPrice: '180.00',
      storagePrice: '60.00',
      listPrice: '3440.00',
      // 3200 × 0.95 + 180 + 60
      finalPrice: '3280.00',
      reservationAmount: '20.00',
      downPayment: '656.00',
      creditAmount: '2624.00',
    });
    expect(made.installments).toEqual(Array(12).fill('53.0000'));
    expect(made.clp).toMatchObject({
      finalPrice: '127920000',
      reservation: '780000',
      installment: '2067000',
    });
    expect(made.units.map((unit) => `${unit.kind} ${unit.number} ${unit.price}`)).toEqual([
      'apartment 1201 3200.00',
      'parking E-12 180.00',
      'storage B-7 60.00',
    ]);
  });

  it('refuses discounts beyond the commercial policy, too many cuotas and a day without UF; nothing is stored', async () => {
    const s = await scene();
    const policy = await s.admin.put(`/api/stock/projects/${s.project.id}/policy`, {
      reservationAmount: null,
      maxColumnDiscount: '0.04',
      maxAdditionalDiscount: null,
      maxOtherDiscount: null,
      maxSubsidyFraction: null,
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const beyond = await s.seller.post('/api/quotes', quoteBody(s));
    expect(beyond.statusCode).toBe(400);
    expect(errorOf(beyond).message).toBe(
      'La cotización excede la política comercial del proyecto: el descuento columna supera el máximo (4,00 %).',
    );

    const tooMany = await s.seller.post(
      '/api/quotes',
      quoteBody(s, { columnDiscount: '0.04', installments: 13 }),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).message).toBe('En este proyecto el pie se paga en hasta 12 cuotas.');

    now = new Date('2026-11-12T15:00:00Z');
    const noUf = await s.seller.post('/api/quotes', quoteBody(s, { columnDiscount: '0.04' }));
    expect(noUf.statusCode).toBe(409);
    expect(errorOf(noUf).message).toBe(
      'No hay valor UF para hoy (12/11/2026): cárguelo en Configuración → Valores UF antes de cotizar.',
    );
    expect(await quoteCount()).toBe(0);
  });

  it('refuses a unit already reserved, and a reserva larger than the pie', async () => {
    const s = await scene();
    const first = await quote(s.seller, quoteBody(s));
    const reserved = await s.seller.post(`/api/quotes/${first.id}/reserve`, {
      reservationNumber: 'R-1',
      client: { rut: uniqueRut(), firstName: 'Ana', lastName: 'Prospecto', birthDate: '1990-05-01' },
    });
    expect(reserved.statusCode, reserved.body).toBe(201);
    const taken = await s.seller.post(
      '/api/quotes',
      quoteBody(s, { parkingUnitIds: [], storageUnitIds: [] }),
    );
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).message).toBe(
      'La unidad Departamento 1201 ya está reservada (reserva N° R-1); elija otra unidad',
    );
    const overPie = await s.seller.post(
      '/api/quotes',
      quoteBody(s, {
        apartmentUnitId: s.a1202.id,
        parkingUnitIds: [],
        storageUnitIds: [],
        reservationAmount: '600',
      }),
    );
    expect(overPie.statusCode).toBe(400);
    expect(errorOf(overPie).message).toBe('La reserva no puede ser mayor que el pie.');
  });

  it('per-project validity and cuotas: administrators set them (allow), a KAM may not (deny)', async () => {
    const s = await scene();
    const denied = await s.seller.put(`/api/quotes/settings/${s.project.id}`, {
      validityDays: 5,
      maxInstallments: 24,
    });
    expect(denied.statusCode).toBe(403);
    const saved = await s.admin.put(`/api/quotes/settings/${s.project.id}`, {
      validityDays: 5,
      maxInstallments: 24,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ validityDays: 5, maxInstallments: 24, version: 1 });
    const made = await quote(s.seller, quoteBody(s, { installments: 24 }));
    expect(made.validUntil).toBe('2026-11-15');
    expect(made.installments).toHaveLength(24);
    const stale = await s.admin.put(`/api/quotes/settings/${s.project.id}`, {
      validityDays: 7,
      maxInstallments: 24,
    });
    expect(stale.statusCode).toBe(409);
  });

  it('lists with search, filters and counts per state; expiry follows the Santiago calendar', async () => {
    const s = await scene();
    const ana = await quote(s.seller, quoteBody(s));
    await quote(
      s.admin,
      quoteBody(s, {
        prospectName: 'Bruno Díaz',
        prospectEmail: 'bruno@example.cl',
        apartmentUnitId: s.a1202.id,
        parkingUnitIds: [],
        storageUnitIds: [],
      }),
    );
    const list = async (query = '') => {
      const response = await s.seller.get(`/api/quotes${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as QuoteListResponse;
    };
    const all = await list();
    expect(all.rows.map((row) => row.prospectName)).toEqual(['Bruno Díaz', 'Ana Prospecto']);
    expect(all.counts).toEqual({ vigente: 2, vencida: 0, reservada: 0 });
    expect((await list('?search=diaz')).rows.map((row) => row.number)).toEqual([ana.number + 1]);
    expect((await list(`?sellerId=${s.seller.user!.id}`)).rows.map((row) => row.id)).toEqual([ana.id]);

    // 23:30 on 20 November in Santiago is 02:30 on the 21st in UTC: still the last valid day.
    now = new Date('2026-11-21T02:30:00Z');
    expect((await list()).counts).toEqual({ vigente: 2, vencida: 0, reservada: 0 });
    now = new Date('2026-11-21T04:00:00Z');
    const expired = await list('?state=vencida');
    expect(expired.counts).toEqual({ vigente: 0, vencida: 2, reservada: 0 });
    expect(expired.rows.map((row) => row.state)).toEqual(['vencida', 'vencida']);
    const bad = await s.seller.get('/api/quotes?state=nada');
    expect(bad.statusCode).toBe(400);
  });

  it('reserves in one click: the prospect becomes a client, the reservation copies units, prices and plan', async () => {
    const s = await scene();
    const made = await quote(s.seller, quoteBody(s, { prospectRut: '11.111.111-1' }));
    const response = await s.seller.post(`/api/quotes/${made.id}/reserve`, {
      reservationNumber: 'R-900',
      client: {
        rut: '11111111-1',
        firstName: 'Ana',
        lastName: 'Prospecto',
        birthDate: '1990-05-01',
        email: 'ana@example.cl',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { quote: after, reservationId } = response.json() as { quote: QuoteView; reservationId: string };
    expect(after).toMatchObject({ state: 'reservada', reservationNumber: 'R-900' });
    const reservation = (
      (await s.admin.get(`/api/reservations/${reservationId}`)).json() as { reservation: ReservationView }
    ).reservation;
    expect(reservation).toMatchObject({
      reservationNumber: 'R-900',
      projectId: s.project.id,
      sellerId: s.seller.user!.id,
      apartmentNumber: '1201',
      parkingNumber: 'E-12',
      storageNumber: 'B-7',
      apartmentPrice: '3200.00',
      minimumPrice: '3280.00',
      reservationPayment: '20.00',
      downPayment: '636.00',
      creditPayment: '2624.00',
      totalPayment: '3280.00',
    });
    const again = await s.seller.post(`/api/quotes/${made.id}/reserve`, { reservationNumber: 'R-901' });
    expect(errorOf(again).message).toBe('Esta cotización ya se reservó (reserva N° R-900).');
  });

  it("reserves a quote by staff who are not sellers with no seller; a seller stays the reservation's seller", async () => {
    const s = await scene();
    const byAdmin = await quote(s.admin, quoteBody(s, { prospectRut: null }));
    expect(byAdmin.sellerId).toBe(s.admin.user!.id);
    const response = await s.admin.post(`/api/quotes/${byAdmin.id}/reserve`, {
      reservationNumber: 'R-950',
      client: { rut: '22.222.222-2', firstName: 'Ana', lastName: 'Prospecto', birthDate: '1990-05-01' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { reservationId } = response.json() as { reservationId: string };
    const reservation = (
      (await s.admin.get(`/api/reservations/${reservationId}`)).json() as { reservation: ReservationView }
    ).reservation;
    expect(reservation).toMatchObject({ reservationNumber: 'R-950', sellerId: null });
  });

  it('matches the prospect to an existing client by RUT; asks for the client data when none matches', async () => {
    const s = await scene();
    const rut = uniqueRut();
    const existing = await createClient(ctx.db, { rut, firstName: 'Ana', lastName: 'Cliente' });
    const unknown = await quote(
      s.seller,
      quoteBody(s, { apartmentUnitId: s.a1202.id, parkingUnitIds: [], storageUnitIds: [] }),
    );
    const asked = await s.seller.post(`/api/quotes/${unknown.id}/reserve`, { reservationNumber: 'R-2' });
    expect(asked.statusCode).toBe(400);
    expect(errorOf(asked).message).toBe(
      'El prospecto aún no es cliente: ingrese su RUT, nombres, apellidos y fecha de nacimiento para reservar.',
    );
    const known = await quote(s.seller, quoteBody(s, { prospectRut: rut }));
    const response = await s.seller.post(`/api/quotes/${known.id}/reserve`, { reservationNumber: 'R-3' });
    expect(response.statusCode, response.body).toBe(201);
    const [row] = await ctx.db
      .select({ clientId: reservations.clientId })
      .from(reservations)
      .where(eq(reservations.reservationNumber, 'R-3'));
    expect(row!.clientId).toBe(existing.id);
  });

  it('refuses to reserve when a unit was taken meanwhile, the price list changed, or the quote expired; Recotizar prices anew', async () => {
    const s = await scene();
    const client = { rut: uniqueRut(), firstName: 'Ana', lastName: 'Prospecto', birthDate: '1990-05-01' };
    const first = await quote(s.seller, quoteBody(s));
    const second = await quote(s.seller, quoteBody(s));
    expect(
      (await s.seller.post(`/api/quotes/${first.id}/reserve`, { reservationNumber: 'R-10', client }))
        .statusCode,
    ).toBe(201);
    const taken = await s.seller.post(`/api/quotes/${second.id}/reserve`, {
      reservationNumber: 'R-11',
      client,
    });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).message).toBe(
      'La unidad Departamento 1201 ya no está disponible: use «Recotizar» para cotizar otra unidad.',
    );

    const other = await quote(
      s.seller,
      quoteBody(s, { apartmentUnitId: s.a1202.id, parkingUnitIds: [], storageUnitIds: [] }),
    );
    const newList = await s.admin.post(`/api/stock/projects/${s.project.id}/price-lists`, {
      effectiveDate: '2026-11-10',
      rows: [{ kind: 'apartment', number: '1202', price: '2600' }],
    });
    expect(newList.statusCode, newList.body).toBe(201);
    const changed = await s.seller.post(`/api/quotes/${other.id}/reserve`, {
      reservationNumber: 'R-12',
      client,
    });
    expect(changed.statusCode).toBe(409);
    expect(errorOf(changed).message).toBe(
      'La lista de precios cambió desde la cotización (Departamento 1202): use «Recotizar» para cotizar con los precios vigentes.',
    );
    const requoted = await s.seller.post(`/api/quotes/${other.id}/duplicate`);
    expect(requoted.statusCode, requoted.body).toBe(201);
    expect((requoted.json() as { quote: QuoteView }).quote).toMatchObject({
      apartmentPrice: '2600.00',
      state: 'vigente',
    });

    now = new Date('2026-11-21T15:00:00Z');
    const expired = await s.seller.post(
      `/api/quotes/${(requoted.json() as { quote: QuoteView }).quote.id}/reserve`,
      {
        reservationNumber: 'R-13',
        client,
      },
    );
    expect(expired.statusCode).toBe(409);
    expect(errorOf(expired).message).toBe(
      'La cotización venció el 20/11/2026: use «Recotizar» para cotizar con los precios vigentes.',
    );
    const [count10] = await ctx.db.select({ n: count() }).from(reservations);
    expect(count10!.n).toBe(1);
  });

  it('needs a session (deny), and answers 404 for an unknown quote', async () => {
    const s = await scene();
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/quotes' });
    expect(anonymous.statusCode).toBe(401);
    const missing = await s.seller.get('/api/quotes/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).message).toBe('La cotización no existe.');
  });
});
