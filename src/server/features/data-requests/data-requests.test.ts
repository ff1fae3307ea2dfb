import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import readXlsxFile from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { DATA_REQUEST_DAYS } from '../../../shared/domain/privacy';
import type { DataRequestDetail } from '../../../shared/schemas/data-requests';
import { queryRows } from '../../db/client';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createClient, createReservation } from '../../test/builders';
import { testDatabaseUrl } from '../../test/database';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import { HOLDER_DATA_TABLES } from './holder-export';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');

const HOLDER = {
  rut: '13.579.246-2',
  firstName: 'Eulalia',
  lastName: 'Quirogá Sepúlveda',
  birthDate: '1987-09-14',
  phone: '+56 9 8765 4321',
  email: 'eulalia.quiroga@correo.cl',
};
const NORMALIZED_RUT = '13579246-2';

async function register(agent: Agent, body: Record<string, unknown>): Promise<DataRequestDetail> {
  const response = await agent.post('/api/data-requests', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().request;
}

/** Every row of every table, as text: the embedded database's logical dump (pg_dump on PostgreSQL). */
async function fullDump(ctx: TestContext): Promise<string> {
  const url = testDatabaseUrl();
  if (url) {
    const [row] = await queryRows<{ name: string }>(ctx.db, sql`select current_database() as name`);
    const target = new URL(url);
    target.pathname = `/${row!.name}`;
    return (
      execFileSync('pg_dump', ['--no-owner', target.toString()], { maxBuffer: 256 * 1024 * 1024 })
        .toString()
        // pg_dump's one-off key of this dump, different every time.
        .replace(/^\\(un)?restrict .*$/gm, '')
    );
  }
  const tables = await queryRows<{ name: string }>(
    ctx.db,
    sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const [rows] = await queryRows<{ text: string | null }>(
      ctx.db,
      sql.raw(`select string_agg(t::text, E'\\n') as text from ${name} t`),
    );
    parts.push(`-- ${name}\n${rows?.text ?? ''}`);
  }
  return parts.join('\n');
}

const occurrences = (haystack: string, needle: string) =>
  haystack.toLowerCase().split(needle.toLowerCase()).length - 1;

/** The dump's rows holding any of the values, with their table (pg_dump's COPY blocks, or our sections). */
function rowsHolding(dump: string, values: readonly string[]): { table: string; line: string }[] {
  const found: { table: string; line: string }[] = [];
  let table = '';
  for (const line of dump.split('\n')) {
    const header = /^COPY public\.("?)([a-z_]+)\1 /.exec(line) ?? /^-- ([a-z_]+)$/.exec(line);
    if (header) {
      table = header[2] ?? header[1] ?? '';
      continue;
    }
    if (values.some((value) => line.includes(value))) found.push({ table, line });
  }
  return found;
}

describe('Solicitudes de titulares (Ley 21.719)', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('is for administrators on every route; anyone else 403, without a session 401', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const client = await createClient(ctx.db, { rut: NORMALIZED_RUT });
    const request = await register(admin, {
      kind: 'access',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-18',
    });
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/data-requests'],
      ['POST', '/api/data-requests', { kind: 'access', holderRut: HOLDER.rut, receivedDate: '2026-11-18' }],
      ['GET', `/api/data-requests/${request.id}`],
      ['PUT', `/api/data-requests/${request.id}`, { status: 'in_progress', response: null, version: 1 }],
      ['POST', `/api/data-requests/${request.id}/suppress`, { confirmation: 'SUPRIMIR' }],
      ['POST', `/api/data-requests/${request.id}/restrict`],
      ['GET', `/api/data-requests/holders/${client.id}/export?format=json`],
      ['GET', `/api/data-requests/holders/${client.id}/blocked-values`],
      ['DELETE', `/api/data-requests/holders/${client.id}/restriction`],
      ['GET', '/api/data-requests/retention'],
      ['GET', '/api/data-requests/settings'],
      ['PUT', '/api/data-requests/settings', { retentionYears: 6, version: 1 }],
    ];
    const anonymous = new (admin.constructor as typeof Agent)(ctx.app);
    for (const [method, url, body] of routes) {
      const denied = await kam.request(method as 'GET', url, body as never);
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(denied).code).toBe('FORBIDDEN');
      expect(
        (await anonymous.request(method as 'GET', url, body as never)).statusCode,
        `${method} ${url}`,
      ).toBe(401);
    }
    expect((await admin.get('/api/data-requests')).statusCode).toBe(200);
    expect((await admin.get(`/api/data-requests/holders/${client.id}/export?format=json`)).statusCode).toBe(
      200,
    );
  });

  it('registers a request by RUT with its 30-day deadline on the Santiago calendar, overdue in red on the bell', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const client = await createClient(ctx.db, {
      rut: NORMALIZED_RUT,
      firstName: 'Eulalia',
      lastName: 'Quiroga',
    });
    const badge = async (agent: Agent) =>
      (await agent.get('/api/notifications/count')).json().count as number;
    const before = await badge(admin);

    const fresh = await register(admin, {
      kind: 'access',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-18',
    });
    expect(fresh).toMatchObject({
      kind: 'access',
      holderRut: NORMALIZED_RUT,
      holder: { clientId: client.id, name: 'Eulalia Quiroga', isSuppressed: false },
      receivedDate: '2026-11-18',
      dueDate: '2026-12-18',
      daysLeft: 28,
      isOverdue: false,
      status: 'pending',
    });
    // The deadline the database computes is the one the screens use.
    const [row] = await queryRows<{ days: number }>(
      ctx.db,
      sql`select (due_date - received_date)::int as days from data_subject_requests where id = ${fresh.id}`,
    );
    expect(row!.days).toBe(DATA_REQUEST_DAYS);

    // Received 31 days ago in Santiago: one day overdue, counted on the administrators' bell only.
    const late = await register(admin, {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-10-20',
    });
    expect(late).toMatchObject({ dueDate: '2026-11-19', daysLeft: -1, isOverdue: true });
    expect(await badge(admin)).toBe(before + 1);
    expect(await badge(kam)).toBe(0);
    const inbox = (await admin.get('/api/notifications')).json();
    expect(inbox.overdueDataRequests).toEqual([
      {
        id: late.id,
        kind: 'suppression',
        holderRut: NORMALIZED_RUT,
        clientName: 'Eulalia Quiroga',
        dueDate: '2026-11-19',
        daysOverdue: 1,
      },
    ]);
    expect((await kam.get('/api/notifications')).json().overdueDataRequests).toEqual([]);

    // Answered, it leaves the bell; answering needs the answer written.
    const noAnswer = await admin.put(`/api/data-requests/${late.id}`, {
      status: 'answered',
      response: '',
      version: 1,
    });
    expect(noAnswer.statusCode).toBe(400);
    expect(errorOf(noAnswer).fields).toMatchObject({ response: 'Escriba la respuesta dada al titular' });
    const answered = await admin.put(`/api/data-requests/${late.id}`, {
      status: 'answered',
      response: 'Se informó al titular',
      version: 1,
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().request).toMatchObject({
      status: 'answered',
      isOverdue: false,
      handledBy: { id: admin.user!.id },
    });
    expect(await badge(admin)).toBe(before);
    const stale = await admin.put(`/api/data-requests/${late.id}`, {
      status: 'in_progress',
      response: null,
      version: 1,
    });
    expect(stale.statusCode).toBe(409);

    // The list: open ones by due date; the register is in the audit trail.
    const open = (await admin.get('/api/data-requests')).json();
    expect(open.rows.map((r: { id: string }) => r.id)).toEqual([fresh.id]);
    const all = (await admin.get('/api/data-requests?status=all&search=quiroga')).json();
    expect(all.total).toBe(2);
    const [logged] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from audit_log where table_name = 'data_subject_requests'`,
    );
    expect(logged!.n).toBe(3);
  });

  it('answers a RUT that is no client’s at once, and refuses bad input in Spanish, changing nothing', async () => {
    const admin = await loginAs(ctx);
    const stranger = await register(admin, {
      kind: 'access',
      holderRut: '11.111.111-1',
      receivedDate: '2026-11-19',
    });
    expect(stranger).toMatchObject({
      holder: null,
      status: 'answered',
      response: 'No se tratan datos de este titular',
      actions: { exportData: { allowed: false, reason: 'No se tratan datos de este titular' } },
    });
    const future = await admin.post('/api/data-requests', {
      kind: 'access',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-21',
    });
    expect(future.statusCode).toBe(400);
    expect(errorOf(future).message).toBe('La fecha de recepción no puede ser posterior a hoy');
    const badRut = await admin.post('/api/data-requests', {
      kind: 'access',
      holderRut: '13.579.246-5',
      receivedDate: '2026-11-19',
    });
    expect(badRut.statusCode).toBe(400);
    expect(errorOf(badRut).fields).toMatchObject({
      holderRut: 'El RUT no es válido (revise el dígito verificador)',
    });
    const suppressStranger = await admin.post(`/api/data-requests/${stranger.id}/suppress`, {
      confirmation: 'SUPRIMIR',
    });
    expect(suppressStranger.statusCode).toBe(409);
    expect((await admin.get('/api/data-requests?status=all')).json().total).toBe(1);
  });

  it('covers in the holder’s export every table that points at clients or at their reservations (read from the schema)', async () => {
    const references = await queryRows<{ table: string }>(
      ctx.db,
      sql`select distinct c.conrelid::regclass::text as table
            from pg_constraint c
           where c.contype = 'f' and c.confrelid in ('clients'::regclass, 'reservations'::regclass)
             and c.conrelid <> 'clients'::regclass`,
    );
    expect(references.map((row) => row.table).sort()).toEqual(Object.keys(HOLDER_DATA_TABLES).sort());
  });
});

describe('the holder’s data export', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('gives everything held about the person as JSON and a readable XLSX, in Spanish, and records the export', async () => {
    const admin = await loginAs(ctx);
    const client = await createClient(ctx.db, {
      rut: NORMALIZED_RUT,
      firstName: HOLDER.firstName,
      lastName: HOLDER.lastName,
      birthDate: HOLDER.birthDate,
      phone: HOLDER.phone,
      email: HOLDER.email,
    });
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, {
      clientId: client.id,
      isWithBroker: true,
      brokerId: broker.id,
    });
    await createCommission(ctx.db, reservation, { commissionAmount: '120.00' });
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id });
    await admin.post(`/api/sale-flows/${flow.id}/tasks/${flow.task('COF PENDIENTE FIRMA')}/comments`, {
      content: `Firmó ${HOLDER.firstName} hoy`,
    });
    // A document kept on the reservation (issue 35): listed with its current version.
    const [promise] = await queryRows<{ id: string }>(
      ctx.db,
      sql`select id from document_types where name = 'Promesa firmada'`,
    );
    const paper = Buffer.from(
      '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
        '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
      'latin1',
    );
    const uploaded = await admin.post(
      `/api/reservations/${reservation.id}/documents?typeId=${promise!.id}&fileName=promesa.pdf`,
      paper,
      { 'content-type': 'application/octet-stream' },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    const json = await admin.get(`/api/data-requests/holders/${client.id}/export?format=json`);
    expect(json.statusCode, json.body).toBe(200);
    expect(json.headers['content-disposition']).toBe(
      `attachment; filename="datos_titular_2026-11-20.json"; filename*=UTF-8''datos_titular_2026-11-20.json`,
    );
    const data = JSON.parse(json.body);
    expect(data.titular).toMatchObject({
      rut: '13.579.246-2',
      nombres: HOLDER.firstName,
      apellidos: HOLDER.lastName,
      fechaNacimiento: HOLDER.birthDate,
      telefono: HOLDER.phone,
      correo: HOLDER.email,
    });
    expect(data.reservas).toHaveLength(1);
    expect(data.reservas[0]).toMatchObject({
      numero: reservation.reservationNumber,
      comision: { montoUF: '120.00' },
      flujos: [{ tipo: 'Flujo de venta' }],
    });
    expect(data.comentarios.map((comment: { comentario: string }) => comment.comentario)).toEqual([
      `Firmó ${HOLDER.firstName} hoy`,
    ]);
    expect(data.documentos).toEqual([
      expect.objectContaining({
        reserva: reservation.reservationNumber,
        tipo: 'Promesa firmada',
        nombre: 'promesa.pdf',
        version: 1,
        archivo: 'promesa.pdf',
        tipoArchivo: 'application/pdf',
        bytes: paper.length,
      }),
    ]);
    expect(data.historial.length).toBeGreaterThan(0);
    expect(data.historial[0]).toMatchObject({ usuario: expect.any(String), accion: expect.any(String) });

    const xlsx = await admin.get(`/api/data-requests/holders/${client.id}/export?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const sheets = await readXlsxFile(xlsx.rawPayload);
    expect(sheets.map((sheet) => sheet.sheet)).toEqual([
      'Titular',
      'Reservas',
      'Comisiones',
      'Promociones',
      'Flujos',
      'Comentarios',
      'Documentos',
      'Cuenta del comprador',
      'Plan de pagos',
      'Pagos',
      'Cotizaciones',
      'Historial',
      'Solicitudes',
    ]);
    const titular = sheets[0]!.data;
    expect(titular[0]).toEqual(
      expect.arrayContaining(['RUT', 'Nombres', 'Apellidos', 'Fecha de nacimiento']),
    );
    expect(titular[1]).toContain(HOLDER.firstName);
    // Days as dates, amounts as numbers, times in Santiago (a document for a person, issue 54).
    const birth = titular[1]![titular[0]!.indexOf('Fecha de nacimiento')];
    expect(birth).toBeInstanceOf(Date);
    const reservas = sheets[1]!.data;
    expect(typeof reservas[1]![reservas[0]!.indexOf('Precio departamento (UF)')]).toBe('number');
    expect(String(titular[1]![titular[0]!.indexOf('Registrado el')])).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
    const flujos = sheets[4]!.data;
    expect(flujos[1]![flujos[0]!.indexOf('Estado')]).toMatch(/^(Pendiente|En proceso|Completado|Cancelado)$/);
    // The history names their own records and says what changed.
    const historial = sheets.find((sheet) => sheet.sheet === 'Historial')!.data;
    expect(historial[0]).toEqual(['Fecha', 'Usuario', 'Registro', 'Qué pasó', 'Qué cambió']);
    const sentences = historial.slice(1).map((row) => row.join(' '));
    expect(sentences.join('\n')).not.toContain('registro eliminado');
    expect(sentences.some((row) => row.includes('→'))).toBe(true);
    expect(data.historial.some((entry: { cambios: { campo: string }[] }) => entry.cambios[0]?.campo)).toBe(
      true,
    );

    // Both exports are in the audit trail: who, what, how many rows.
    const exports = await queryRows<{ formato: string; actor: string }>(
      ctx.db,
      sql`select after->>'formato' as formato, actor_id as actor from audit_log where action = 'export' order by id`,
    );
    expect(exports).toEqual([
      { formato: 'json', actor: admin.user!.id },
      { formato: 'xlsx', actor: admin.user!.id },
    ]);
  });
});

describe('Suprimir datos personales', () => {
  const ctx = useTestApp({ now: () => NOW });

  /**
   * A holder with a life in the product: a completed sale (its commission paid, a promotion paid to
   * them), a rescinded one, comments naming them on their flows and on someone else's, edits of their
   * record (old values in the log), an export filtered by their name.
   */
  async function busyHolder(admin: Agent) {
    const client = await createClient(ctx.db, {
      rut: NORMALIZED_RUT,
      firstName: HOLDER.firstName,
      lastName: HOLDER.lastName,
      birthDate: HOLDER.birthDate,
      phone: '+56 2 2345 6789',
      email: 'eulalia.antigua@correo.cl',
    });
    // Their record edited through the app: the old phone and e-mail stay in the log.
    const read = (await admin.get(`/api/clients/${client.id}`)).json().client;
    const edited = await admin.put(`/api/clients/${client.id}`, {
      rut: HOLDER.rut,
      firstName: HOLDER.firstName,
      lastName: HOLDER.lastName,
      birthDate: HOLDER.birthDate,
      phone: HOLDER.phone,
      email: HOLDER.email,
      version: read.version,
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const broker = await createBroker(ctx.db);
    const sold = await createReservation(ctx.db, {
      clientId: client.id,
      isWithBroker: true,
      brokerId: broker.id,
    });
    const commission = await createCommission(ctx.db, sold, { commissionAmount: '150.00' });
    const saleFlow = await createSaleFlow(ctx.db, { reservationId: sold.id });
    await admin.post(
      `/api/sale-flows/${saleFlow.id}/tasks/${saleFlow.task('COF PENDIENTE FIRMA')}/comments`,
      {
        content: `Llamar a ${HOLDER.firstName} al ${HOLDER.phone}; RUT ${HOLDER.rut}, nacida el 14/09/1987`,
      },
    );
    await saleFlow.completeAll(saleFlow.taskNames());
    const payment = await createPaymentFlow(ctx.db, { brokerCommissionId: commission.id });
    await payment.start();
    await payment.completeAll(payment.taskNames());
    const promotion = await admin.post(`/api/reservations/${sold.id}/promotions`, {
      amount: '15.5',
      beneficiary: `${HOLDER.firstName} ${HOLDER.lastName}`,
      rut: HOLDER.rut,
      bank: 'Banco de Chile',
      accountType: 'Cuenta Corriente',
      accountNumber: '000123456789',
      email: HOLDER.email,
    });
    expect(promotion.statusCode, promotion.body).toBe(201);
    // A copy of their identity card, named after them, renamed, then a second version.
    const [idCard] = await queryRows<{ id: string }>(
      ctx.db,
      sql`select id from document_types where name = 'Cédula de identidad'`,
    );
    const documentsUrl = `/api/reservations/${sold.id}/documents`;
    const scan = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');
    const octet = { 'content-type': 'application/octet-stream' };
    const uploaded = await admin.post(
      `${documentsUrl}?typeId=${idCard!.id}&fileName=${encodeURIComponent(`Cédula ${HOLDER.firstName} ${HOLDER.lastName}.pdf`)}`,
      scan,
      octet,
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const idDocument = uploaded.json().document;
    const renamed = await admin.patch(`${documentsUrl}/${idDocument.id}`, {
      name: `Cédula de ${HOLDER.firstName} ${HOLDER.lastName} (${HOLDER.rut})`,
      version: idDocument.version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const replaced = await admin.post(
      `${documentsUrl}/${idDocument.id}/versions?version=${renamed.json().document.version}&fileName=${encodeURIComponent(`${HOLDER.email}.pdf`)}`,
      scan,
      octet,
    );
    expect(replaced.statusCode, replaced.body).toBe(201);

    const rescinded = await createReservation(ctx.db, {
      clientId: client.id,
      isRescinded: true,
      rescindedAt: new Date('2026-06-01T12:00:00Z'),
    });
    await createSaleFlow(ctx.db, { reservationId: rescinded.id });

    // Another buyer's flow names them too.
    const other = await createReservation(ctx.db);
    const otherFlow = await createSaleFlow(ctx.db, { reservationId: other.id });
    await admin.post(
      `/api/sale-flows/${otherFlow.id}/tasks/${otherFlow.task('COF PENDIENTE GENERACIÓN')}/comments`,
      {
        content: `Referido por ${HOLDER.firstName} ${HOLDER.lastName} (${HOLDER.email})`,
      },
    );
    // An export searched by their name: its filters are in the log.
    const exported = await admin.get(
      `/api/reports/sales/export?format=csv&fromDate=2000-01-01&toDate=2030-12-31&search=${encodeURIComponent(HOLDER.lastName)}`,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    return { client, sold, otherFlow, broker };
  }

  /** What the financial screens say, the client's name left out. */
  async function figures(admin: Agent, brokerId: string) {
    const dashboard = (await admin.get('/api/dashboard')).json();
    const sales = (await admin.get('/api/reports/sales?fromDate=2000-01-01&toDate=2030-12-31')).json();
    const consolidated = (await admin.get(`/api/reports/broker-consolidated?brokerId=${brokerId}`)).json();
    expect(sales.rows.length).toBeGreaterThan(0);
    expect(consolidated.rows.length).toBeGreaterThan(0);
    const strip = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (key, inner) =>
          ['clientName', 'recentReservations'].includes(key) ? undefined : inner,
        ),
      );
    return JSON.stringify(strip({ dashboard, sales, consolidated }));
  }

  it('leaves no trace of the person in a full dump but the blocked RUT, and every figure unchanged', async () => {
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const { client, sold, broker } = await busyHolder(admin);
    // A quote whose prospect is them by RUT and an earlier e-mail (issue 59): their data too.
    await ctx.db.execute(sql`insert into quotes (project_id, prospect_name, prospect_email, prospect_phone, prospect_rut,
        quote_date, valid_until, uf_date, uf_value, apartment_price, parking_price, storage_price, list_price,
        final_price, reservation_amount, down_payment_fraction, down_payment, installments, credit_amount)
      select project_id, 'Eulalia Quiroga Sepulveda', 'eulalia.antigua@correo.cl', '+56 2 2345 6789', ${NORMALIZED_RUT},
             '2026-11-01', '2026-11-11', '2026-11-01', 39000, 3000, 0, 0, 3000, 3000, 10, 0.1, 300, 1, 2690
        from reservations where id = ${sold.id}`);
    const before = await figures(admin, broker.id);
    const dumpBefore = await fullDump(ctx);
    for (const value of [
      HOLDER.lastName,
      'eulalia.antigua@correo.cl',
      '2345 6789',
      HOLDER.email,
      '1987-09-14',
    ])
      expect(occurrences(dumpBefore, value), value).toBeGreaterThan(0);

    const request = await register(admin, {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-19',
    });
    expect(request.actions.suppress).toEqual({ allowed: true, reason: null });
    const wrongWord = await admin.post(`/api/data-requests/${request.id}/suppress`, { confirmation: 'si' });
    expect(wrongWord.statusCode).toBe(400);
    const done = await admin.post(`/api/data-requests/${request.id}/suppress`, { confirmation: 'suprimir' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().suppression).toMatchObject({ clientId: client.id, blockedValues: 3 });

    const dump = await fullDump(ctx);
    for (const value of [
      HOLDER.firstName,
      HOLDER.lastName,
      'Quiroga Sepulveda',
      HOLDER.email,
      'eulalia.antigua@correo.cl',
      HOLDER.phone,
      '+56 2 2345 6789',
      '987654321',
      '1987-09-14',
      '14/09/1987',
    ]) {
      expect(occurrences(dump, value), value).toBe(0);
    }
    // The RUT only where decision 0027 keeps it: blocked values and the request register (its history).
    const rutRows = rowsHolding(dump, [NORMALIZED_RUT, '13.579.246-2', '135792462']);
    expect(rutRows.length).toBeGreaterThan(0);
    for (const { table, line } of rutRows) {
      const allowed =
        table === 'client_blocked_values' ||
        table === 'data_subject_requests' ||
        (table === 'audit_log' && line.includes('data_subject_requests'));
      expect(allowed, `${table}: ${line}`).toBe(true);
    }

    // Their papers stay (the sale's legal record), named without them.
    const papers = (await admin.get(`/api/reservations/${sold.id}/documents`)).json().documents;
    expect(papers.map((paper: { name: string }) => paper.name)).toEqual([
      'Cédula de [titular suprimido] ([titular suprimido])',
    ]);

    // The sale stays, shown as 'Titular suprimido'; every figure is the same.
    const reservation = (await admin.get(`/api/reservations/${sold.id}`)).json().reservation;
    expect(reservation.client).toMatchObject({
      firstName: 'Titular',
      lastName: 'suprimido',
      isDeleted: true,
    });
    // Every figure but the count of live clients (a suppressed holder is no live client).
    const after = JSON.parse(await figures(admin, broker.id));
    const expected = JSON.parse(before);
    expected.dashboard.totals.clients -= 1;
    expect(after).toEqual(expected);
    // Search no longer finds them.
    expect((await admin.get(`/api/search?q=${encodeURIComponent(HOLDER.lastName)}`)).json()).toMatchObject({
      clients: [],
    });

    // Recorded as an event of its own; the request answered; the blocked values readable, and that read logged.
    const [event] = await queryRows<{ actor: string; request: string }>(
      ctx.db,
      sql`select actor_id as actor, after->>'solicitud' as request from audit_log where action = 'redact'`,
    );
    expect(event).toEqual({ actor: admin.user!.id, request: request.id });
    const answered = (await admin.get(`/api/data-requests/${request.id}`)).json().request;
    expect(answered).toMatchObject({ status: 'answered', response: 'Datos personales suprimidos.' });
    const blocked = (await admin.get(`/api/data-requests/holders/${client.id}/blocked-values`)).json().values;
    expect(
      blocked
        .map((value: { tableName: string; columnName: string }) => `${value.tableName}.${value.columnName}`)
        .sort(),
    ).toEqual(['clients.rut', 'promotions.account_number', 'promotions.rut']);
    const [read] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from audit_log where action = 'read_blocked' and actor_id = ${admin.user!.id}`,
    );
    expect(read!.n).toBe(1);

    // A second suppression is refused.
    const again = await register(admin, {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-20',
    });
    expect(again.holder).toMatchObject({ clientId: client.id, isSuppressed: true });
    const second = await admin.post(`/api/data-requests/${again.id}/suppress`, { confirmation: 'SUPRIMIR' });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toBe('Los datos personales de este titular ya fueron suprimidos');
  });

  it('refuses while a sale is in progress, naming it, and changes nothing', async () => {
    const admin = await loginAs(ctx);
    const client = await createClient(ctx.db, { rut: NORMALIZED_RUT, firstName: HOLDER.firstName });
    const reservation = await createReservation(ctx.db, { clientId: client.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id });
    const request = await register(admin, {
      kind: 'suppression',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-19',
    });
    // The page knows before anyone types SUPRIMIR: the action is refused with the reason (issue 57).
    expect(request.actions.suppress).toEqual({
      allowed: false,
      reason: `No se pueden suprimir los datos: el titular tiene una venta en curso (reserva N° ${reservation.reservationNumber}) y sus datos se necesitan para cumplirla. Puede registrar una solicitud de bloqueo en su lugar.`,
    });
    const dump = await fullDump(ctx);
    const refused = await admin.post(`/api/data-requests/${request.id}/suppress`, {
      confirmation: 'SUPRIMIR',
    });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      `No se pueden suprimir los datos: el titular tiene una venta en curso (reserva N° ${reservation.reservationNumber}) y sus datos se necesitan para cumplirla. Puede registrar una solicitud de bloqueo en su lugar.`,
    );
    expect(await fullDump(ctx)).toBe(dump);
  });

  it('keeps the log append-only for everyone else: no UPDATE but a redaction, no DELETE', async () => {
    await loginAs(ctx);
    const attempt = async (statement: ReturnType<typeof sql>) => {
      try {
        await ctx.db.execute(statement);
        return 'ok';
      } catch (error) {
        return String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
      }
    };
    expect(await attempt(sql`update audit_log set before = '{}'::jsonb`)).toMatch(/append-only/);
    expect(await attempt(sql`delete from audit_log`)).toMatch(/append-only/);
    // Even saying it is a redaction: only values turned into '[suprimido]' pass, nothing else.
    const rewrite = await attempt(sql`
      with flag as (select set_config('inmoflujo.redaction', 'on', true))
      update audit_log set record_id = record_id || '-otro' from flag where audit_log.id = (select min(id) from audit_log)`);
    expect(rewrite).toMatch(/append-only/);
    const forge = await attempt(sql`
      with flag as (select set_config('inmoflujo.redaction', 'on', true))
      update audit_log set after = jsonb_set(after, '{name}', '"otro"') from flag
       where audit_log.id = (select min(id) from audit_log where after ? 'name')`);
    expect(forge).toMatch(/append-only/);
  });
});

describe('opposition and blocking', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('marks the client, blocks edits and new sales until lifted, and leaves them unnamed in reports', async () => {
    const admin = await loginAs(ctx);
    const client = await createClient(ctx.db, {
      rut: NORMALIZED_RUT,
      firstName: 'Eulalia',
      lastName: 'Quiroga',
    });
    await createReservation(ctx.db, { clientId: client.id });
    const request = await register(admin, {
      kind: 'blocking',
      holderRut: HOLDER.rut,
      receivedDate: '2026-11-19',
    });
    const applied = await admin.post(`/api/data-requests/${request.id}/restrict`);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().request).toMatchObject({ status: 'answered', holder: { restriction: 'blocking' } });
    const read = (await admin.get(`/api/clients/${client.id}`)).json().client;
    expect(read.restriction).toBe('blocking');
    expect(read.restrictionReason).toBe('Solicitud de bloqueo del 19/11/2026');
    // The answer says the edit would be refused, in the words the refusal uses (issue 57).
    expect(read.canEdit).toBe(false);
    const edit = await admin.put(`/api/clients/${client.id}`, {
      rut: HOLDER.rut,
      firstName: 'Eulalia',
      lastName: 'Quiroga',
      birthDate: '1987-09-14',
      version: read.version,
    });
    expect(edit.statusCode).toBe(409);
    expect(errorOf(edit).code).toBe('CLIENT_BLOCKED');
    expect(read.editRefusal).toBe(errorOf(edit).message);
    const sales = (await admin.get('/api/reports/sales?fromDate=2000-01-01&toDate=2030-12-31')).json();
    expect(sales.rows.map((row: { clientName: string }) => row.clientName)).toEqual(['Datos restringidos']);

    expect((await admin.delete(`/api/data-requests/holders/${client.id}/restriction`)).statusCode).toBe(204);
    const lifted = (await admin.get(`/api/clients/${client.id}`)).json().client;
    expect(lifted).toMatchObject({ restriction: null, canEdit: true, editRefusal: null });
    const saved = await admin.put(`/api/clients/${client.id}`, {
      rut: HOLDER.rut,
      firstName: 'Eulalia',
      lastName: 'Quiroga',
      birthDate: '1987-09-14',
      version: lifted.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().client).toMatchObject({ canEdit: true, editRefusal: null });
    const again = await admin.delete(`/api/data-requests/holders/${client.id}/restriction`);
    expect(again.statusCode).toBe(409);
  });
});

describe('retention', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('lists live clients with no live reservation for longer than the retention period', async () => {
    const admin = await loginAs(ctx);
    const stale = await createClient(ctx.db, { firstName: 'Antiguo' });
    await ctx.db.execute(sql`update clients set created_at = '2019-01-10T12:00:00Z' where id = ${stale.id}`);
    const rescindedLongAgo = await createClient(ctx.db, { firstName: 'Resciliado' });
    await ctx.db.execute(
      sql`update clients set created_at = '2018-05-01T12:00:00Z' where id = ${rescindedLongAgo.id}`,
    );
    await createReservation(ctx.db, {
      clientId: rescindedLongAgo.id,
      reservationDate: '2019-02-01',
      isRescinded: true,
      rescindedAt: new Date('2019-03-01T12:00:00Z'),
    });
    // A recent client, and one whose only reservation is live, are not listed.
    await createClient(ctx.db, { firstName: 'Reciente' });
    const buyer = await createClient(ctx.db, { firstName: 'Comprador' });
    await ctx.db.execute(sql`update clients set created_at = '2018-01-10T12:00:00Z' where id = ${buyer.id}`);
    await createReservation(ctx.db, { clientId: buyer.id, reservationDate: '2019-02-01' });
    const page = (await admin.get('/api/data-requests/retention')).json();
    expect(page.retentionYears).toBe(5);
    expect(page.rows.map((row: { clientId: string }) => row.clientId).sort()).toEqual(
      [stale.id, rescindedLongAgo.id].sort(),
    );
    const settings = (await admin.get('/api/data-requests/settings')).json().settings;
    const changed = await admin.put('/api/data-requests/settings', {
      retentionYears: 8,
      version: settings.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // Eight years back is November 2018: both were active after that.
    expect((await admin.get('/api/data-requests/retention')).json().rows).toEqual([]);
  });
});
