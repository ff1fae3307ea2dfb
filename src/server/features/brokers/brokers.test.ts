import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { brokers } from '../../db/schema';
import { errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createBroker, uniqueRut } from '../../test/builders';

const STALE = 'El registro fue modificado por otro usuario. Recargue la página.';
const RUT_TAKEN = 'Ya existe un broker con este RUT';

const valid = {
  rut: '76.543.210-3',
  name: 'Propiedades Andinas',
  businessName: 'Inversiones Andinas SpA',
  constitutionDate: '2012-05-20',
  constitutionNotary: 'Notaría Eduardo Avello',
  legalRepresentative: 'Rodrigo Fuentes',
  legalRepresentativeRut: '12.345.678-5',
  commercialAddress: 'Av. Providencia 1234, of. 501',
  commercialAddressCommune: 'Providencia',
  commercialContactName: 'Paula Vidal',
  commercialContactPhone: '+56 2 2345 6789',
  commercialContactEmail: 'Paula.Vidal@Andinas.cl',
  operationsContactName: 'Óscar Lagos',
  operationsContactPhone: '+56 9 8765 4321',
  operationsContactEmail: 'operaciones@andinas.cl',
  financeContactName: 'Fernanda Ruiz',
  financeContactPhone: '+56 9 1111 2222',
  financeContactEmail: 'finanzas@andinas.cl',
  kamName: 'Karla Mendoza',
  kamPhone: '+56 9 3333 4444',
  kamEmail: 'kam@andinas.cl',
  kamReceivesCommission: true,
  bankName: 'Banco de Chile',
  bankAccountType: 'Cuenta Corriente',
  bankAccountNumber: '001234567',
  bankHolderName: 'Inversiones Andinas SpA',
  bankHolderRut: '76543210-3',
  paymentEmail: 'pagos@andinas.cl',
};

async function brokerCount(ctx: TestContext): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(brokers);
  return row!.n;
}

async function rowOf(ctx: TestContext, id: string) {
  const [row] = await ctx.db.select().from(brokers).where(eq(brokers.id, id));
  return row!;
}

describe('brokers: create and read', () => {
  const ctx = useTestApp();

  it('creates a broker with every field, both RUTs normalised, created_by from the session', async () => {
    const agent = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const response = await agent.post('/api/brokers', valid);
    expect(response.statusCode).toBe(201);
    const { broker } = response.json();
    expect(broker).toEqual({
      ...valid,
      id: expect.any(String),
      rut: '76543210-3',
      legalRepresentativeRut: '12345678-5',
      commercialContactEmail: 'paula.vidal@andinas.cl',
      // Bank data given by the payments team waits for a second person (issue 53).
      bankStatus: 'unverified',
      bankChangedByName: expect.any(String),
      bankChangedAt: expect.any(String),
      bankVerifiedByName: null,
      bankVerifiedAt: null,
      canChangeBank: true,
      canVerifyBank: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await rowOf(ctx, broker.id)).toMatchObject({
      createdBy: agent.user!.id,
      updatedBy: agent.user!.id,
    });
    const read = await agent.get(`/api/brokers/${broker.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ broker });
    expect(read.json().broker).not.toHaveProperty('searchText');
  });

  it('leaves every contact field optional, and the KAM commission flag off unless set', async () => {
    const agent = await loginAs(ctx);
    const optional = [
      'commercialContactPhone',
      'commercialContactEmail',
      'operationsContactName',
      'operationsContactPhone',
      'operationsContactEmail',
      'financeContactName',
      'financeContactPhone',
      'financeContactEmail',
      'kamPhone',
      'kamEmail',
      'kamReceivesCommission',
      'bankName',
      'bankAccountType',
      'bankAccountNumber',
      'bankHolderName',
      'bankHolderRut',
      'paymentEmail',
    ];
    const minimal = Object.fromEntries(Object.entries(valid).filter(([key]) => !optional.includes(key)));
    const response = await agent.post('/api/brokers', minimal);
    expect(response.statusCode).toBe(201);
    expect(response.json().broker).toMatchObject({
      bankName: null,
      bankStatus: 'none',
      bankAccountType: null,
      bankAccountNumber: null,
      paymentEmail: null,
      operationsContactName: null,
      financeContactEmail: null,
      kamEmail: null,
      kamReceivesCommission: false,
    });
    const blanks = await agent.post('/api/brokers', {
      ...valid,
      rut: uniqueRut(),
      kamEmail: '',
      operationsContactPhone: '  ',
    });
    expect(blanks.statusCode).toBe(201);
    expect(blanks.json().broker).toMatchObject({ kamEmail: null, operationsContactPhone: null });
  });

  it('refuses each missing required field with its own message and writes nothing', async () => {
    const agent = await loginAs(ctx);
    const required: [keyof typeof valid, string][] = [
      ['rut', 'El RUT es obligatorio'],
      ['name', 'El nombre del broker es obligatorio'],
      ['businessName', 'La razón social es obligatoria'],
      ['constitutionDate', 'La fecha de constitución es obligatoria'],
      ['constitutionNotary', 'La notaría de constitución es obligatoria'],
      ['legalRepresentative', 'El nombre del representante legal es obligatorio'],
      ['legalRepresentativeRut', 'El RUT del representante legal es obligatorio'],
      ['commercialAddress', 'La dirección comercial es obligatoria'],
      ['commercialAddressCommune', 'La comuna es obligatoria'],
      ['commercialContactName', 'El nombre del contacto comercial es obligatorio'],
      ['kamName', 'El nombre del KAM es obligatorio'],
    ];
    for (const [field, message] of required) {
      for (const empty of ['', '   ', undefined]) {
        const response = await agent.post('/api/brokers', { ...valid, [field]: empty });
        expect(response.statusCode, `${field}=${empty}`).toBe(400);
        expect(errorOf(response).fields?.[field], `${field}=${empty}`).toBe(message);
      }
    }
    // All at once: every message comes back, each on its field.
    const blank = Object.fromEntries(required.map(([field]) => [field, '']));
    const everything = await agent.post('/api/brokers', { ...valid, ...blank });
    expect(errorOf(everything).fields).toEqual(Object.fromEntries(required));
    expect(await brokerCount(ctx)).toBe(0);
  });

  it('refuses a wrong check digit on either RUT, a bad date and any malformed e-mail, writing nothing', async () => {
    const agent = await loginAs(ctx);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ rut: '76.543.210-K' }, 'rut', 'El RUT no es válido (revise el dígito verificador)'],
      [
        { legalRepresentativeRut: '12.345.678-9' },
        'legalRepresentativeRut',
        'El RUT del representante legal no es válido (revise el dígito verificador)',
      ],
      [{ constitutionDate: '2012-13-01' }, 'constitutionDate', 'Ingrese una fecha de constitución válida'],
      [
        { commercialContactEmail: 'paula@' },
        'commercialContactEmail',
        'Ingrese un correo electrónico válido',
      ],
      [{ operationsContactEmail: 'ops' }, 'operationsContactEmail', 'Ingrese un correo electrónico válido'],
      [{ financeContactEmail: 'a b@c.cl' }, 'financeContactEmail', 'Ingrese un correo electrónico válido'],
      [{ kamEmail: 'kam@andinas' }, 'kamEmail', 'Ingrese un correo electrónico válido'],
      [{ kamReceivesCommission: 'si' }, 'kamReceivesCommission', 'Indique si el KAM recibe comisión'],
      [{ createdBy: '00000000-0000-4000-8000-000000000000' }, 'createdBy', 'Campo no permitido: createdBy'],
    ];
    for (const [change, field, message] of cases) {
      const response = await agent.post('/api/brokers', { ...valid, ...change });
      expect(response.statusCode, field).toBe(400);
      expect(errorOf(response).fields?.[field], field).toContain(message);
    }
    expect(await brokerCount(ctx)).toBe(0);
  });

  it('accepts a RUT with a K check digit, written with or without dots', async () => {
    const agent = await loginAs(ctx);
    const response = await agent.post('/api/brokers', {
      ...valid,
      rut: '10.000.013-k',
      legalRepresentativeRut: '6K',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().broker).toMatchObject({ rut: '10000013-K', legalRepresentativeRut: '6-K' });
  });
});

describe('brokers: duplicate RUT and edits', () => {
  const ctx = useTestApp();

  it('refuses a second broker with the same RUT, however it is written', async () => {
    const agent = await loginAs(ctx);
    const existing = await createBroker(ctx.db, { rut: '76543210-3' });
    for (const spelling of ['76.543.210-3', '765432103']) {
      const response = await agent.post('/api/brokers', { ...valid, rut: spelling });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response)).toEqual({
        code: 'BROKER_RUT_TAKEN',
        message: RUT_TAKEN,
        fields: { rut: RUT_TAKEN },
      });
    }
    expect(await brokerCount(ctx)).toBe(1);
    expect((await rowOf(ctx, existing.id)).name).toBe(existing.name);
  });

  it('saves an edit that keeps its own RUT, refuses another broker’s RUT, and refuses a stale version', async () => {
    const creator = await loginAs(ctx);
    const editor = await loginAs(ctx, { userType: 'Supervisor' });
    const broker = (await creator.post('/api/brokers', valid)).json().broker;
    const other = await createBroker(ctx.db);

    const saved = await editor.put(`/api/brokers/${broker.id}`, {
      ...valid,
      name: 'Andinas Propiedades',
      kamReceivesCommission: false,
      version: 1,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().broker).toMatchObject({
      name: 'Andinas Propiedades',
      kamReceivesCommission: false,
      version: 2,
    });
    expect(await rowOf(ctx, broker.id)).toMatchObject({
      createdBy: creator.user!.id,
      updatedBy: editor.user!.id,
    });

    const taken = await editor.put(`/api/brokers/${broker.id}`, { ...valid, rut: other.rut, version: 2 });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toMatchObject({ code: 'BROKER_RUT_TAKEN', fields: { rut: RUT_TAKEN } });

    const stale = await creator.put(`/api/brokers/${broker.id}`, { ...valid, name: 'Viejo', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toMatchObject({ code: 'STALE_VERSION', message: STALE });
    expect(await rowOf(ctx, broker.id)).toMatchObject({
      name: 'Andinas Propiedades',
      rut: '76543210-3',
      version: 2,
    });

    const invalid = await editor.put(`/api/brokers/${broker.id}`, { ...valid, kamName: '', version: 2 });
    expect(errorOf(invalid).fields?.kamName).toBe('El nombre del KAM es obligatorio');
    const missing = await editor.put('/api/brokers/00000000-0000-4000-8000-000000000000', {
      ...valid,
      version: 1,
    });
    expect(missing.statusCode).toBe(404);
    expect((await editor.get('/api/brokers/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('brokers: list and search', () => {
  const ctx = useTestApp();

  it('lists by name and finds a broker by partial name, RUT or business name, ignoring accents and case', async () => {
    const agent = await loginAs(ctx);
    const andes = await createBroker(ctx.db, {
      name: 'Ñandú Propiedades',
      businessName: 'Corredora Los Andes Limitada',
      rut: '76543210-3',
      kamName: 'Karla',
      kamReceivesCommission: true,
    });
    const beta = await createBroker(ctx.db, {
      name: 'Beta Corredores',
      businessName: 'Beta SpA',
      rut: '77111222-5',
    });
    const alfa = await createBroker(ctx.db, { name: 'Alfa Brokers', businessName: 'Alfa y Asociados SA' });

    const all = await agent.get('/api/brokers');
    expect(all.statusCode).toBe(200);
    expect(all.json().rows.map((row: { id: string }) => row.id)).toEqual([alfa.id, beta.id, andes.id]);
    expect(all.json().rows[2]).toEqual({
      id: andes.id,
      rut: '76543210-3',
      name: 'Ñandú Propiedades',
      businessName: 'Corredora Los Andes Limitada',
      kamName: 'Karla',
      kamReceivesCommission: true,
    });

    const idsFor = async (search: string) =>
      (await agent.get(`/api/brokers?search=${encodeURIComponent(search)}&pageSize=20`))
        .json()
        .rows.map((row: { id: string }) => row.id);
    expect(await idsFor('nandu')).toEqual([andes.id]);
    expect(await idsFor('los andes')).toEqual([andes.id]);
    expect(await idsFor('76.543')).toEqual([andes.id]);
    expect(await idsFor('111222-5')).toEqual([beta.id]);
    expect(await idsFor('771112225')).toEqual([beta.id]);
    expect(await idsFor('spa')).toEqual([beta.id]);
    expect(await idsFor('CORREDOR')).toEqual([beta.id, andes.id]);
    expect(await idsFor('alfa asociados')).toEqual([alfa.id]);
    expect(await idsFor('gamma')).toEqual([]);
    expect((await agent.get('/api/brokers?pageSize=2')).json()).toMatchObject({
      total: 3,
      totalIsCapped: false,
    });
  });
});

describe('brokers: orders and KAM filters', () => {
  const ctx = useTestApp();

  it('sorts by name, RUT, razón social and KAM both ways, filters by KAM and lists the KAM names', async () => {
    const agent = await loginAs(ctx);
    const sur = await createBroker(ctx.db, {
      name: 'Sur Propiedades',
      rut: '9500000-1',
      businessName: 'Alfa Sur SpA',
      kamName: 'Karla Mendoza',
      kamReceivesCommission: true,
    });
    const norte = await createBroker(ctx.db, {
      name: 'Norte Corredores',
      rut: '76000000-2',
      businessName: 'Zeta Norte Ltda',
      kamName: 'Bruno Soto',
    });
    const centro = await createBroker(ctx.db, {
      name: 'Centro Brokers',
      rut: '12000000-3',
      businessName: 'Media Centro SA',
      kamName: 'Karla Mendoza',
    });
    const ids = async (query: string) => {
      const response = await agent.get(`/api/brokers?${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json().rows.map((row: { id: string }) => row.id);
    };
    expect(await ids('')).toEqual([centro.id, norte.id, sur.id]);
    expect(await ids('sort=name&direction=desc')).toEqual([sur.id, norte.id, centro.id]);
    // In number order: 9.500.000 before 12.000.000.
    expect(await ids('sort=rut&direction=asc')).toEqual([sur.id, centro.id, norte.id]);
    expect(await ids('sort=rut&direction=desc')).toEqual([norte.id, centro.id, sur.id]);
    expect(await ids('sort=businessName&direction=asc')).toEqual([sur.id, centro.id, norte.id]);
    expect(await ids('sort=businessName&direction=desc')).toEqual([norte.id, centro.id, sur.id]);
    // By KAM, each KAM's brokers by name.
    expect(await ids('sort=kamName&direction=asc')).toEqual([norte.id, centro.id, sur.id]);
    expect(await ids('sort=kamName&direction=desc')).toEqual([sur.id, centro.id, norte.id]);

    expect(await ids(`kam=${encodeURIComponent('Karla Mendoza')}`)).toEqual([centro.id, sur.id]);
    expect(await ids('kam=Karla')).toEqual([]);
    expect(await ids('kamReceivesCommission=yes')).toEqual([sur.id]);
    expect(await ids('kamReceivesCommission=no')).toEqual([centro.id, norte.id]);
    expect(await ids(`kam=${encodeURIComponent('Karla Mendoza')}&kamReceivesCommission=no`)).toEqual([
      centro.id,
    ]);
    expect(await ids('kamReceivesCommission=all&search=norte')).toEqual([norte.id]);

    const kams = await agent.get('/api/brokers/kams');
    expect(kams.statusCode).toBe(200);
    expect(kams.json()).toEqual({ kams: ['Bruno Soto', 'Karla Mendoza'] });
  });

  it('refuses an unknown order or filter value with a Spanish message', async () => {
    const agent = await loginAs(ctx, { userType: 'KAM' });
    const refusal = async (query: string) => {
      const response = await agent.get(`/api/brokers?${query}`);
      expect(response.statusCode, query).toBe(400);
      return errorOf(response).message;
    };
    expect(await refusal('sort=kamEmail')).toBe('Orden no válido: use name, rut, businessName, kamName');
    expect(await refusal('direction=abajo')).toBe('Dirección de orden no válida: use asc o desc');
    expect(await refusal('kamReceivesCommission=si')).toBe(
      'Filtro de comisión KAM no válido: use all, yes o no',
    );
    expect(await refusal('kam=')).toBe('Indique el KAM');
    expect(await refusal('page=-1')).toBe('La página debe ser un número entero mayor o igual a 1');
  });
});
