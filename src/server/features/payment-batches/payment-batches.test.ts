import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import type { BatchCandidate, PaymentBatchView } from '../../../shared/schemas/payment-batches';
import { asSystem } from '../../db/actor';
import { queryRows } from '../../db/client';
import { isUniqueViolation } from '../../http/app-error';
import { type Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation, seedUfValues } from '../../test/builders';
import { createCommission, createSaleFlow, FlowDriver } from '../../test/flow-builders';
import {
  FIRST_PAYMENT_BEFORE_INVOICE,
  FIRST_PAYMENT_INVOICE_TO_FINANCE,
} from '../../test/payment-flow-tasks';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');
/** Three days before: the flows of the tests that pay on a past day were worked then. */
const EARLIER = new Date('2026-11-17T15:00:00Z');

const BANK = {
  bankName: 'Banco de Chile',
  bankAccountType: 'Cuenta Corriente' as const,
  bankAccountNumber: '0012345678',
  paymentEmail: 'pagos@corredora.cl',
};

describe("'Nómina de pago': the bank's payment batch", () => {
  const ctx = useTestApp({ now: () => NOW });
  let folio = 100;

  async function people() {
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos', firstName: 'Pía', lastName: 'Rojas' });
    // The UF of the invoices' issue date (4.000.000 pesos for UF 100), of today and of the past days paid.
    await seedUfValues(ctx.appDb, {
      '2026-11-16': '40000.00',
      '2026-11-18': '40010.00',
      '2026-11-19': '40020.00',
      '2026-11-20': '40030.00',
    });
    return { admin, payments };
  }

  /**
   * A commission of UF 100 (one payment, IVA included) whose payment flow waits at 'Fecha de Pago':
   * its invoice recorded by the payments team (matching, or 10.000 pesos short), every task before
   * completed at `at` through the engine.
   */
  async function atPaymentDate(
    who: { admin: Agent; payments: Agent },
    options: { bank?: boolean; mismatch?: boolean; at?: Date; brokerId?: string } = {},
  ) {
    const at = options.at ?? NOW;
    const broker = options.brokerId
      ? { id: options.brokerId }
      : await createBroker(ctx.db, options.bank === false ? {} : BANK);
    const [brokerRow] = await queryRows<{ rut: string }>(
      ctx.db,
      sql`select rut from brokers where id = ${broker.id}`,
    );
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at });
    await createCommission(ctx.db, reservation, { commissionAmount: '100.00' });
    const { flowId } = (await who.admin.post(`/api/payments/${reservation.id}/first-flow`)).json();
    const driver = await FlowDriver.open(ctx.db, flowId);
    await driver.start({ at });
    await driver.completeAll(FIRST_PAYMENT_BEFORE_INVOICE, { at });
    folio += 1;
    const recorded = await who.payments.post(
      `/api/payment-flows/${flowId}/tasks/${driver.task('Recepción Factura Broker')}/invoice`,
      {
        kind: 'taxed',
        issuerRut: brokerRow!.rut,
        folio: String(folio),
        issueDate: '2026-11-16',
        receivedDate: '2026-11-16',
        netAmount: options.mismatch ? '3352941' : '3361345',
        vatAmount: options.mismatch ? '637059' : '638655',
        totalAmount: options.mismatch ? '3990000' : '4000000',
      },
    );
    expect(recorded.statusCode, recorded.body).toBe(201);
    if (options.mismatch) {
      const task = recorded.json().task;
      const accepted = await who.admin.post(
        `/api/payment-flows/${flowId}/tasks/${driver.task('Recepción Factura Broker')}/invoice/acceptance`,
        { reason: 'Acordado con el broker', version: task.invoice.version },
      );
      expect(accepted.statusCode, accepted.body).toBe(200);
    }
    await driver.completeAll(FIRST_PAYMENT_INVOICE_TO_FINANCE, { at });
    return { broker, reservation, flowId, driver, folio: String(folio) };
  }

  async function candidates(agent: Agent): Promise<BatchCandidate[]> {
    const response = await agent.get('/api/payment-batches/candidates');
    expect(response.statusCode, response.body).toBe(200);
    return response.json().rows;
  }

  async function createBatch(agent: Agent, flowIds: string[]): Promise<PaymentBatchView> {
    const response = await agent.post('/api/payment-batches', { flowIds });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().batch;
  }

  async function paymentOf(flowId: string) {
    const [row] = await queryRows<{ date: string | null; clp: string | null; ufValue: string | null }>(
      ctx.db,
      sql`select c.payment_1_date::text as date, c.payment_1_clp::text as clp, c.payment_1_uf_value::text as "ufValue"
            from flows f join broker_commissions c on c.id = f.broker_commission_id where f.id = ${flowId}`,
    );
    return row!;
  }

  async function flowStatus(flowId: string) {
    const [row] = await queryRows<{ status: string }>(
      ctx.db,
      sql`select status from flows where id = ${flowId}`,
    );
    return row!.status;
  }

  it('lists the payments waiting for their date: payable with bank data and the invoice; the rest with why', async () => {
    const who = await people();
    const ready = await atPaymentDate(who);
    const noBank = await atPaymentDate(who, { bank: false });
    const accepted = await atPaymentDate(who, { mismatch: true });
    // Still at the invoice task: not waiting for its payment date, not listed.
    const early = await createBroker(ctx.db, BANK);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: early.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at: NOW });
    await createCommission(ctx.db, reservation);
    const { flowId: earlyFlow } = (await who.admin.post(`/api/payments/${reservation.id}/first-flow`)).json();

    const rows = await candidates(who.payments);
    const byFlow = new Map(rows.map((row) => [row.flowId, row]));
    expect(byFlow.has(earlyFlow)).toBe(false);
    expect(byFlow.get(ready.flowId)).toMatchObject({
      reservationNumber: ready.reservation.reservationNumber,
      paymentNumber: 1,
      bankName: 'Banco de Chile',
      bankAccountType: 'Cuenta Corriente',
      bankAccountNumber: '0012345678',
      email: 'pagos@corredora.cl',
      amountClp: '4000000',
      invoiceFolio: ready.folio,
      reference: `Comision reserva ${ready.reservation.reservationNumber} pago 1`,
      isPayable: true,
      notPayableReason: null,
    });
    expect(byFlow.get(noBank.flowId)).toMatchObject({
      isPayable: false,
      notPayableReason: 'El broker no tiene datos bancarios',
      bankName: null,
    });
    // A mismatch an administrator accepted is paid as invoiced.
    expect(byFlow.get(accepted.flowId)).toMatchObject({ isPayable: true, amountClp: '3990000' });
  });

  it('a corrected invoice that no longer matches, unaccepted, keeps the payment out of a batch', async () => {
    const who = await people();
    const { flowId, driver } = await atPaymentDate(who);
    const task = driver.task('Recepción Factura Broker');
    const [invoice] = await queryRows<{ version: number }>(
      ctx.db,
      sql`select version from broker_invoices where flow_task_id = ${task}`,
    );
    // An administrator corrects the completed task's invoice: the figures no longer match.
    const corrected = await who.admin.put(`/api/payment-flows/${flowId}/tasks/${task}/invoice`, {
      kind: 'taxed',
      issuerRut: (
        await queryRows<{ rut: string }>(
          ctx.db,
          sql`select b.rut from broker_invoices i join brokers b on b.id = i.broker_id where i.flow_task_id = ${task}`,
        )
      )[0]!.rut,
      folio: '9999',
      issueDate: '2026-11-16',
      receivedDate: '2026-11-16',
      netAmount: '3000000',
      vatAmount: '570000',
      totalAmount: '3570000',
      version: invoice!.version,
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const row = (await candidates(who.payments)).find((candidate) => candidate.flowId === flowId)!;
    expect(row).toMatchObject({
      isPayable: false,
      notPayableReason:
        'La factura folio 9999 no cuadra con el pago y un administrador no ha aceptado la diferencia',
    });
    const refused = await who.payments.post('/api/payment-batches', { flowIds: [flowId] });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain('no está listo para pagar');
    expect(await batchCount()).toBe(0);
  });

  async function batchCount() {
    const [row] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from payment_batches`,
    );
    return row!.count;
  }

  it('saves a batch (who, when, total, count) with the bank data as the file carries it; refuses the unpayable', async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const b = await atPaymentDate(who, { brokerId: a.broker.id });
    const noBank = await atPaymentDate(who, { bank: false });

    const refused = await who.payments.post('/api/payment-batches', { flowIds: [a.flowId, noBank.flowId] });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      `El pago 1 de la reserva ${noBank.reservation.reservationNumber} no está listo para pagar. El broker no tiene datos bancarios.`,
    );
    expect(await batchCount()).toBe(0);

    const batch = await createBatch(who.payments, [a.flowId, b.flowId]);
    expect(batch).toMatchObject({
      number: expect.any(Number),
      status: 'open',
      paymentCount: 2,
      totalClp: '8000000',
      createdByName: 'Pía Rojas',
      paidDate: null,
      canExport: true,
      canMarkPaid: true,
      canChoosePaidDate: false,
      canCancel: true,
    });
    expect(batch.lines.map((line) => line.flowId)).toEqual([a.flowId, b.flowId]);
    expect(batch.lines[0]).toMatchObject({ bankAccountNumber: '0012345678', amountClp: '4000000' });

    const list = await who.payments.get('/api/payment-batches');
    expect(list.json()).toMatchObject({
      total: 1,
      rows: [{ id: batch.id, paymentCount: 2, totalClp: '8000000' }],
    });
    // The batch's making is audited (count, total).
    const [log] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from audit_log where table_name = 'payment_batches' and action = 'insert'`,
    );
    expect(log!.count).toBe(1);

    const duplicated = await who.payments.post('/api/payment-batches', { flowIds: [a.flowId, a.flowId] });
    expect(duplicated.statusCode).toBe(400);
    expect(errorOf(duplicated).code).toBe('PAYMENT_BATCH_DUPLICATE_PAYMENT');
  });

  it('a payment is in at most one open batch: the service refuses, the database refuses, a cancelled batch frees it', async () => {
    const who = await people();
    const { flowId, reservation } = await atPaymentDate(who);
    const first = await createBatch(who.payments, [flowId]);

    const again = await who.payments.post('/api/payment-batches', { flowIds: [flowId] });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(
      `El pago 1 de la reserva ${reservation.reservationNumber} no está listo para pagar. Ya está en la nómina abierta N° ${first.number}.`,
    );
    const listed = (await candidates(who.payments)).find((row) => row.flowId === flowId)!;
    expect(listed).toMatchObject({ isPayable: false, openBatchNumber: first.number });

    // Past the service (two requests at once): the partial unique index holds.
    const direct = await asSystem(ctx.appDb, async (tx) => {
      const [batch] = await queryRows<{ id: string }>(
        tx,
        sql`insert into payment_batches (payment_count, total_clp) values (1, 1) returning id`,
      );
      await tx.execute(
        sql`insert into payment_batch_items (batch_id, flow_id, sort_order, broker_id, broker_rut, broker_name,
              bank_name, bank_account_type, bank_account_number, amount_clp, reference)
            select ${batch!.id}, flow_id, 1, broker_id, broker_rut, broker_name, bank_name, bank_account_type,
                   bank_account_number, amount_clp, reference
              from payment_batch_items where batch_id = ${first.id}`,
      );
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(direct, 'payment_batch_items_open_flow_key')).toBe(true);

    const cancelled = await who.payments.post(`/api/payment-batches/${first.id}/cancel`, {
      version: first.version,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().batch).toMatchObject({
      status: 'cancelled',
      canMarkPaid: false,
      canCancel: false,
    });
    const second = await createBatch(who.payments, [flowId]);
    expect(second.number).toBeGreaterThan(first.number);
    // A cancelled batch is not paid.
    const paidCancelled = await who.payments.post(`/api/payment-batches/${first.id}/paid`, {
      paidDate: '2026-11-20',
      version: first.version + 1,
    });
    expect(paidCancelled.statusCode).toBe(409);
    expect(errorOf(paidCancelled).code).toBe('PAYMENT_BATCH_NOT_OPEN');
  });

  it("marked paid today: every payment's 'Fecha de Pago' completed through the engine, dates and pesos set as by hand", async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const b = await atPaymentDate(who);
    const batch = await createBatch(who.payments, [a.flowId, b.flowId]);

    const paid = await who.payments.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-20',
      version: batch.version,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().batch).toMatchObject({
      status: 'paid',
      paidDate: '2026-11-20',
      paidByName: 'Pía Rojas',
      canMarkPaid: false,
      canCancel: false,
    });
    for (const { flowId, driver } of [a, b]) {
      expect(await flowStatus(flowId)).toBe('completed');
      const task = (await driver.state()).tasks.find((row) => row.id === driver.task('Fecha de Pago'))!;
      expect(task.status).toBe('completed');
      expect(task.completedBy).toBe(who.payments.user!.id);
      // The payment's date and its pesos at that day's UF (40.030,00 × 100), frozen by the engine's hook.
      expect(await paymentOf(flowId)).toEqual({ date: '2026-11-20', clp: '4003000', ufValue: '40030.00' });
    }
    // The payment flow's history shows the completion, by the payments team.
    const [audited] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from audit_log
           where table_name = 'flow_tasks' and record_id = ${a.driver.task('Fecha de Pago')}
             and after ->> 'status' = 'completed' and actor_id = ${who.payments.user!.id}`,
    );
    expect(audited!.count).toBe(1);
    // Paid: nothing left to pay, and the batch is no longer open.
    expect((await candidates(who.payments)).map((row) => row.flowId)).not.toContain(a.flowId);
    const [open] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from payment_batch_items where is_open`,
    );
    expect(open!.count).toBe(0);
  });

  it('20 concurrent "mark paid": one pays, the others hear it is no longer open; the effect happens once', async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const b = await atPaymentDate(who);
    const batch = await createBatch(who.payments, [a.flowId, b.flowId]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        who.payments.post(`/api/payment-batches/${batch.id}/paid`, {
          paidDate: '2026-11-20',
          version: batch.version,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    for (const answer of answers.filter((one) => one.statusCode === 409)) {
      expect(errorOf(answer).code).toBe('PAYMENT_BATCH_NOT_OPEN');
    }
    const [batchRow] = await queryRows<{ version: number; status: string }>(
      ctx.db,
      sql`select version, status from payment_batches where id = ${batch.id}`,
    );
    expect(batchRow).toEqual({ version: batch.version + 1, status: 'paid' });
    // Each payment completed once: one completion of its task, one payment date written.
    const [completions] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from audit_log
           where table_name = 'flow_tasks' and record_id in (${a.driver.task('Fecha de Pago')}, ${b.driver.task('Fecha de Pago')})
             and after ->> 'status' = 'completed'`,
    );
    expect(completions!.count).toBe(2);
    const [dates] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from audit_log
           where table_name = 'broker_commissions' and action = 'update' and after ? 'payment_1_date'`,
    );
    expect(dates!.count).toBe(2);
  });

  it('a past day: administrators only, the payment dated that day; a future day refused; nothing changes on refusal', async () => {
    const who = await people();
    const a = await atPaymentDate(who, { at: EARLIER });
    const batch = await createBatch(who.payments, [a.flowId]);

    const notToday = await who.payments.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-19',
      version: batch.version,
    });
    expect(notToday.statusCode).toBe(403);
    expect(errorOf(notToday).message).toBe(
      'Solo un administrador puede registrar una fecha de pago distinta de hoy.',
    );
    const future = await who.admin.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-21',
      version: batch.version,
    });
    expect(future.statusCode).toBe(400);
    expect(errorOf(future).message).toBe('La fecha de pago no puede ser posterior a hoy.');
    const badDate = await who.admin.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-02-30',
      version: batch.version,
    });
    expect(badDate.statusCode).toBe(400);
    expect(await flowStatus(a.flowId)).toBe('in_progress');
    expect(await paymentOf(a.flowId)).toEqual({ date: null, clp: null, ufValue: null });

    const adminView = await who.admin.get(`/api/payment-batches/${batch.id}`);
    expect(adminView.json().batch.canChoosePaidDate).toBe(true);
    const stale = await who.admin.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-19',
      version: batch.version + 5,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_VERSION');

    const paid = await who.admin.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-19',
      version: batch.version,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await paymentOf(a.flowId)).toEqual({ date: '2026-11-19', clp: '4002000', ufValue: '40020.00' });
  });

  it('one payment the engine refuses refuses the whole batch: nothing is paid', async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const b = await atPaymentDate(who);
    const batch = await createBatch(who.payments, [a.flowId, b.flowId]);
    // Meanwhile someone completes b's 'Fecha de Pago' by hand.
    await b.driver.complete('Fecha de Pago', { at: NOW });

    const paid = await who.payments.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-20',
      version: batch.version,
    });
    expect(paid.statusCode).toBe(409);
    expect(errorOf(paid).message).toBe(
      `No se pudo completar el pago 1 de la reserva ${b.reservation.reservationNumber}: Un pago elegido ya no espera su fecha de pago (se pagó, se reabrió o su reserva fue resciliada). Recargue la página. Nada se registró.`,
    );
    expect(await flowStatus(a.flowId)).toBe('in_progress');
    expect(await paymentOf(a.flowId)).toEqual({ date: null, clp: null, ufValue: null });
    const [row] = await queryRows<{ status: string }>(
      ctx.db,
      sql`select status from payment_batches where id = ${batch.id}`,
    );
    expect(row!.status).toBe('open');
  });

  it('exports the batch as CSV and XLSX in the generic bank layout (read back by independent readers)', async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const batch = await createBatch(who.payments, [a.flowId]);
    const [broker] = await queryRows<{ rut: string; name: string }>(
      ctx.db,
      sql`select rut, name from brokers where id = ${a.broker.id}`,
    );

    const csv = await who.payments.get(`/api/payment-batches/${batch.id}/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain(`nomina_pago_${batch.number}_2026-11-20.csv`);
    const parsed = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), {
      delimiter: ';',
      skipEmptyLines: true,
    });
    expect(parsed.data).toEqual([
      [
        'RUT Beneficiario',
        'Nombre Beneficiario',
        'Banco',
        'Tipo de Cuenta',
        'Número de Cuenta',
        'Monto',
        'Referencia',
        'Correo Electrónico',
      ],
      [
        broker!.rut,
        broker!.name,
        'Banco de Chile',
        'Cuenta Corriente',
        '0012345678',
        '4000000',
        `Comision reserva ${a.reservation.reservationNumber} pago 1`,
        'pagos@corredora.cl',
      ],
    ]);

    const xlsx = await who.payments.get(`/api/payment-batches/${batch.id}/export?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const rows = await readSheet(xlsx.rawPayload);
    expect(rows[0]).toEqual(parsed.data[0]);
    expect(rows[1]).toEqual([
      broker!.rut,
      broker!.name,
      'Banco de Chile',
      'Cuenta Corriente',
      '0012345678',
      4000000,
      `Comision reserva ${a.reservation.reservationNumber} pago 1`,
      'pagos@corredora.cl',
    ]);
    // Both downloads are recorded in the audit log.
    const [exports] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from audit_log where action = 'export' and actor_id = ${who.payments.user!.id}`,
    );
    expect(exports!.count).toBe(2);
  });

  it('allows the payments team and administrators on every route; denies the other user types', async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const b = await atPaymentDate(who);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const supervisor = await loginAs(ctx, { userType: 'Supervisor' });
    const operations = await loginAs(ctx, { userType: 'Operaciones' });

    const batch = await createBatch(who.admin, [a.flowId]);
    const routes = (id: string, version: number) => [
      { method: 'get', url: '/api/payment-batches/candidates' },
      { method: 'get', url: '/api/payment-batches' },
      { method: 'get', url: `/api/payment-batches/${id}` },
      { method: 'get', url: `/api/payment-batches/${id}/export?format=csv` },
      { method: 'get', url: `/api/payment-batches/${id}/export?format=xlsx` },
      { method: 'post', url: '/api/payment-batches', body: { flowIds: [b.flowId] } },
      { method: 'post', url: `/api/payment-batches/${id}/cancel`, body: { version } },
      { method: 'post', url: `/api/payment-batches/${id}/paid`, body: { paidDate: '2026-11-20', version } },
    ];
    for (const denied of [kam, supervisor, operations]) {
      for (const route of routes(batch.id, batch.version)) {
        const response =
          route.method === 'get' ? await denied.get(route.url) : await denied.post(route.url, route.body);
        expect(response.statusCode, `${denied.user!.userType} ${route.url}`).toBe(403);
        expect(errorOf(response).code).toBe('PAYMENT_BATCH_FORBIDDEN');
      }
    }
    expect(await batchCount()).toBe(1);
    expect(await flowStatus(a.flowId)).toBe('in_progress');

    // Allowed: the payments team reads, exports, makes, cancels; an administrator marks paid.
    for (const route of routes(batch.id, batch.version).slice(0, 5)) {
      for (const agent of [who.payments, who.admin]) {
        const response = await agent.get(route.url);
        expect(response.statusCode, `${route.url}`).toBe(200);
      }
    }
    const second = await createBatch(who.payments, [b.flowId]);
    const cancelled = await who.payments.post(`/api/payment-batches/${second.id}/cancel`, {
      version: second.version,
    });
    expect(cancelled.statusCode).toBe(200);
    const paid = await who.admin.post(`/api/payment-batches/${batch.id}/paid`, {
      paidDate: '2026-11-20',
      version: batch.version,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const unknown = await who.admin.get('/api/payment-batches/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe('La nómina de pago no existe.');
  });
});

describe("the broker's bank data", () => {
  const ctx = useTestApp({ now: () => NOW });

  const body = (broker: Record<string, unknown>, extra: Record<string, unknown>) => ({
    rut: broker.rut,
    name: broker.name,
    businessName: broker.businessName,
    constitutionDate: broker.constitutionDate,
    constitutionNotary: broker.constitutionNotary,
    legalRepresentative: broker.legalRepresentative,
    legalRepresentativeRut: broker.legalRepresentativeRut,
    commercialAddress: broker.commercialAddress,
    commercialAddressCommune: broker.commercialAddressCommune,
    commercialContactName: broker.commercialContactName,
    kamName: broker.kamName,
    version: broker.version,
    ...extra,
  });

  it('saves bank, account type, number (digits only) and payment e-mail, audited like the rest of the broker', async () => {
    const admin = await loginAs(ctx);
    const created = await createBroker(ctx.db);
    const saved = await admin.put(
      `/api/brokers/${created.id}`,
      body(created, {
        bankName: 'BancoEstado',
        bankAccountType: 'Cuenta RUT',
        bankAccountNumber: '12.345.678',
        paymentEmail: 'Finanzas@Broker.CL',
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().broker).toMatchObject({
      bankName: 'BancoEstado',
      bankAccountType: 'Cuenta RUT',
      bankAccountNumber: '12345678',
      paymentEmail: 'finanzas@broker.cl',
    });
    const [log] = await queryRows<{ after: Record<string, unknown> }>(
      ctx.db,
      sql`select after from audit_log where table_name = 'brokers' and action = 'update' and record_id = ${created.id}`,
    );
    expect(log!.after).toMatchObject({ bank_name: 'BancoEstado', bank_account_number: '12345678' });
  });

  it('refuses incomplete or wrong bank data in Spanish, field by field, and changes nothing', async () => {
    const admin = await loginAs(ctx);
    const created = await createBroker(ctx.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { bankName: 'Banco de Chile' },
        'bankAccountType',
        'Complete el banco, el tipo y el número de cuenta, o deje los tres vacíos',
      ],
      [
        { bankName: 'Banco de Chile', bankAccountType: 'Cuenta Corriente', bankAccountNumber: '12-ab' },
        'bankAccountNumber',
        'El número de cuenta debe tener entre 4 y 20 dígitos',
      ],
      [
        { bankName: 'Banco de Chile', bankAccountType: 'Cuenta Maestra', bankAccountNumber: '123456' },
        'bankAccountType',
        'Seleccione un tipo de cuenta de la lista',
      ],
      [
        { bankName: 'Santander', bankAccountType: 'Cuenta RUT', bankAccountNumber: '123456' },
        'bankName',
        'La Cuenta RUT es de BancoEstado: indique ese banco',
      ],
      [{ paymentEmail: 'no-es-correo' }, 'paymentEmail', 'Ingrese un correo electrónico válido'],
    ];
    for (const [extra, field, message] of cases) {
      const response = await admin.put(`/api/brokers/${created.id}`, body(created, extra));
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(errorOf(response).fields?.[field]).toBe(message);
    }
    const [row] = await queryRows<{ version: number; bank: string | null }>(
      ctx.db,
      sql`select version, bank_name as bank from brokers where id = ${created.id}`,
    );
    expect(row).toEqual({ version: created.version, bank: null });
  });
});
