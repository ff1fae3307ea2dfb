import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rutCheckDigit } from '../../../shared/domain/rut';
import { clients } from '../../db/schema';
import { Agent, loginAs, useTestApp } from '../../test/app';
import { createClient, createProject, createReservation } from '../../test/builders';
import { createSaleFlow } from '../../test/flow-builders';

type Hit = { id: string; reservationFlowId: string | null };
const ids = (hits: Hit[]) => hits.map((hit) => hit.id).sort();

describe('GET /api/search', () => {
  const ctx = useTestApp();

  it('finds clients word by word, ignoring accents and case, and carries the flow to open', async () => {
    const agent = await loginAs(ctx);
    const juanCarlos = await createClient(ctx.db, {
      firstName: 'Juan Carlos',
      lastName: 'Pérez Soto',
      rut: '12345678-5',
      email: 'jc@correo.cl',
    });
    const juan = await createClient(ctx.db, { firstName: 'JUAN', lastName: 'PEREZ' });
    const mariaJose = await createClient(ctx.db, { firstName: 'María José', lastName: 'Juanes Pérez' });
    await createClient(ctx.db, { firstName: 'Juan', lastName: 'Soto' }); // no "Pérez"
    const deleted = await createClient(ctx.db, { firstName: 'Juan', lastName: 'Pérez Borrado' });
    await ctx.db.update(clients).set({ deletedAt: new Date() }).where(eq(clients.id, deleted.id));

    // Juan Carlos: an older reservation with a flow, a newer one with a flow, the newest without.
    const project = await createProject(ctx.db);
    const older = await createReservation(ctx.db, {
      clientId: juanCarlos.id,
      projectId: project.id,
      reservationDate: '2025-01-10',
    });
    const newer = await createReservation(ctx.db, {
      clientId: juanCarlos.id,
      projectId: project.id,
      reservationDate: '2025-06-10',
    });
    await createReservation(ctx.db, {
      clientId: juanCarlos.id,
      projectId: project.id,
      reservationDate: '2025-09-01',
    });
    await createSaleFlow(ctx.db, { reservationId: older.id });
    const newerFlow = await createSaleFlow(ctx.db, { reservationId: newer.id });

    const response = await agent.get(`/api/search?q=${encodeURIComponent('  juan PÉREZ ')}`);
    expect(response.statusCode).toBe(200);
    const found = response.json().clients as Hit[];
    expect(ids(found)).toEqual([juanCarlos.id, juan.id, mariaJose.id].sort());
    expect(found.find((hit) => hit.id === juanCarlos.id)).toEqual({
      id: juanCarlos.id,
      rut: '12345678-5',
      firstName: 'Juan Carlos',
      lastName: 'Pérez Soto',
      email: 'jc@correo.cl',
      reservationFlowId: newerFlow.id,
    });
    expect(found.find((hit) => hit.id === juan.id)?.reservationFlowId).toBeNull();

    // A RUT typed with dots matches the normalised one.
    const byRut = (await agent.get('/api/search?q=12.345.678')).json();
    expect(ids(byRut.clients)).toEqual([juanCarlos.id]);

    // Five per type at most.
    for (let i = 0; i < 6; i++) await createClient(ctx.db, { firstName: `Cliente ${i}`, lastName: 'Pérez' });
    expect((await agent.get('/api/search?q=perez')).json().clients).toHaveLength(5);
  });

  it('finds reservations by number and by apartment, exact match first, five at most', async () => {
    const agent = await loginAs(ctx);
    const project = await createProject(ctx.db, { name: 'Edificio Alameda', stage: 'Etapa 2' });
    // A RUT of its own: a random one may hold '204', and the client would rightly match below.
    const client = await createClient(ctx.db, {
      firstName: 'Rosa',
      lastName: 'Díaz',
      rut: `13579135-${rutCheckDigit('13579135')}`,
    });
    const reserve = (reservationNumber: string, apartmentNumber: string, reservationDate = '2026-01-10') =>
      createReservation(ctx.db, {
        reservationNumber,
        apartmentNumber,
        reservationDate,
        projectId: project.id,
        clientId: client.id,
      });
    const first = await reserve('RES-2026-0010', '1204');
    const exact = await reserve('RES-2026-001', '204', '2025-05-01');
    for (let i = 2; i <= 7; i++) await reserve(`RES-2026-00${i}`, `30${i}`);
    const withFlow = await createSaleFlow(ctx.db, { reservationId: first.id });

    const byNumber = (await agent.get('/api/search?q=res-2026-001')).json().reservationsByNumber;
    expect(byNumber.map((hit: { id: string }) => hit.id)).toEqual([exact.id, first.id]);
    expect(byNumber[1]).toEqual({
      id: first.id,
      reservationNumber: 'RES-2026-0010',
      apartmentNumber: '1204',
      projectName: 'Edificio Alameda',
      projectStage: 'Etapa 2',
      clientName: 'Rosa Díaz',
      isRescinded: false,
      reservationFlowId: withFlow.id,
    });
    expect(byNumber[0].reservationFlowId).toBeNull();
    expect((await agent.get('/api/search?q=RES-2026')).json().reservationsByNumber).toHaveLength(5);

    // '204' is the whole apartment number of one and part of the other: exact first.
    const byApartment = (await agent.get('/api/search?q=204')).json();
    expect(byApartment.reservationsByApartment.map((hit: { id: string }) => hit.id)).toEqual([
      exact.id,
      first.id,
    ]);
    expect(byApartment.reservationsByNumber).toEqual([]);
    expect(byApartment.clients).toEqual([]);
  });

  it('searches any character literally and needs three characters and a session', async () => {
    const agent = await loginAs(ctx);
    const ohiggins = await createClient(ctx.db, { firstName: 'Bernardo', lastName: "O'Higgins (Sur), 100%" });
    await createClient(ctx.db, { firstName: 'Bernardo', lastName: 'Ohiggins Sur 1000' });
    const percent = await createReservation(ctx.db, { reservationNumber: 'OC-50%', apartmentNumber: 'A_1' });
    await createReservation(ctx.db, { reservationNumber: 'OC-500', apartmentNumber: 'AB1' });
    const search = async (q: string) => (await agent.get(`/api/search?q=${encodeURIComponent(q)}`)).json();

    expect(ids((await search("o'higgins (sur),")).clients)).toEqual([ohiggins.id]);
    expect(ids((await search('100%')).clients)).toEqual([ohiggins.id]);
    expect(ids((await search('50%')).reservationsByNumber)).toEqual([percent.id]);
    expect(ids((await search('a_1')).reservationsByApartment)).toEqual([percent.id]);
    // Wildcards alone match nothing: they are not wildcards.
    expect(await search('%%%')).toEqual({
      clients: [],
      reservationsByNumber: [],
      reservationsByApartment: [],
      units: [],
    });
    expect(await search('___')).toEqual({
      clients: [],
      reservationsByNumber: [],
      reservationsByApartment: [],
      units: [],
    });
    expect(await search("')\\")).toEqual({
      clients: [],
      reservationsByNumber: [],
      reservationsByApartment: [],
      units: [],
    });

    // Two characters (after trimming) give nothing, though they would match.
    expect(await search('  OC ')).toEqual({
      clients: [],
      reservationsByNumber: [],
      reservationsByApartment: [],
      units: [],
    });
    expect((await search('OC-')).reservationsByNumber).toHaveLength(2);
    expect(await search('')).toEqual({
      clients: [],
      reservationsByNumber: [],
      reservationsByApartment: [],
      units: [],
    });
    expect((await agent.get('/api/search')).statusCode).toBe(200);
    expect((await agent.get(`/api/search?q=${'x'.repeat(101)}`)).statusCode).toBe(400);

    expect((await new Agent(ctx.app).get('/api/search?q=bernardo')).statusCode).toBe(401);
  });
});
