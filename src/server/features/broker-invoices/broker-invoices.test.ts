import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../shared/schemas/audit';
import type { InvoiceTaskView } from '../../../shared/schemas/broker-invoices';
import { asSystem } from '../../db/actor';
import { queryRows } from '../../db/client';
import { isUniqueViolation } from '../../http/app-error';
import { Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation, seedUfValues } from '../../test/builders';
import { createCommission, createSaleFlow, FlowDriver } from '../../test/flow-builders';
import { FIRST_PAYMENT_BEFORE_INVOICE } from '../../test/payment-flow-tasks';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');
/** The fixture's issuer: the broker of these tests. */
const BROKER_RUT = '76543210-3';
const FIXTURE = readFileSync(join(__dirname, 'fixtures/dte-33-76543210.xml'));
const xmlBody = (bytes: Buffer | string = FIXTURE, extra: Record<string, unknown> = {}) => ({
  content: Buffer.from(bytes).toString('base64'),
  ...extra,
});
/** The fixture as text (it is ISO-8859-1), changed, and back to its bytes. */
const fixtureWith = (change: (text: string) => string) =>
  Buffer.from(change(FIXTURE.toString('latin1')), 'latin1');

/** A manual factura afecta of UF 100 at 40.000 (4.000.000 with IVA), or what `overrides` change. */
const manual = (overrides: Record<string, unknown> = {}) => ({
  kind: 'taxed',
  issuerRut: '76.543.210-3',
  folio: '77',
  issueDate: '2026-11-16',
  netAmount: '3.361.345',
  vatAmount: '638656',
  totalAmount: 4000001,
  ...overrides,
});

describe("the broker's invoice on its payment task", () => {
  const ctx = useTestApp({ now: () => NOW });

  /**
   * A commission of UF 100 (includes IVA, one payment) to the fixture's broker, its first flow at
   * 'Recepción Factura Broker'; the UF at 40.000,00 on the fixture's issue date: 4.000.000 pesos.
   */
  async function atInvoiceTask(options: { brokerRut?: string; commission?: Record<string, unknown> } = {}) {
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const broker = await createBroker(ctx.db, { rut: options.brokerRut ?? BROKER_RUT });
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at: NOW });
    await createCommission(ctx.db, reservation, { commissionAmount: '100.00', ...options.commission });
    await seedUfValues(ctx.appDb, { '2026-11-16': '40000.00' });
    const { flowId } = (await admin.post(`/api/payments/${reservation.id}/first-flow`)).json();
    const driver = await FlowDriver.open(ctx.db, flowId);
    await driver.start({ at: NOW });
    await driver.completeAll(FIRST_PAYMENT_BEFORE_INVOICE, { at: NOW });
    const task = driver.task('Recepción Factura Broker');
    const base = `/api/payment-flows/${flowId}/tasks/${task}`;
    return { admin, payments, broker, reservation, flowId, task, driver, base };
  }

  async function panel(agent: Agent, flowId: string): Promise<InvoiceTaskView> {
    const response = await agent.get(`/api/payment-flows/${flowId}/invoices`);
    expect(response.statusCode, response.body).toBe(200);
    const tasks = response.json().tasks as InvoiceTaskView[];
    expect(tasks).toHaveLength(1);
    return tasks[0]!;
  }

  const complete = (agent: Agent, base: string) => agent.put(`${base}/status`, { status: 'completed' });

  async function invoiceCount(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from broker_invoices`,
    );
    return row!.count;
  }

  it('records the SII XML as read; a matching invoice lets the task complete', async () => {
    const { payments, flowId, base } = await atInvoiceTask();
    const recorded = await payments.post(`${base}/invoice/xml`, xmlBody());
    expect(recorded.statusCode, recorded.body).toBe(200);
    const task = recorded.json().task as InvoiceTaskView;
    expect(task.taskName).toBe('Recepción Factura Broker');
    expect(task.invoice).toMatchObject({
      kind: 'taxed',
      issuerRut: BROKER_RUT,
      folio: '1234',
      issueDate: '2026-11-16',
      receivedDate: '2026-11-20',
      netAmount: '3361345',
      vatAmount: '638656',
      totalAmount: '4000001',
      source: 'xml',
      acceptance: null,
    });
    expect(task.expected).toEqual({
      clp: '4000000',
      basis: 'issueDate',
      ufValue: '40000.00',
      ufDate: '2026-11-16',
      includesVat: true,
    });
    expect(task.check!.matches).toBe(true);
    // The invoice is the record: the commission's 'Factura 1' and its date are the invoice's (issue 53).
    const [commission] = await queryRows<{ invoice: string | null; date: string | null }>(
      ctx.db,
      sql`select c.invoice_1 as invoice, c.invoice_1_date::text as date
            from flows f join broker_commissions c on c.id = f.broker_commission_id where f.id = ${flowId}`,
    );
    expect(commission).toEqual({ invoice: '1234', date: '2026-11-16' });
    expect(task.claim).toEqual({
      deadline: '2026-11-28',
      daysLeft: 8,
      isExpired: false,
      label: 'Quedan 8 días para reclamar la factura',
    });
    expect(task).toMatchObject({ completionBlock: null, canRecord: true, canAccept: false });

    const done = await complete(payments, base);
    expect(done.statusCode, done.body).toBe(200);
    expect((await panel(payments, flowId)).taskStatus).toBe('completed');
  });

  it('shows a mismatch line by line and refuses the completion until an administrator accepts it with a reason', async () => {
    const { admin, payments, flowId, base } = await atInvoiceTask();
    const recorded = await payments.post(
      `${base}/invoice`,
      manual({ netAmount: '3300000', vatAmount: '627000', totalAmount: '3927000' }),
    );
    expect(recorded.statusCode, recorded.body).toBe(201);
    const task = recorded.json().task as InvoiceTaskView;
    expect(task.check!.matches).toBe(false);
    expect(task.check!.lines.map((line) => [line.label, line.expected, line.received, line.matches])).toEqual(
      [
        ['RUT emisor', BROKER_RUT, BROKER_RUT, true],
        ['Neto', '3361345', '3300000', false],
        // The IVA is checked against the net the payment expects (issue 53): 19 % of a wrong net is wrong.
        ['IVA (19 %)', '638656', '627000', false],
        ['Total', '4000000', '3927000', false],
      ],
    );
    const block =
      'La factura del broker no cuadra con el pago (Neto, IVA (19 %), Total): un administrador debe aceptar la diferencia, con un motivo, antes de completar la tarea.';
    expect(task).toMatchObject({ completionBlock: block, canAccept: false });

    const refused = await complete(payments, base);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toMatchObject({ code: 'BROKER_INVOICE_MISMATCH', message: block });
    expect((await complete(admin, base)).statusCode).toBe(409);
    expect((await panel(admin, flowId)).taskStatus).not.toBe('completed');

    // The payments team may not accept; an administrator sees that they may, and does, with a reason.
    const version = task.invoice!.version;
    const denied = await payments.post(`${base}/invoice/acceptance`, { reason: 'Acordado', version });
    expect(denied.statusCode).toBe(403);
    expect(errorOf(denied).message).toBe(
      'Solo un administrador puede aceptar una diferencia entre la factura y el pago.',
    );
    expect((await panel(admin, flowId)).canAccept).toBe(true);
    const noReason = await admin.post(`${base}/invoice/acceptance`, { reason: '  ', version });
    expect(noReason.statusCode).toBe(400);
    const accepted = await admin.post(`${base}/invoice/acceptance`, {
      reason: 'El broker descontó el anticipo de octubre',
      version,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().task).toMatchObject({
      completionBlock: null,
      canAccept: false,
      invoice: {
        acceptance: { reason: 'El broker descontó el anticipo de octubre', byName: 'Camila Fuentes' },
      },
    });

    expect((await complete(payments, base)).statusCode).toBe(200);
    // The acceptance is in the payment flow's 'Historial'.
    const history = (await admin.get(`/api/audit/history/flows/${flowId}?pageSize=50`)).json() as AuditPage;
    const changes = history.rows.flatMap((row) =>
      row.changes.map((change) => `${change.field}: ${change.after}`),
    );
    expect(changes).toContain('Motivo de la aceptación: El broker descontó el anticipo de octubre');
    expect(changes).toContain('Documento: Factura electrónica afecta');
  });

  it('refuses accepting an invoice that matches, and an acceptance on a stale version', async () => {
    const { admin, payments, base } = await atInvoiceTask();
    const matching = (await payments.post(`${base}/invoice`, manual())).json().task as InvoiceTaskView;
    expect(matching.check!.matches).toBe(true);
    const nothing = await admin.post(`${base}/invoice/acceptance`, {
      reason: 'x',
      version: matching.invoice!.version,
    });
    expect(nothing.statusCode).toBe(409);
    expect(errorOf(nothing).message).toBe(
      'La factura cuadra con el pago: no hay una diferencia que aceptar.',
    );
    const stale = await admin.post(`${base}/invoice/acceptance`, { reason: 'x', version: 99 });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_VERSION');
  });

  it('corrects an invoice with its version: a stale one is refused and overwrites nothing; a change takes the acceptance back', async () => {
    const { admin, payments, flowId, base } = await atInvoiceTask();
    const first = (await payments.post(`${base}/invoice`, manual({ totalAmount: '3990000' }))).json()
      .task as InvoiceTaskView;
    const accepted = (
      await admin.post(`${base}/invoice/acceptance`, {
        reason: 'Redondeo del broker',
        version: first.invoice!.version,
      })
    ).json().task as InvoiceTaskView;
    expect(accepted.invoice!.acceptance).not.toBeNull();

    // Someone who read the first version saves late: 409, nothing overwritten.
    const stale = await payments.put(
      `${base}/invoice`,
      manual({ folio: '78', version: first.invoice!.version }),
    );
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toBe('El registro fue modificado por otro usuario. Recargue la página.');
    expect((await panel(payments, flowId)).invoice!.folio).toBe('77');
    // Without a version there is nothing to compare with.
    expect((await payments.put(`${base}/invoice`, manual({ folio: '78' }))).statusCode).toBe(409);
    // A second POST does not replace the invoice.
    const again = await payments.post(`${base}/invoice`, manual({ folio: '79' }));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('BROKER_INVOICE_EXISTS');

    const corrected = await payments.put(
      `${base}/invoice`,
      manual({ totalAmount: '3980000', version: accepted.invoice!.version }),
    );
    expect(corrected.statusCode, corrected.body).toBe(200);
    const after = corrected.json().task as InvoiceTaskView;
    expect(after.invoice).toMatchObject({ totalAmount: '3980000', acceptance: null });
    expect(after.invoice!.version).toBe(accepted.invoice!.version + 1);
    expect(after.completionBlock).toMatch(/^La factura del broker no cuadra con el pago \(Total\)/);
  });

  it('checks an exenta and a boleta de honorarios with the year rate of the table', async () => {
    const { payments, flowId, base } = await atInvoiceTask({ commission: { commissionIncludesTax: false } });
    const exempt = await payments.post(
      `${base}/invoice`,
      manual({ kind: 'exempt', netAmount: '4000000', vatAmount: null, totalAmount: '4000000' }),
    );
    expect(exempt.statusCode, exempt.body).toBe(201);
    const exemptTask = exempt.json().task as InvoiceTaskView;
    expect(exemptTask.invoice).toMatchObject({ vatAmount: '0', totalAmount: '4000000' });
    expect(exemptTask.check!.matches).toBe(true);

    // 2026: 15,25 % of 4.000.000 = 610.000.
    const fees = await payments.put(`${base}/invoice`, {
      kind: 'fees',
      issuerRut: BROKER_RUT,
      folio: '15',
      issueDate: '2026-11-16',
      grossAmount: '4000000',
      withholdingAmount: '610000',
      payableAmount: '3390000',
      version: exemptTask.invoice!.version,
    });
    expect(fees.statusCode, fees.body).toBe(200);
    const feesTask = fees.json().task as InvoiceTaskView;
    expect(feesTask.invoice).toMatchObject({ kind: 'fees', netAmount: null, grossAmount: '4000000' });
    // A boleta has no factura's claim period (issue 53).
    expect(feesTask.claim).toBeNull();
    expect(feesTask.check).toEqual({
      matches: true,
      lines: [
        expect.objectContaining({ label: 'RUT emisor', matches: true }),
        expect.objectContaining({ label: 'Monto bruto', expected: '4000000', matches: true }),
        expect.objectContaining({ label: 'Retención (15,25 %)', expected: '610000', matches: true }),
        expect.objectContaining({ label: 'Líquido a pagar', expected: '3390000', matches: true }),
      ],
    });
    // Last year's 14,5 % is a mismatch this year.
    const old = await payments.put(`${base}/invoice`, {
      kind: 'fees',
      issuerRut: BROKER_RUT,
      folio: '15',
      issueDate: '2026-11-16',
      grossAmount: '4000000',
      withholdingAmount: '580000',
      payableAmount: '3420000',
      version: feesTask.invoice!.version,
    });
    expect((old.json().task as InvoiceTaskView).check!.matches).toBe(false);
    expect((await panel(payments, flowId)).completionBlock).toContain('(Retención (15,25 %))');
  });

  it("says 'Valor UF no disponible' when the issue date has no UF value, and never guesses", async () => {
    const { payments, base } = await atInvoiceTask();
    const task = (await payments.post(`${base}/invoice`, manual({ issueDate: '2026-11-17' }))).json()
      .task as InvoiceTaskView;
    expect(task.expected).toMatchObject({ clp: null, ufValue: null, ufDate: '2026-11-17' });
    expect(task.check!.lines.find((line) => line.key === 'total')).toMatchObject({
      expected: null,
      matches: false,
      note: 'Valor UF no disponible',
    });
    expect((await complete(payments, base)).statusCode).toBe(409);
  });

  it('checks against the frozen pesos once the payment is dated', async () => {
    const { payments, base } = await atInvoiceTask({
      commission: { payment1Date: '2026-11-18', payment1Clp: '4100000', payment1UfValue: '41000.00' },
    });
    const task = (await payments.post(`${base}/invoice/xml`, xmlBody())).json().task as InvoiceTaskView;
    expect(task.expected).toMatchObject({
      clp: '4100000',
      basis: 'frozen',
      ufValue: '41000.00',
      ufDate: '2026-11-18',
    });
    expect(task.check!.lines.find((line) => line.key === 'total')).toMatchObject({
      expected: '4100000',
      received: '4000001',
      matches: false,
    });
  });

  it('refuses bad input with a Spanish message and records nothing', async () => {
    const { payments, flowId, base } = await atInvoiceTask();
    const refusal = async (response: Awaited<ReturnType<Agent['post']>>, status: number, message: string) => {
      expect(response.statusCode, response.body).toBe(status);
      expect(errorOf(response).message).toBe(message);
    };

    await refusal(
      await payments.post(`${base}/invoice/xml`, xmlBody('<html><body>factura</body></html>')),
      400,
      'El archivo no es una factura electrónica del SII: no es un documento tributario electrónico del SII. No se registró nada.',
    );
    await refusal(
      await payments.post(
        `${base}/invoice/xml`,
        xmlBody(fixtureWith((t) => t.replace('<TipoDTE>33', '<TipoDTE>39'))),
      ),
      400,
      'El archivo no es una factura electrónica del SII: es un documento tipo 39, no una factura electrónica (33 o 34). No se registró nada.',
    );
    await refusal(
      await payments.post(
        `${base}/invoice/xml`,
        xmlBody(fixtureWith((t) => t.replace('<RUTEmisor>76543210-3', '<RUTEmisor>77889900-0'))),
      ),
      400,
      'La factura fue emitida por el RUT 77.889.900-0, no por el broker de esta comisión (76.543.210-3). No se registró nada.',
    );
    await refusal(
      await payments.post(`${base}/invoice`, manual({ issuerRut: '77.889.900-0' })),
      400,
      'La factura fue emitida por el RUT 77.889.900-0, no por el broker de esta comisión (76.543.210-3). No se registró nada.',
    );
    await refusal(
      await payments.post(`${base}/invoice`, manual({ issueDate: '2026-11-21' })),
      400,
      'La fecha de emisión no puede ser posterior a hoy.',
    );
    await refusal(
      await payments.post(`${base}/invoice`, manual({ receivedDate: '2026-11-15' })),
      400,
      'La fecha de recepción debe estar entre la fecha de emisión y hoy.',
    );
    const negative = await payments.post(`${base}/invoice`, manual({ netAmount: '-3361345' }));
    expect(negative.statusCode).toBe(400);
    expect(errorOf(negative).fields).toEqual({
      netAmount: 'Ingrese un monto en pesos: entero y no negativo',
    });
    const missing = await payments.post(`${base}/invoice`, manual({ vatAmount: null }));
    expect(errorOf(missing).fields).toEqual({ vatAmount: 'Ingrese el monto' });

    expect(await invoiceCount()).toBe(0);
    expect((await panel(payments, flowId)).invoice).toBeNull();
  });

  it('refuses a folio the same broker already used on another payment (the database holds it too)', async () => {
    const first = await atInvoiceTask();
    expect((await first.payments.post(`${first.base}/invoice/xml`, xmlBody())).statusCode).toBe(200);

    // The same broker's second reservation: its invoice cannot reuse folio 1234 of a factura afecta.
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: first.broker.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at: NOW });
    await createCommission(ctx.db, reservation, { commissionAmount: '100.00' });
    const { flowId } = (await first.admin.post(`/api/payments/${reservation.id}/first-flow`)).json();
    const driver = await FlowDriver.open(ctx.db, flowId);
    await driver.start({ at: NOW });
    const base = `/api/payment-flows/${flowId}/tasks/${driver.task('Recepción Factura Broker')}`;
    const taken = await first.payments.post(`${base}/invoice/xml`, xmlBody());
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toMatchObject({
      message: 'El broker ya tiene registrada una factura electrónica afecta con el folio 1234.',
      fields: { folio: 'El broker ya tiene registrada una factura electrónica afecta con el folio 1234.' },
    });
    // An exenta 1234 is another document (SII folios run per document type).
    const exempt = await first.payments.post(
      `${base}/invoice`,
      manual({ kind: 'exempt', folio: '1234', netAmount: '4000000', totalAmount: '4000000' }),
    );
    expect(exempt.statusCode, exempt.body).toBe(201);
    expect(await invoiceCount()).toBe(2);

    // The unique key, whoever writes.
    const [existing] = await queryRows<{ flow_task_id: string }>(
      ctx.db,
      sql`select flow_task_id from broker_invoices where folio = '1234' and kind = 'taxed'`,
    );
    expect(existing).toBeDefined();
    await expect(
      asSystem(ctx.appDb, (tx) =>
        tx.execute(sql`insert into broker_invoices
            (flow_task_id, flow_id, broker_id, kind, issuer_rut, folio, issue_date, received_date,
             net_amount, vat_amount, total_amount, source)
          select ft.id, ft.flow_id, ${first.broker.id}, 'taxed', ${BROKER_RUT}, '1234', '2026-11-16', '2026-11-16',
                 1, 0, 1, 'manual'
            from flow_tasks ft where ft.flow_id = ${first.flowId} and ft.id <> ${first.task} limit 1`),
      ),
    ).rejects.toSatisfy((error) => isUniqueViolation(error, 'broker_invoices_folio_key'));
  });

  it('lets a task with no invoice complete, unless its checklist requires the broker’s invoice', async () => {
    const { admin, payments, reservation, base, driver } = await atInvoiceTask();
    // Required by Configuración → Documentos: the paper first, then the invoice's data.
    const types = (await admin.get('/api/document-types')).json();
    const invoiceType = types.types.find((type: { name: string }) => type.name === 'Factura del broker');
    const [definitionTask] = await queryRows<{ id: string }>(
      ctx.db,
      sql`select task_id as id from flow_tasks where id = ${driver.task('Recepción Factura Broker')}`,
    );
    const configured = await admin.put(`/api/document-types/${invoiceType.id}`, {
      name: invoiceType.name,
      isRestricted: true,
      sortOrder: invoiceType.sortOrder,
      requiredByTaskIds: [definitionTask!.id],
      version: invoiceType.version,
    });
    expect(configured.statusCode, configured.body).toBe(200);

    const noPaper = await complete(payments, base);
    expect(errorOf(noPaper).code).toBe('TASK_DOCUMENT_MISSING');
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
      'latin1',
    );
    const uploaded = await payments.post(
      `/api/reservations/${reservation.id}/documents?typeId=${invoiceType.id}&fileName=factura-1234.pdf`,
      pdf,
      { 'content-type': 'application/octet-stream' },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const noInvoice = await complete(payments, base);
    expect(noInvoice.statusCode).toBe(409);
    expect(errorOf(noInvoice).message).toBe('Registre la factura del broker antes de completar la tarea.');
    expect((await payments.post(`${base}/invoice/xml`, xmlBody())).statusCode).toBe(200);
    expect((await complete(payments, base)).statusCode).toBe(200);
  });

  it('completes a task with no invoice when nothing requires one (flows in progress are not stopped)', async () => {
    const { payments, flowId, base } = await atInvoiceTask();
    const task = await panel(payments, flowId);
    expect(task).toMatchObject({ invoice: null, check: null, claim: null, completionBlock: null });
    expect((await complete(payments, base)).statusCode).toBe(200);
  });

  it('lists the second payment’s invoice task on the second flow', async () => {
    const { admin, payments, reservation, driver } = await atInvoiceTask({
      commission: { numberOfPayments: 2, firstPaymentPercentage: 50 },
    });
    await driver.completeAll(
      [
        'Recepción Factura Broker',
        'Generación de Entrada',
        'Aprobación de Entrada',
        'Notificación a Finanzas',
        'Fecha de Pago',
      ],
      { at: NOW },
    );
    const { flowId } = (await admin.post(`/api/payments/${reservation.id}/second-flow`)).json();
    const task = await panel(payments, flowId);
    expect(task.taskName).toBe('Recepción Factura 2 Broker');
  });

  it('allows and denies each route by who asks', async () => {
    const { admin, payments, flowId, base, driver } = await atInvoiceTask();
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const supervisor = await loginAs(ctx, { userType: 'Supervisor' });
    const operations = await loginAs(ctx, { userType: 'Operaciones' });
    const forbidden = 'Solo el equipo de pagos y los administradores registran la factura del broker.';

    // Without a session nothing is read or written.
    const stranger = new Agent(ctx.app);
    expect((await stranger.get(`/api/payment-flows/${flowId}/invoices`)).statusCode).toBe(401);
    expect((await stranger.post(`${base}/invoice/xml`, xmlBody())).statusCode).toBe(401);

    // Everyone on the staff reads; only the payments team and administrators may record.
    for (const reader of [kam, supervisor, operations]) {
      expect(await panel(reader, flowId)).toMatchObject({ canRecord: false, canAccept: false });
      for (const response of [
        await reader.post(`${base}/invoice`, manual()),
        await reader.put(`${base}/invoice`, manual({ version: 1 })),
        await reader.post(`${base}/invoice/xml`, xmlBody()),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(errorOf(response).message).toBe(forbidden);
      }
      expect((await reader.post(`${base}/invoice/acceptance`, { reason: 'x', version: 1 })).statusCode).toBe(
        403,
      );
    }
    expect((await panel(payments, flowId)).canRecord).toBe(true);
    const created = await payments.post(`${base}/invoice`, manual({ totalAmount: '1' }));
    expect(created.statusCode).toBe(201);
    const version = (created.json().task as InvoiceTaskView).invoice!.version;
    expect((await payments.post(`${base}/invoice/acceptance`, { reason: 'x', version })).statusCode).toBe(
      403,
    );
    const accepted = await admin.post(`${base}/invoice/acceptance`, {
      reason: 'Visto con el broker',
      version,
    });
    expect(accepted.statusCode).toBe(200);
    const fixed = await admin.put(`${base}/invoice`, manual({ version: version + 1 }));
    expect(fixed.statusCode).toBe(200);
    expect((await payments.post(`${base}/invoice/xml`, xmlBody())).statusCode).toBe(409);

    // A completed task's invoice: administrators only.
    await driver.complete('Recepción Factura Broker', { at: NOW });
    const current = await panel(payments, flowId);
    expect(current.canRecord).toBe(false);
    const late = await payments.put(
      `${base}/invoice`,
      manual({ folio: '80', version: current.invoice!.version }),
    );
    expect(late.statusCode).toBe(403);
    expect(errorOf(late).message).toBe(
      'La tarea ya está completada: solo un administrador puede cambiar su factura.',
    );
    expect((await panel(admin, flowId)).canRecord).toBe(true);
    const byAdmin = await admin.put(
      `${base}/invoice`,
      manual({ folio: '80', version: current.invoice!.version }),
    );
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('refuses a correction of an invoice never recorded, and any change once the flow is cancelled', async () => {
    const { admin, payments, flowId, base, driver } = await atInvoiceTask();
    const none = await payments.put(`${base}/invoice`, manual({ version: 1 }));
    expect(none.statusCode).toBe(404);
    expect(errorOf(none).message).toBe('Esta tarea no tiene una factura registrada.');
    const recorded = (await payments.post(`${base}/invoice`, manual({ totalAmount: '1' }))).json()
      .task as InvoiceTaskView;
    await driver.cancel({ at: NOW });
    const closed =
      'El flujo de pago está cancelado o su reserva resciliada: la factura no se puede modificar.';
    const late = await payments.put(`${base}/invoice`, manual({ version: recorded.invoice!.version }));
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).message).toBe(closed);
    const accept = await admin.post(`${base}/invoice/acceptance`, {
      reason: 'x',
      version: recorded.invoice!.version,
    });
    expect(errorOf(accept).message).toBe(closed);
    expect(await panel(admin, flowId)).toMatchObject({ canRecord: false, canAccept: false });
  });

  it('answers 404 for a task that does not receive the invoice, and for a flow that is not a payment flow', async () => {
    const { payments, flowId, driver, reservation } = await atInvoiceTask();
    const other = await payments.post(
      `/api/payment-flows/${flowId}/tasks/${driver.task('Envío OC Broker')}/invoice`,
      manual(),
    );
    expect(other.statusCode).toBe(404);
    expect(errorOf(other).message).toBe('Esta tarea no recibe la factura del broker.');
    const [sale] = await queryRows<{ id: string }>(
      ctx.db,
      sql`select id from flows where reservation_id = ${reservation.id} and kind = 'sale'`,
    );
    expect((await payments.get(`/api/payment-flows/${sale!.id}/invoices`)).statusCode).toBe(404);
  });
});
