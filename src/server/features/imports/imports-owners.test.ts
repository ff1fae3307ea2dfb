import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentUf, ufToClp } from '../../../shared/domain/uf';
import { errorMessage } from '../../../shared/errors';
import { queryRows } from '../../db/client';
import { migrationsFolder } from '../../paths';
import { errorOf, loginAs, useTestApp } from '../../test/app';
import {
  createBroker,
  createClient,
  createProject,
  createReservation,
  createUser,
  seedUfValues,
  uniqueRut,
} from '../../test/builders';
import { createCommission } from '../../test/flow-builders';
import { applyAndWait, dotted, rowFor, templateHeaders, uploadAndCheck, workbook } from '../../test/imports';

/**
 * Issue 55: the import kinds write through the tables' owners (decision 0056), so the owners' rules
 * hold for imported rows too — a blocked holder gets no reservation, a payment imported as paid keeps
 * its pesos — and an undo is safe: checked and reverted under the rows' locks, as a new version, the
 * edit saved meanwhile kept, one of concurrent undos winning.
 */

/** The app's clock: noon on 20 March 2027 in Santiago. */
const NOW = new Date('2027-03-20T15:00:00Z');

describe('imports through the owners of the tables', { timeout: 240_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  async function reservationsFile(
    agent: Awaited<ReturnType<typeof loginAs>>,
    rows: Record<string, string>[],
  ) {
    const headers = await templateHeaders(agent, 'reservations');
    return workbook([headers, ...rows.map((values) => rowFor(headers, values))]);
  }

  async function seed() {
    const seller = await createUser(ctx.db, { isSeller: true, email: 'vendedora@inmoflujo.test' });
    await createProject(ctx.db, { name: 'Edificio Los Aromos' });
    return { seller };
  }

  const base = (n: number, rut: string, sellerEmail: string) => ({
    'N° Reserva': `OWN-${n}`,
    'RUT Cliente': dotted(rut),
    Proyecto: 'Edificio Los Aromos',
    Vendedor: sellerEmail,
    'Fecha reserva': '10/01/2026',
    Departamento: `${500 + n}`,
    'Precio departamento': '3.250,50',
    'Pago reserva': '20',
    'Crédito hipotecario': '2.600',
  });

  it("refuses a blocked client's reservation, as the form does (CLIENT_BLOCKED), writing nothing", async () => {
    const admin = await loginAs(ctx);
    const { seller } = await seed();
    const free = await createClient(ctx.db);
    const blocked = await createClient(ctx.db);
    await ctx.db.execute(
      sql`update clients set restriction = 'blocking', restriction_reason = 'Ley 21.719' where id = ${blocked.id}`,
    );
    const bytes = await reservationsFile(admin, [
      base(1, free.rut, seller.email),
      base(2, blocked.rut, seller.email),
    ]);
    const { file, dry } = await uploadAndCheck(admin, 'reservations', 'reservas.xlsx', bytes);
    expect(dry.errors).toEqual([
      {
        rowNumber: 3,
        column: 'RUT Cliente',
        value: dotted(blocked.rut),
        reason: errorMessage('CLIENT_BLOCKED'),
      },
    ]);
    const refused = await admin.post(`/api/imports/runs/${file.runId}/apply`, { mapping: file.mapping });
    expect(errorOf(refused).code).toBe('IMPORT_HAS_ERRORS');
    expect(await queryRows(ctx.db, sql`select 1 from reservations`)).toHaveLength(0);
    // Only the valid rows: the free client's reservation, none for the blocked one.
    await applyAndWait(admin, file.runId, file.mapping, { onlyValidRows: true });
    const made = await queryRows<{ client_id: string }>(ctx.db, sql`select client_id from reservations`);
    expect(made).toEqual([{ client_id: free.id }]);
  });

  it('keeps the pesos of a payment imported as paid, frozen at its day’s UF value (a missing day: frozen when loaded)', async () => {
    const admin = await loginAs(ctx);
    const { seller } = await seed();
    const [one, two] = [await createClient(ctx.db), await createClient(ctx.db)];
    const broker = await createBroker(ctx.db);
    await ctx.db.execute(
      sql`insert into uf_values (date, value, source) values ('2026-06-30', '39267.07', 'file')`,
    );
    const commission = {
      'RUT Broker': broker.rut,
      'Monto comisión': '60,5',
      'Número de pagos': '2',
      'Porcentaje primer pago': '50',
      'Factura 1': '1234',
      'Fecha factura 1': '29/06/2026',
    };
    const bytes = await reservationsFile(admin, [
      { ...base(1, one!.rut, seller.email), ...commission, 'Fecha pago 1': '30/06/2026' },
      // A day with no UF value loaded yet.
      { ...base(2, two!.rut, seller.email), ...commission, 'Fecha pago 1': '01/07/2026' },
    ]);
    const { file, dry } = await uploadAndCheck(admin, 'reservations', 'reservas.xlsx', bytes);
    expect(dry.errors).toEqual([]);
    await applyAndWait(admin, file.runId, file.mapping);
    const rows = await queryRows<{ number: string; clp: string | null; uf: string | null }>(
      ctx.db,
      sql`select r.reservation_number as number, c.payment_1_clp::text as clp, c.payment_1_uf_value::text as uf
          from broker_commissions c join reservations r on r.id = c.reservation_id order by 1`,
    );
    const expected = ufToClp(
      paymentUf({ commissionAmount: '60.50', numberOfPayments: 2, firstPaymentPercentage: 50 }, 1),
      '39267.07',
    );
    expect(rows).toEqual([
      { number: 'OWN-1', clp: expected, uf: '39267.07' },
      { number: 'OWN-2', clp: null, uf: null },
    ]);
    // The missing day loaded: its payment's pesos frozen then, by the same rule.
    const loaded = await admin.put('/api/uf-values/2026-07-01', { value: '39.280,11', confirmJump: true });
    expect(loaded.statusCode, loaded.body).toBeLessThan(300);
    const [later] = await queryRows<{ clp: string | null }>(
      ctx.db,
      sql`select c.payment_1_clp::text as clp from broker_commissions c
          join reservations r on r.id = c.reservation_id where r.reservation_number = 'OWN-2'`,
    );
    expect(later!.clp).toBe(
      ufToClp(
        paymentUf({ commissionAmount: '60.50', numberOfPayments: 2, firstPaymentPercentage: 50 }, 1),
        '39280.11',
      ),
    );
  });

  it('records an imported paid payment’s invoice number as its invoice, derived from its pesos, source import (decision 0063)', async () => {
    const admin = await loginAs(ctx);
    const { seller } = await seed();
    const [one, two] = [await createClient(ctx.db), await createClient(ctx.db)];
    const broker = await createBroker(ctx.db);
    await ctx.db.execute(
      sql`insert into uf_values (date, value, source) values ('2026-06-30', '39267.07', 'file')`,
    );
    const commission = {
      'RUT Broker': broker.rut,
      'Monto comisión': '60,5',
      'Número de pagos': '2',
      'Porcentaje primer pago': '50',
      'Fecha pago 1': '30/06/2026',
    };
    const bytes = await reservationsFile(admin, [
      {
        ...base(1, one!.rut, seller.email),
        ...commission,
        'Factura 1': '4321',
        'Fecha factura 1': '29/06/2026',
      },
      // Not an SII folio: kept on the commission alone.
      { ...base(2, two!.rut, seller.email), ...commission, 'Factura 1': 'F-77' },
    ]);
    const { file, dry } = await uploadAndCheck(admin, 'reservations', 'facturas.xlsx', bytes);
    expect(dry.errors).toEqual([]);
    const run = await applyAndWait(admin, file.runId, file.mapping);
    expect(run.status).toBe('applied');

    const invoices = await queryRows<{ number: string; folio: string; source: string; kind: string }>(
      ctx.db,
      sql`select r.reservation_number as number, i.folio, i.source, i.kind
            from broker_invoices i join flows f on f.id = i.flow_id join reservations r on r.id = f.reservation_id`,
    );
    expect(invoices).toEqual([{ number: 'OWN-1', folio: '4321', source: 'import', kind: 'taxed' }]);
    // The payment's invoice panel: that invoice, checked against the frozen pesos, every line matching.
    const [flow] = await queryRows<{ id: string }>(
      ctx.db,
      sql`select f.id from flows f join reservations r on r.id = f.reservation_id
           where r.reservation_number = 'OWN-1' and f.kind = 'payment'`,
    );
    const panel = (await admin.get(`/api/payment-flows/${flow!.id}/invoices`)).json().tasks[0];
    const pesos = ufToClp(
      paymentUf({ commissionAmount: '60.50', numberOfPayments: 2, firstPaymentPercentage: 50 }, 1),
      '39267.07',
    );
    expect(panel.expected).toMatchObject({ clp: pesos, basis: 'frozen' });
    expect(panel.invoice).toMatchObject({
      folio: '4321',
      source: 'import',
      kind: 'taxed',
      issueDate: '2026-06-29',
      totalAmount: pesos,
    });
    expect(panel.check.matches).toBe(true);
    // The commission's 'Factura 1' (what the PDF cites) is the same number.
    const [stored] = await queryRows<{ invoice: string }>(
      ctx.db,
      sql`select c.invoice_1 as invoice from broker_commissions c join reservations r on r.id = c.reservation_id
           where r.reservation_number = 'OWN-1'`,
    );
    expect(stored!.invoice).toBe('4321');

    // Undone with the import: no invoice is left behind.
    const undone = await admin.post(`/api/imports/runs/${file.runId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    const [left] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from broker_invoices`,
    );
    expect(left!.n).toBe(0);
  });
});

describe('joined columns (issue 55)', { timeout: 240_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  it('a title block and split surnames: the header found, the surnames joined into Apellidos, remembered for the next file', async () => {
    const admin = await loginAs(ctx);
    const [a, b] = [uniqueRut(), uniqueRut()];
    const bytes = await workbook([
      ['Clientes exportados por el sistema anterior'],
      [],
      ['RUT', 'Nombres', 'Apellido Paterno', 'Apellido Materno', 'Fecha de nacimiento'],
      [dotted(a), 'María José', 'González', 'Pérez', '01/02/1980'],
      [dotted(b), 'Pedro', 'Soto', '', '03/04/1985'],
      ['Total: 2 clientes'],
    ]);
    const { file, dry } = await uploadAndCheck(admin, 'clients', 'clientes.xlsx', bytes);
    expect(file.headerRow).toBe(3);
    expect(file.mapping.lastName).toEqual([2, 3]);
    expect(dry.errors).toEqual([]);
    expect(dry.summary).toBe('2 nuevos, 0 actualizados, 0 sin cambios, 0 con errores');
    await applyAndWait(admin, file.runId, file.mapping);
    const rows = await queryRows<{ rut: string; last_name: string }>(
      ctx.db,
      sql`select rut, last_name from clients order by last_name`,
    );
    // A blank surname leaves no trailing space.
    expect(rows).toEqual([
      { rut: a, last_name: 'González Pérez' },
      { rut: b, last_name: 'Soto' },
    ]);

    // Headers no rule knows, joined on screen: the next file with them is mapped the same way.
    const other = await workbook([
      ['RUT', 'Nombre', 'Ap. Pat.', 'Ap. Mat.', 'Nacimiento'],
      [dotted(uniqueRut()), 'Eva', 'Lara', 'Mena', '05/06/1990'],
    ]);
    const first = await uploadAndCheck(admin, 'clients', 'otro.xlsx', other, {
      lastName: [2, 3],
      birthDate: 4,
    });
    expect(first.dry.errors).toEqual([]);
    const again = await uploadAndCheck(admin, 'clients', 'otro-mas.xlsx', other);
    expect(again.file.mapping.lastName).toEqual([2, 3]);
    expect(again.file.mapping.birthDate).toBe(4);
  });
});

describe('migration 0041: payments imported as paid before get their pesos', { timeout: 240_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  it('freezes them at their day’s UF value by the domain’s rule (the two homes of the rule agree), leaving a missing day and frozen ones alone', async () => {
    await seedUfValues(ctx.db, { '2026-06-30': '39267.07', '2026-07-15': '39301.55' });
    const broker = await createBroker(ctx.db);
    // Amounts chosen for the roundings: half a cent, half a peso, a percentage of a third.
    const cases = [
      { commissionAmount: '60.50', numberOfPayments: 2, firstPaymentPercentage: 50 },
      { commissionAmount: '33.33', numberOfPayments: 2, firstPaymentPercentage: 25 },
      { commissionAmount: '100.01', numberOfPayments: 1, firstPaymentPercentage: 100 },
      { commissionAmount: '75.15', numberOfPayments: 2, firstPaymentPercentage: 50 },
    ] as const;
    const made: string[] = [];
    for (const figures of cases) {
      const reservation = await createReservation(ctx.db, { brokerId: broker.id, isWithBroker: true });
      const commission = await createCommission(ctx.db, reservation, {
        ...figures,
        payment1Date: '2026-06-30',
        payment2Date: figures.numberOfPayments === 2 ? '2026-07-15' : null,
      });
      made.push(commission.id);
    }
    // One on a day with no value, one already frozen (kept as it is).
    const missing = await createCommission(
      ctx.db,
      await createReservation(ctx.db, { brokerId: broker.id, isWithBroker: true }),
      { payment1Date: '2026-07-01' },
    );
    const frozen = await createCommission(
      ctx.db,
      await createReservation(ctx.db, { brokerId: broker.id, isWithBroker: true }),
      { payment1Date: '2026-06-30', payment1Clp: '1', payment1UfValue: '1.00' },
    );
    const migration = readFileSync(join(migrationsFolder, '0041_imported_payment_pesos.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint'))
      await ctx.db.execute(sql.raw(statement));

    const pesos = async (id: string) =>
      (
        await queryRows<{ c1: string | null; u1: string | null; c2: string | null; u2: string | null }>(
          ctx.db,
          sql`select payment_1_clp::text as c1, payment_1_uf_value::text as u1,
                     payment_2_clp::text as c2, payment_2_uf_value::text as u2
                from broker_commissions where id = ${id}`,
        )
      )[0]!;
    for (const [index, figures] of cases.entries()) {
      expect(await pesos(made[index]!), figures.commissionAmount).toEqual({
        c1: ufToClp(paymentUf(figures, 1), '39267.07'),
        u1: '39267.07',
        c2: figures.numberOfPayments === 2 ? ufToClp(paymentUf(figures, 2), '39301.55') : null,
        u2: figures.numberOfPayments === 2 ? '39301.55' : null,
      });
    }
    expect(await pesos(missing.id)).toEqual({ c1: null, u1: null, c2: null, u2: null });
    expect(await pesos(frozen.id)).toEqual({ c1: '1', u1: '1.00', c2: null, u2: null });
  });
});

describe('undo is safe', { timeout: 240_000 }, () => {
  const ctx = useTestApp({ now: () => NOW });

  async function importUpdatingClient(admin: Awaited<ReturnType<typeof loginAs>>) {
    const client = await createClient(ctx.db, { firstName: 'Viejo' });
    const csv = `RUT;Nombres;Apellidos;Fecha de nacimiento\n${client.rut};Nuevo;Soto;01/02/1980\n${uniqueRut()};Otra;Persona;03/04/1985\n`;
    const { file } = await uploadAndCheck(admin, 'clients', 'c.csv', Buffer.from(csv));
    await applyAndWait(admin, file.runId, file.mapping);
    return { client, runId: file.runId };
  }

  const clientRow = async (id: string) =>
    (
      await queryRows<{ first_name: string; version: number }>(
        ctx.db,
        sql`select first_name, version from clients where id = ${id}`,
      )
    )[0];

  it('an edit saved after the import makes the undo refuse that record by name; the edit survives, nothing is reverted', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const { client, runId } = await importUpdatingClient(admin);
    expect(await clientRow(client.id)).toEqual({ first_name: 'Nuevo', version: 2 });
    const edited = await kam.put(`/api/clients/${client.id}`, {
      rut: client.rut,
      firstName: 'Editado por la KAM',
      lastName: 'Soto',
      birthDate: '1980-02-01',
      phone: null,
      email: null,
      version: 2,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const refused = await admin.post(`/api/imports/runs/${runId}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain(`Cliente ${client.rut}`);
    // The KAM's save is kept, its version too; the run's other client is still there (nothing reverted).
    expect(await clientRow(client.id)).toEqual({ first_name: 'Editado por la KAM', version: 3 });
    expect(await queryRows(ctx.db, sql`select 1 from clients`)).toHaveLength(2);
    expect((await admin.get(`/api/imports/runs/${runId}`)).json().run.status).toBe('applied');
  });

  it('an undo racing an edit: either the undo is refused and the edit kept, or the undo wins and the edit is told its copy is stale', async () => {
    const admin = await loginAs(ctx);
    const { client, runId } = await importUpdatingClient(admin);
    const [undone, edited] = await Promise.all([
      admin.post(`/api/imports/runs/${runId}/undo`),
      admin.put(`/api/clients/${client.id}`, {
        rut: client.rut,
        firstName: 'Carrera',
        lastName: 'Soto',
        birthDate: '1980-02-01',
        phone: null,
        email: null,
        version: 2,
      }),
    ]);
    const row = await clientRow(client.id);
    if (undone.statusCode === 200) {
      expect(errorOf(edited).code).toBe('STALE_VERSION');
      expect(row).toEqual({ first_name: 'Viejo', version: 3 });
    } else {
      expect(edited.statusCode).toBe(200);
      expect(errorOf(undone).code).toBe('IMPORT_UNDO_CONFLICT');
      expect(row).toEqual({ first_name: 'Carrera', version: 3 });
    }
  });

  it('the undo is a new version, never backwards: the updated client goes 2 → 3 with its old values', async () => {
    const admin = await loginAs(ctx);
    const { client, runId } = await importUpdatingClient(admin);
    const undone = await admin.post(`/api/imports/runs/${runId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await clientRow(client.id)).toEqual({ first_name: 'Viejo', version: 3 });
    // An edit made with the version read before the undo is stale, not silently applied.
    const stale = await admin.put(`/api/clients/${client.id}`, {
      rut: client.rut,
      firstName: 'Tarde',
      lastName: 'Soto',
      birthDate: '1980-02-01',
      phone: null,
      email: null,
      version: 1,
    });
    expect(errorOf(stale).code).toBe('STALE_VERSION');
  });

  it('of 20 concurrent undos of one run exactly one wins; the others are told it was undone', async () => {
    const admin = await loginAs(ctx);
    const { client, runId } = await importUpdatingClient(admin);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => admin.post(`/api/imports/runs/${runId}/undo`)),
    );
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.statusCode !== 200)) {
      expect(answer.statusCode).toBe(409);
      expect(errorOf(answer).code).toBe('IMPORT_ALREADY_UNDONE');
      expect(errorOf(answer).message).toBe(errorMessage('IMPORT_ALREADY_UNDONE'));
    }
    // Reverted once: one new version.
    expect(await clientRow(client.id)).toEqual({ first_name: 'Viejo', version: 3 });
    expect(await queryRows(ctx.db, sql`select 1 from clients`)).toHaveLength(1);
  });
});
