import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rutCheckDigit } from '../../../shared/domain/rut';
import { santiagoDateOf } from '../../../shared/format';
import { USER_TYPES } from '../../../shared/permissions';
import { clientListQuery } from '../../../shared/schemas/clients';
import { queryRows } from '../../db/client';
import { clients, reservations } from '../../db/schema';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createClient, createReservation, loadInBulk, uniqueRut } from '../../test/builders';
import { listClientsSql } from './clients.queries';

const STALE = 'El registro fue modificado por otro usuario. Recargue la página.';
const RUT_TAKEN = 'Ya existe un cliente con este RUT';
const INVALID_RUT = 'El RUT no es válido (revise el dígito verificador)';

const valid = {
  rut: '12.345.678-5',
  firstName: 'Juan Carlos',
  lastName: 'Pérez Soto',
  birthDate: '1985-04-12',
  phone: '+56 9 1234 5678',
  email: 'Juan.Perez@Ejemplo.cl',
};

/** '12.345.678-5' spelling of a normalised RUT. */
function dotted(rut: string): string {
  const [body, digit] = rut.split('-');
  return `${body!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${digit}`;
}

async function clientCount(ctx: TestContext): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(clients);
  return row!.n;
}

async function rowOf(ctx: TestContext, id: string) {
  const [row] = await ctx.db.select().from(clients).where(eq(clients.id, id));
  return row!;
}

function tomorrow(): string {
  return santiagoDateOf(new Date(Date.now() + 36 * 3_600_000));
}

describe('clients: create and read', () => {
  const ctx = useTestApp();

  it('creates a client from a RUT with dots, stores it normalised, and takes created_by from the session', async () => {
    const agent = await loginAs(ctx, { userType: 'KAM' });
    const response = await agent.post('/api/clients', valid);
    expect(response.statusCode).toBe(201);
    const { client } = response.json();
    expect(client).toEqual({
      id: expect.any(String),
      rut: '12345678-5',
      firstName: 'Juan Carlos',
      lastName: 'Pérez Soto',
      birthDate: '1985-04-12',
      phone: '+56 9 1234 5678',
      email: 'juan.perez@ejemplo.cl',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      restriction: null,
      restrictionReason: null,
      updatedAt: expect.any(String),
      version: 1,
      // No block: the server would take an edit (issue 57).
      canEdit: true,
      editRefusal: null,
    });
    const row = await rowOf(ctx, client.id);
    expect(row).toMatchObject({ rut: '12345678-5', createdBy: agent.user!.id, updatedBy: agent.user!.id });

    const read = await agent.get(`/api/clients/${client.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ client });
  });

  it('accepts every well-formed RUT with its módulo-11 digit, including K, and leaves phone and e-mail optional', async () => {
    const agent = await loginAs(ctx);
    const cases = [
      ['11111111-1', '11111111-1'],
      ['5.126.663-3', '5126663-3'],
      ['10.000.013-K', '10000013-K'],
      ['10000013-k', null], // same RUT as above, lower-case k: normalised the same, so taken
      ['6-k', '6-K'],
      ['  28-0 ', '28-0'],
      ['123456785', '12345678-5'],
    ] as const;
    for (const [input, stored] of cases) {
      const response = await agent.post('/api/clients', { ...valid, rut: input, phone: '', email: null });
      if (stored === null) {
        expect(response.statusCode, input).toBe(409);
        continue;
      }
      expect(response.statusCode, input).toBe(201);
      expect(response.json().client).toMatchObject({ rut: stored, phone: null, email: null });
    }
    const { phone: _phone, email: _email, ...withoutOptional } = valid;
    const minimal = await agent.post('/api/clients', { ...withoutOptional, rut: uniqueRut() });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json().client).toMatchObject({ phone: null, email: null });
  });

  it('refuses each broken rule with its Spanish message on the field and writes nothing', async () => {
    const agent = await loginAs(ctx);
    const { email: _email, ...withoutEmail } = valid;
    const { rut: _rut, ...withoutRut } = valid;
    const { birthDate: _birthDate, ...withoutBirthDate } = valid;
    const wrongDigit = `12345678-${rutCheckDigit('12345678') === '9' ? '8' : '9'}`;
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['no RUT', withoutRut, 'rut', 'El RUT es obligatorio'],
      ['blank RUT', { ...valid, rut: '   ' }, 'rut', 'El RUT es obligatorio'],
      ['wrong check digit', { ...valid, rut: wrongDigit }, 'rut', INVALID_RUT],
      ['K where the digit is 5', { ...valid, rut: '12.345.678-K' }, 'rut', INVALID_RUT],
      ['digit where the digit is K', { ...valid, rut: '10.000.013-1' }, 'rut', INVALID_RUT],
      ['not a RUT', { ...valid, rut: 'abc-1' }, 'rut', INVALID_RUT],
      ['blank first name', { ...valid, firstName: ' ' }, 'firstName', 'Los nombres son obligatorios'],
      ['no last name', { ...valid, lastName: undefined }, 'lastName', 'Los apellidos son obligatorios'],
      ['no birth date', withoutBirthDate, 'birthDate', 'La fecha de nacimiento es obligatoria'],
      [
        'null birth date',
        { ...valid, birthDate: null },
        'birthDate',
        'La fecha de nacimiento es obligatoria',
      ],
      [
        'impossible date',
        { ...valid, birthDate: '1990-02-30' },
        'birthDate',
        'Ingrese una fecha de nacimiento válida',
      ],
      [
        'future birth date',
        { ...valid, birthDate: tomorrow() },
        'birthDate',
        'La fecha de nacimiento no puede ser posterior a hoy',
      ],
      ['bad e-mail', { ...withoutEmail, email: 'juan@' }, 'email', 'Ingrese un correo electrónico válido'],
    ];
    for (const [label, body, field, message] of cases) {
      const response = await agent.post('/api/clients', body);
      expect(response.statusCode, label).toBe(400);
      expect(errorOf(response).fields?.[field], label).toBe(message);
      expect(errorOf(response).message, label).toBe(message);
    }
    expect(await clientCount(ctx)).toBe(0);
  });

  it('refuses fields the client does not send (created_by is the session’s), writing nothing', async () => {
    const agent = await loginAs(ctx);
    const other = await loginAs(ctx);
    for (const extra of [
      { createdBy: other.user!.id },
      { updatedBy: other.user!.id },
      { id: other.user!.id },
    ]) {
      const response = await agent.post('/api/clients', { ...valid, ...extra });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION');
      expect(errorOf(response).message).toContain(Object.keys(extra)[0]);
    }
    expect(await clientCount(ctx)).toBe(0);
  });

  it('answers 404 for a client that does not exist', async () => {
    const agent = await loginAs(ctx);
    const response = await agent.get('/api/clients/00000000-0000-4000-8000-000000000000');
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toMatchObject({
      code: 'CLIENT_NOT_FOUND',
      message: 'El cliente no existe o fue eliminado.',
    });
  });
});

describe('clients: duplicate RUT', () => {
  const ctx = useTestApp();

  it('refuses a new client with the RUT of a live client, however it is written, and writes nothing', async () => {
    const agent = await loginAs(ctx);
    const existing = await createClient(ctx.db);
    for (const spelling of [existing.rut, dotted(existing.rut), existing.rut.replace('-', '')]) {
      const response = await agent.post('/api/clients', { ...valid, rut: spelling });
      expect(response.statusCode, spelling).toBe(409);
      expect(errorOf(response)).toEqual({
        code: 'CLIENT_RUT_TAKEN',
        message: RUT_TAKEN,
        fields: { rut: RUT_TAKEN },
      });
    }
    expect(await clientCount(ctx)).toBe(1);
  });

  it('frees the RUT of a deleted client', async () => {
    const agent = await loginAs(ctx);
    const deleted = await createClient(ctx.db, { deletedAt: new Date() });
    const response = await agent.post('/api/clients', { ...valid, rut: deleted.rut });
    expect(response.statusCode).toBe(201);
  });

  it('answers the same message when two saves of one RUT race (the unique index decides)', async () => {
    const agent = await loginAs(ctx);
    const rut = uniqueRut();
    const responses = await Promise.all([
      agent.post('/api/clients', { ...valid, rut }),
      agent.post('/api/clients', { ...valid, rut, firstName: 'Otro' }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const refused = responses.find((response) => response.statusCode === 409)!;
    expect(errorOf(refused)).toMatchObject({ code: 'CLIENT_RUT_TAKEN', fields: { rut: RUT_TAKEN } });
    expect(await clientCount(ctx)).toBe(1);
  });
});

describe('clients: edit', () => {
  const ctx = useTestApp();

  it('saves an edit that keeps the client’s own RUT; updated_by comes from the session and the version goes up', async () => {
    const creator = await loginAs(ctx);
    const editor = await loginAs(ctx, { userType: 'Operaciones' });
    const created = (await creator.post('/api/clients', valid)).json().client;

    const response = await editor.put(`/api/clients/${created.id}`, {
      ...valid,
      rut: '12345678-5',
      lastName: 'Pérez Rojas',
      email: '',
      version: 1,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().client).toMatchObject({
      rut: '12345678-5',
      lastName: 'Pérez Rojas',
      email: null,
      version: 2,
    });
    const row = await rowOf(ctx, created.id);
    expect(row).toMatchObject({ createdBy: creator.user!.id, updatedBy: editor.user!.id, version: 2 });
  });

  it('refuses an edit to the RUT of another live client and changes nothing', async () => {
    const agent = await loginAs(ctx);
    const other = await createClient(ctx.db);
    const mine = await createClient(ctx.db, { firstName: 'Ana' });
    const response = await agent.put(`/api/clients/${mine.id}`, {
      ...valid,
      rut: dotted(other.rut),
      firstName: 'Cambiado',
      version: 1,
    });
    expect(response.statusCode).toBe(409);
    expect(errorOf(response)).toMatchObject({
      code: 'CLIENT_RUT_TAKEN',
      message: RUT_TAKEN,
      fields: { rut: RUT_TAKEN },
    });
    expect(await rowOf(ctx, mine.id)).toMatchObject({ rut: mine.rut, firstName: 'Ana', version: 1 });
  });

  it('refuses a stale version with 409 and keeps the first save', async () => {
    const alice = await loginAs(ctx);
    const bob = await loginAs(ctx);
    const client = await createClient(ctx.db, { rut: '12345678-5' });

    const first = await alice.put(`/api/clients/${client.id}`, {
      ...valid,
      firstName: 'Primera',
      version: 1,
    });
    expect(first.statusCode).toBe(200);
    const second = await bob.put(`/api/clients/${client.id}`, { ...valid, firstName: 'Segunda', version: 1 });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second)).toMatchObject({ code: 'STALE_VERSION', message: STALE });
    expect(await rowOf(ctx, client.id)).toMatchObject({
      firstName: 'Primera',
      version: 2,
      updatedBy: alice.user!.id,
    });
  });

  it('validates an edit like a creation, requires the version, and answers 404 for a missing client', async () => {
    const agent = await loginAs(ctx);
    const client = await createClient(ctx.db);
    const noVersion = await agent.put(`/api/clients/${client.id}`, valid);
    expect(noVersion.statusCode).toBe(400);
    expect(errorOf(noVersion).fields).toHaveProperty('version');
    const badEmail = await agent.put(`/api/clients/${client.id}`, { ...valid, email: 'x', version: 1 });
    expect(errorOf(badEmail).fields?.email).toBe('Ingrese un correo electrónico válido');
    const extra = await agent.put(`/api/clients/${client.id}`, { ...valid, version: 1, deletedAt: null });
    expect(extra.statusCode).toBe(400);
    expect(await rowOf(ctx, client.id)).toMatchObject({ rut: client.rut, version: 1 });

    const missing = await agent.put('/api/clients/00000000-0000-4000-8000-000000000000', {
      ...valid,
      version: 1,
    });
    expect(missing.statusCode).toBe(404);
    const deleted = await createClient(ctx.db, { deletedAt: new Date() });
    expect((await agent.put(`/api/clients/${deleted.id}`, { ...valid, version: 1 })).statusCode).toBe(404);
  });
});

describe('clients: soft delete', () => {
  const ctx = useTestApp();

  it('lets an administrator delete a client: it stays in the table but is never listed or read again', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const client = await createClient(ctx.db, { firstName: 'Borrable' });
    const response = await admin.delete(`/api/clients/${client.id}`);
    expect(response.statusCode).toBe(204);

    const row = await rowOf(ctx, client.id);
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(row.deletedBy).toBe(admin.user!.id);
    expect((await admin.get(`/api/clients/${client.id}`)).statusCode).toBe(404);
    expect((await admin.get('/api/clients?search=borrable')).json()).toMatchObject({ rows: [], total: 0 });
    expect((await admin.delete(`/api/clients/${client.id}`)).statusCode).toBe(404);
  });

  it('refuses while the client has live reservations, naming them; rescinded ones do not hold it', async () => {
    const admin = await loginAs(ctx, { userType: 'Administrador' });
    const client = await createClient(ctx.db);
    const live = await createReservation(ctx.db, { clientId: client.id, reservationNumber: 'R-VIGENTE-1' });
    await createReservation(ctx.db, {
      clientId: client.id,
      reservationNumber: 'R-RESCILIADA',
      isRescinded: true,
    });
    const refused = await admin.delete(`/api/clients/${client.id}`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'CLIENT_HAS_LIVE_RESERVATIONS',
      message:
        'No se puede eliminar el cliente: tiene reservas vigentes (N° R-VIGENTE-1). Resciliarlas antes, o dejarlo como está.',
    });
    expect(await rowOf(ctx, client.id)).toMatchObject({ deletedAt: null, version: 1 });
    await ctx.db.update(reservations).set({ isRescinded: true }).where(eq(reservations.id, live.id));
    expect((await admin.delete(`/api/clients/${client.id}`)).statusCode).toBe(204);
  });

  it('refuses every other user type with 403 and deletes nothing', async () => {
    const client = await createClient(ctx.db);
    for (const userType of USER_TYPES.filter((type) => type !== 'Administrador')) {
      const agent: Agent = await loginAs(ctx, { userType });
      const response = await agent.delete(`/api/clients/${client.id}`);
      expect(response.statusCode, userType).toBe(403);
      expect(errorOf(response).code).toBe('FORBIDDEN');
    }
    expect(await rowOf(ctx, client.id)).toMatchObject({ deletedAt: null, version: 1 });
  });
});

describe('clients: list and search', () => {
  const ctx = useTestApp();

  it('lists live clients newest first, paginated with a total', async () => {
    const agent = await loginAs(ctx);
    const ids: string[] = [];
    for (let day = 1; day <= 7; day++) {
      ids.push((await createClient(ctx.db, { createdAt: new Date(Date.UTC(2026, 2, day)) })).id);
    }
    await createClient(ctx.db, { createdAt: new Date(Date.UTC(2026, 2, 9)), deletedAt: new Date() });
    const newestFirst = [...ids].reverse();

    const first = await agent.get('/api/clients?pageSize=5');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ total: 7, totalIsCapped: false });
    expect(first.json().rows.map((row: { id: string }) => row.id)).toEqual(newestFirst.slice(0, 5));
    expect(Object.keys(first.json().rows[0]).sort()).toEqual(
      [
        'birthDate',
        'createdAt',
        'email',
        'firstName',
        'id',
        'lastName',
        'phone',
        'restriction',
        'rut',
      ].sort(),
    );
    const second = await agent.get('/api/clients?page=2&pageSize=5');
    expect(second.json().rows.map((row: { id: string }) => row.id)).toEqual(newestFirst.slice(5));

    expect((await agent.get('/api/clients?pageSize=101')).statusCode).toBe(400);
    expect((await agent.get('/api/clients?orden=rut')).statusCode).toBe(400);
  });

  it('finds clients by partial RUT (with or without dots), partial name and full name, ignoring accents and case', async () => {
    const agent = await loginAs(ctx);
    const juan = await createClient(ctx.db, {
      rut: '12345678-5',
      firstName: 'Juan Carlos',
      lastName: 'Pérez Soto',
    });
    const maria = await createClient(ctx.db, {
      rut: '10000013-K',
      firstName: 'María José',
      lastName: 'Núñez',
    });
    await createClient(ctx.db, { rut: '11111111-1', firstName: 'Pedro', lastName: 'Juanes' });
    await createClient(ctx.db, {
      rut: '5126663-3',
      firstName: 'Juan',
      lastName: 'Pérez',
      deletedAt: new Date(),
    });

    const idsFor = async (search: string) => {
      const response = await agent.get(`/api/clients?search=${encodeURIComponent(search)}`);
      expect(response.statusCode, search).toBe(200);
      return response.json().rows.map((row: { id: string }) => row.id);
    };
    expect(await idsFor('12.345')).toEqual([juan.id]);
    expect(await idsFor('345678-5')).toEqual([juan.id]);
    expect(await idsFor('12.345.678-5')).toEqual([juan.id]);
    expect(await idsFor('10.000.013-k')).toEqual([maria.id]);
    // Without separators, as many type it or paste it from a spreadsheet.
    expect(await idsFor('123456785')).toEqual([juan.id]);
    expect(await idsFor('10000013K')).toEqual([maria.id]);
    expect(await idsFor('PÉRE')).toEqual([juan.id]);
    expect(await idsFor('nunez')).toEqual([maria.id]);
    expect(await idsFor('Juan Pérez')).toEqual([juan.id]);
    expect(await idsFor('  pérez   JUAN ')).toEqual([juan.id]);
    expect(await idsFor('maria jose nuñez')).toEqual([maria.id]);
    expect((await idsFor('juan')).length).toBe(2);
    expect(await idsFor('Juan Núñez')).toEqual([]);
    expect(await idsFor('%')).toEqual([]);
    expect(await idsFor('_')).toEqual([]);

    // The reservation screen's client-search step.
    const step = await agent.get('/api/clients?search=juan&pageSize=5');
    expect(step.json()).toMatchObject({ total: 2, totalIsCapped: false });
  });
});

describe('clients: orders', () => {
  const ctx = useTestApp();

  it('sorts by RUT and by full name both ways, newest first by default, and refuses other orders in Spanish', async () => {
    const agent = await loginAs(ctx);
    const carla = await createClient(ctx.db, {
      rut: '9000001-5',
      firstName: 'Carla',
      lastName: 'Araya',
      createdAt: new Date(Date.UTC(2026, 0, 1)),
    });
    const ana = await createClient(ctx.db, {
      rut: '10000005-0',
      firstName: 'Ana',
      lastName: 'Zamora',
      createdAt: new Date(Date.UTC(2026, 0, 2)),
    });
    const anaB = await createClient(ctx.db, {
      rut: '20000003-8',
      firstName: 'Ana',
      lastName: 'Bravo',
      createdAt: new Date(Date.UTC(2026, 0, 3)),
    });
    const ids = async (query: string) => {
      const response = await agent.get(`/api/clients?${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json().rows.map((row: { id: string }) => row.id);
    };
    expect(await ids('')).toEqual([anaB.id, ana.id, carla.id]);
    expect(await ids('sort=createdAt&direction=asc')).toEqual([carla.id, ana.id, anaB.id]);
    // In number order: 9.000.001 before 10.000.005 (as text it would come last).
    expect(await ids('sort=rut&direction=asc')).toEqual([carla.id, ana.id, anaB.id]);
    expect(await ids('sort=rut&direction=desc')).toEqual([anaB.id, ana.id, carla.id]);
    // First names, then last names.
    expect(await ids('sort=fullName&direction=asc')).toEqual([anaB.id, ana.id, carla.id]);
    expect(await ids('sort=fullName&direction=desc')).toEqual([carla.id, ana.id, anaB.id]);
    expect(await ids('sort=fullName&direction=asc&search=ana')).toEqual([anaB.id, ana.id]);
    expect(await ids('sort=fullName&direction=asc&pageSize=2&page=2')).toEqual([carla.id]);

    const refused = await agent.get('/api/clients?sort=email');
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toBe('Orden no válido: use createdAt, rut, fullName');
    expect(errorOf(await agent.get('/api/clients?direction=arriba')).message).toBe(
      'Dirección de orden no válida: use asc o desc',
    );
    expect(errorOf(await agent.get('/api/clients?pageSize=101')).message).toBe(
      'El tamaño de página debe ser un número entero entre 1 y 100',
    );
  });
});

describe('clients: search on 100,000 clients', () => {
  const ctx = useTestApp();

  it('runs the list search on the trigram index, not a sequential scan', async () => {
    await loadInBulk(
      ctx.db,
      ['clients'],
      [
        sql`
      insert into clients (rut, first_name, last_name, birth_date, created_at)
      select (10000000 + n)::text || '-' || (n % 10)::text,
             (array['Juan', 'María', 'Pedro', 'Ana', 'José', 'Camila'])[1 + n % 6] || ' ' || n::text,
             (array['Pérez', 'González', 'Muñoz', 'Rojas', 'Díaz', 'Soto', 'Silva'])[1 + n % 7] || ' ' || (n * 7)::text,
             date '1950-01-01' + (n % 20000),
             now() - make_interval(secs => n)
      from generate_series(1, 100000) as n`,
      ],
    );
    await ctx.db.execute(sql`analyze clients`);

    // What staff type to find someone: a full name, a partial RUT, a surname and part of a number.
    // (A fragment matching a large share of the table may rightly be read sequentially.)
    for (const search of ['Juan Pérez 4242', '10.042.17', 'gonzalez 2947']) {
      const plan = await queryRows<{ 'QUERY PLAN': string }>(
        ctx.db,
        sql`explain ${listClientsSql(clientListQuery.parse({ search }))}`,
      );
      const text = plan.map((line) => line['QUERY PLAN']).join('\n');
      expect(text, search).toContain('clients_search_trgm_idx');
      expect(text, search).not.toContain('Seq Scan on clients');
    }
    // Without a search, the newest page comes off the newest-first index, not a sort of every client.
    const plan = await queryRows<Record<string, string>>(
      ctx.db,
      sql`explain ${listClientsSql(clientListQuery.parse({}))}`,
    );
    const text = plan.map((row) => Object.values(row)[0]).join('\n');
    expect(text).toContain('clients_newest_idx');
    // So does every other order, off its own index.
    for (const [query, index] of [
      [{ sort: 'createdAt', direction: 'asc' }, 'clients_newest_idx'],
      [{ sort: 'rut', direction: 'asc' }, 'clients_rut_order_idx'],
      [{ sort: 'rut', direction: 'desc' }, 'clients_rut_order_idx'],
      [{ sort: 'fullName', direction: 'asc' }, 'clients_name_idx'],
      [{ sort: 'fullName', direction: 'desc' }, 'clients_name_idx'],
    ] as const) {
      const sortedPlan = await queryRows<Record<string, string>>(
        ctx.db,
        sql`explain ${listClientsSql(clientListQuery.parse(query))}`,
      );
      const sortedText = sortedPlan.map((row) => Object.values(row)[0]).join('\n');
      expect(sortedText, JSON.stringify(query)).toMatch(new RegExp(`Index Scan( Backward)? using ${index}`));
      expect(sortedText, JSON.stringify(query)).not.toMatch(/Sort Key: clients/);
    }
  }, 120_000);
});
