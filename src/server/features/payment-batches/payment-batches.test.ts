import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import type { BatchCandidate, PaymentBatchView } from '../../../shared/schemas/payment-batches';
import { UNCLEAN_LINE_MESSAGE } from '../../../shared/text-safety';
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
      isBankVerified: true,
      notPayableReasons: [],
    });
    expect(byFlow.get(noBank.flowId)).toMatchObject({
      isPayable: false,
      notPayableReasons: ['El broker no tiene datos bancarios'],
      bankName: null,
    });
    expect(byFlow.get(ready.flowId)!.paidAmount).toEqual({
      amountToPay: '4000000',
      ufClp: '4000000',
      difference: '0',
      cause: null,
    });
    // A mismatch an administrator accepted is paid as invoiced, its difference explained (issue 53).
    expect(byFlow.get(accepted.flowId)).toMatchObject({
      isPayable: true,
      amountClp: '3990000',
      paidAmount: {
        amountToPay: '3990000',
        ufClp: '4000000',
        difference: '-10000',
        cause: 'Diferencia de −$ 10.000 aceptada por un administrador: «Acordado con el broker»',
      },
    });
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
      notPayableReasons: [
        'La factura folio 9999 no cuadra con el pago y un administrador no ha aceptado la diferencia',
      ],
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
      canChoosePaidDate: true,
      earliestPaidDate: '2026-11-13',
      canCancel: true,
    });
    expect(batch.lines.map((line) => line.flowId)).toEqual([a.flowId, b.flowId]);
    // The beneficiary is the account's holder (its legal name and RUT), not the trade name.
    expect(batch.lines[0]).toMatchObject({
      bankAccountNumber: '0012345678',
      amountClp: '4000000',
      holderName: expect.stringMatching(/^Corredora \d+ Limitada$/),
      accountChangedSince: false,
    });
    expect(batch.lines[0]!.holderRut).toBe(batch.lines[0]!.brokerRut);

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
              bank_name, bank_account_type, bank_account_number, holder_name, holder_rut, amount_clp, reference)
            select ${batch!.id}, flow_id, 1, broker_id, broker_rut, broker_name, bank_name, bank_account_type,
                   bank_account_number, holder_name, holder_rut, amount_clp, reference
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

  it("the bank's date: the payments team within the last N business days, administrators any past day; a future day refused", async () => {
    const who = await people();
    // One business day back (the setting, an administrator's): from Thursday 19 November.
    const settings = (await who.admin.get('/api/payment-batches/settings')).json().settings;
    expect(settings).toMatchObject({ tolerancePerUf: '1.00', paidDateBusinessDays: 5, canEdit: true });
    const teamSets = await who.payments.put('/api/payment-batches/settings', {
      tolerancePerUf: '1',
      paidDateBusinessDays: 1,
      bankFileLayout: null,
      version: settings.version,
    });
    expect(teamSets.statusCode).toBe(403);
    expect(errorOf(teamSets).message).toBe('Solo un administrador cambia la configuración de pagos.');
    const set = await who.admin.put('/api/payment-batches/settings', {
      tolerancePerUf: '1',
      paidDateBusinessDays: 1,
      bankFileLayout: null,
      version: settings.version,
    });
    expect(set.statusCode, set.body).toBe(200);

    const a = await atPaymentDate(who, { at: EARLIER });
    const b = await atPaymentDate(who, { at: EARLIER });
    const first = await createBatch(who.payments, [a.flowId]);
    const second = await createBatch(who.payments, [b.flowId]);
    expect(first).toMatchObject({ canChoosePaidDate: true, earliestPaidDate: '2026-11-19' });

    const tooOld = await who.payments.post(`/api/payment-batches/${first.id}/paid`, {
      paidDate: '2026-11-18',
      version: first.version,
    });
    expect(tooOld.statusCode).toBe(403);
    expect(errorOf(tooOld).message).toBe(
      'Un Gestor de Pagos registra la fecha del banco dentro de los últimos 1 días hábiles (desde el 19/11/2026); una fecha anterior la registra un administrador.',
    );
    const future = await who.admin.post(`/api/payment-batches/${first.id}/paid`, {
      paidDate: '2026-11-21',
      version: first.version,
    });
    expect(future.statusCode).toBe(400);
    expect(errorOf(future).message).toBe('La fecha de pago no puede ser posterior a hoy.');
    const badDate = await who.admin.post(`/api/payment-batches/${first.id}/paid`, {
      paidDate: '2026-02-30',
      version: first.version,
    });
    expect(badDate.statusCode).toBe(400);
    expect(await flowStatus(a.flowId)).toBe('in_progress');
    expect(await paymentOf(a.flowId)).toEqual({ date: null, clp: null, ufValue: null });

    const adminView = await who.admin.get(`/api/payment-batches/${first.id}`);
    expect(adminView.json().batch).toMatchObject({ canChoosePaidDate: true, earliestPaidDate: null });
    const stale = await who.admin.post(`/api/payment-batches/${first.id}/paid`, {
      paidDate: '2026-11-18',
      version: first.version + 5,
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_VERSION');

    // Yesterday, the bank's date, by the payments team; an older day by an administrator.
    const yesterday = await who.payments.post(`/api/payment-batches/${second.id}/paid`, {
      paidDate: '2026-11-19',
      version: second.version,
    });
    expect(yesterday.statusCode, yesterday.body).toBe(200);
    expect(await paymentOf(b.flowId)).toEqual({ date: '2026-11-19', clp: '4002000', ufValue: '40020.00' });
    const paid = await who.admin.post(`/api/payment-batches/${first.id}/paid`, {
      paidDate: '2026-11-18',
      version: first.version,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await paymentOf(a.flowId)).toEqual({ date: '2026-11-18', clp: '4001000', ufValue: '40010.00' });
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
      sql`select bank_holder_rut as rut, bank_holder_name as name from brokers where id = ${a.broker.id}`,
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

  it("the bank file in the administrator's layout: its columns, separator, header, encoding and record limit; no value breaks a record", async () => {
    const who = await people();
    const a = await atPaymentDate(who);
    const b = await atPaymentDate(who);
    const { settings } = (await who.admin.get('/api/payment-batches/settings')).json();
    expect(settings.bankFileLayout).toBeNull();
    const layout = {
      name: 'Banco Austral',
      columns: [
        { field: 'holderRut', header: 'RUT' },
        { field: 'holderName', header: 'Titular' },
        { field: 'bankAccountNumber', header: 'Cuenta' },
        { field: 'amountClp', header: 'Monto' },
      ],
      separator: 'tab',
      hasHeader: false,
      encoding: 'windows-1252',
      maxRecords: 1,
    };
    const bad = await who.admin.put('/api/payment-batches/settings', {
      ...settings,
      canEdit: undefined,
      bankFileLayout: { ...layout, columns: [], separator: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).fields).toMatchObject({
      'bankFileLayout.columns': 'El formato necesita al menos una columna',
      'bankFileLayout.separator': 'Elija un separador de la lista',
    });
    const { canEdit: _canEdit, ...body } = settings;
    const saved = await who.admin.put('/api/payment-batches/settings', { ...body, bankFileLayout: layout });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.bankFileLayout).toEqual(layout);

    // The bank's record limit per file: a batch of two is refused, saying why; nothing is made.
    const tooMany = await who.payments.post('/api/payment-batches', { flowIds: [a.flowId, b.flowId] });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).message).toBe(
      'El formato del banco «Banco Austral» admite a lo más 1 pagos por archivo: elija menos pagos para esta nómina.',
    );
    expect(await batchCount()).toBe(0);

    const batch = await createBatch(who.payments, [a.flowId]);
    // Data written before the one-line rule (a holder name with a line break and a tab) cannot break the record.
    await asSystem(ctx.appDb, (tx) =>
      tx.execute(
        sql`update payment_batch_items set holder_name = ${'Peñalolén\r\nInversiones\tSpA'} where batch_id = ${batch.id}`,
      ),
    );
    const file = await who.payments.get(`/api/payment-batches/${batch.id}/export?format=bank`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('text/plain; charset=windows-1252');
    expect(file.headers['content-disposition']).toContain(`nomina_pago_${batch.number}_2026-11-20.txt`);
    const bytes = file.rawPayload;
    // Windows-1252: 'ñ' and 'é' one byte each.
    expect(bytes.includes(Buffer.from([0xf1]))).toBe(true);
    const text = new TextDecoder('windows-1252').decode(bytes);
    expect(text).toBe(`${batch.lines[0]!.holderRut}\tPeñalolén Inversiones SpA\t0012345678\t4000000\r\n`);
    // The generic CSV keeps one line per record too.
    const csv = await who.payments.get(`/api/payment-batches/${batch.id}/export?format=csv`);
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(2);
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

  /** The broker's form as it stands, with `extra` over it (PUT /api/brokers/:id). */
  async function brokerBody(agent: Agent, brokerId: string, extra: Record<string, unknown>) {
    const { broker } = (await agent.get(`/api/brokers/${brokerId}`)).json();
    const {
      id: _id,
      createdAt: _c,
      updatedAt: _u,
      bankStatus: _s,
      bankChangedByName: _cb,
      bankChangedAt: _ca,
      bankVerifiedByName: _vb,
      bankVerifiedAt: _va,
      canChangeBank: _cc,
      canVerifyBank: _cv,
      ...fields
    } = broker;
    return { ...fields, ...extra };
  }

  async function bankNotices() {
    return queryRows<{ to: string; notices: Record<string, unknown>[] }>(
      ctx.db,
      sql`select to_address as "to", notices from mail_messages where kind = 'bankAccount' order by created_at, to_address`,
    );
  }

  it("bank data: a KAM's change refused (403); a payments user's change waits for another person, never its author; the batch refuses it meanwhile; audited and told", async () => {
    const who = await people();
    const other = await loginAs(ctx, { userType: 'Gestor de Pagos', firstName: 'Tomás', lastName: 'Ibarra' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db, {
      ...BANK,
      financeContactEmail: 'finanzas@corredora.cl',
      kamEmail: 'kam@corredora.cl',
    });
    const before = await atPaymentDate(who, { brokerId: broker.id });
    const made = await createBatch(who.payments, [before.flowId]);
    const paying = await atPaymentDate(who, { brokerId: broker.id });

    // A KAM may save the broker's other fields, but not its account.
    const newAccount = { bankAccountNumber: '9876543210', bankHolderName: 'Inversiones Otra SpA' };
    const byKam = await kam.put(`/api/brokers/${broker.id}`, await brokerBody(kam, broker.id, newAccount));
    expect(byKam.statusCode).toBe(403);
    expect(errorOf(byKam).code).toBe('BANK_DATA_FORBIDDEN');
    const kamOther = await kam.put(
      `/api/brokers/${broker.id}`,
      await brokerBody(kam, broker.id, { commercialContactName: 'Otra Persona' }),
    );
    expect(kamOther.statusCode, kamOther.body).toBe(200);
    expect(kamOther.json().broker).toMatchObject({ bankStatus: 'verified', bankAccountNumber: '0012345678' });
    // A line break cannot enter the bank's name (one line each).
    const twoLines = await who.payments.put(
      `/api/brokers/${broker.id}`,
      await brokerBody(who.payments, broker.id, { bankName: 'Banco de Chile\r\nX;Y' }),
    );
    expect(twoLines.statusCode).toBe(400);
    expect(errorOf(twoLines).fields?.bankName).toBe(UNCLEAN_LINE_MESSAGE);
    expect(await bankNotices()).toEqual([]);

    // The payments team changes it: pending, not payable, told to the finance contact and the KAM.
    const changed = await who.payments.put(
      `/api/brokers/${broker.id}`,
      await brokerBody(who.payments, broker.id, newAccount),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const pending = changed.json().broker;
    expect(pending).toMatchObject({
      bankStatus: 'unverified',
      bankAccountNumber: '9876543210',
      bankChangedByName: 'Pía Rojas',
      bankVerifiedAt: null,
      canVerifyBank: false,
    });
    const row = (await candidates(who.payments)).find((candidate) => candidate.flowId === paying.flowId)!;
    expect(row).toMatchObject({
      isPayable: false,
      isBankVerified: false,
      notPayableReasons: [
        'Cuenta por verificar: otra persona de pagos debe verificar el cambio de cuenta del broker',
      ],
    });
    const refused = await who.admin.post('/api/payment-batches', { flowIds: [paying.flowId] });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain('Cuenta por verificar');
    // The batch made before keeps the account it was made with, and says it changed since.
    const kept = (await who.payments.get(`/api/payment-batches/${made.id}`)).json().batch;
    expect(kept.lines[0]).toMatchObject({ bankAccountNumber: '0012345678', accountChangedSince: true });

    const notices = await bankNotices();
    expect(notices.map((notice) => notice.to)).toEqual(['finanzas@corredora.cl', 'kam@corredora.cl']);
    expect(notices[0]!.notices[0]).toMatchObject({ action: 'changed', accountEnding: '···· 3210' });
    expect(JSON.stringify(notices)).not.toContain('9876543210');

    // Its author cannot verify it, nor can a KAM; another payments user can, once.
    const own = await who.payments.post(`/api/brokers/${broker.id}/bank-account/verify`, {
      version: pending.version,
    });
    expect(own.statusCode).toBe(403);
    expect(errorOf(own).message).toBe(
      'Usted hizo este cambio de cuenta: otra persona (Gestor de Pagos o administrador) debe verificarlo.',
    );
    const byKamVerify = await kam.post(`/api/brokers/${broker.id}/bank-account/verify`, {
      version: pending.version,
    });
    expect(byKamVerify.statusCode).toBe(403);
    expect(errorOf(byKamVerify).code).toBe('BANK_VERIFY_FORBIDDEN');
    const otherView = (await other.get(`/api/brokers/${broker.id}`)).json().broker;
    expect(otherView).toMatchObject({ canVerifyBank: true, canChangeBank: true });
    const verified = await other.post(`/api/brokers/${broker.id}/bank-account/verify`, {
      version: pending.version,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().broker).toMatchObject({
      bankStatus: 'verified',
      bankVerifiedByName: 'Tomás Ibarra',
      canVerifyBank: false,
    });
    const twice = await who.admin.post(`/api/brokers/${broker.id}/bank-account/verify`, {
      version: verified.json().broker.version,
    });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).code).toBe('BANK_NOTHING_TO_VERIFY');

    const payable = (await candidates(who.payments)).find((candidate) => candidate.flowId === paying.flowId)!;
    expect(payable).toMatchObject({
      isPayable: true,
      holderName: 'Inversiones Otra SpA',
      bankAccountNumber: '9876543210',
    });
    const batch = await createBatch(who.payments, [paying.flowId]);
    expect(batch.lines[0]).toMatchObject({ holderName: 'Inversiones Otra SpA', accountChangedSince: false });

    // Audited: the change (by whom) and the verification (by whom), on the broker's history.
    const log = await queryRows<{ after: Record<string, unknown>; actor: string | null }>(
      ctx.db,
      sql`select after, actor_id as actor from audit_log
           where table_name = 'brokers' and record_id = ${broker.id} and action = 'update'
           order by id`,
    );
    expect(log.map((entry) => [entry.actor, entry.after.bank_verified_by ?? null])).toEqual([
      [kam.user!.id, null],
      [who.payments.user!.id, null],
      [other.user!.id, other.user!.id],
    ]);
    const told = await bankNotices();
    expect(told.map((notice) => `${notice.notices[0]!.action} ${notice.to}`).sort()).toEqual([
      'changed finanzas@corredora.cl',
      'changed kam@corredora.cl',
      'verified finanzas@corredora.cl',
      'verified kam@corredora.cl',
    ]);
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
        bankHolderName: 'Corredora Uno Limitada',
        bankHolderRut: '76.543.210-3',
        paymentEmail: 'Finanzas@Broker.CL',
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().broker).toMatchObject({
      bankName: 'BancoEstado',
      bankAccountType: 'Cuenta RUT',
      bankAccountNumber: '12345678',
      bankHolderName: 'Corredora Uno Limitada',
      bankHolderRut: '76543210-3',
      paymentEmail: 'finanzas@broker.cl',
      bankStatus: 'unverified',
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
        'Complete el banco, el tipo y el número de cuenta, el titular y su RUT, o deje los cinco vacíos',
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
      [
        { bankHolderRut: '76.543.210-4' },
        'bankHolderRut',
        'El RUT del titular no es válido (revise el dígito verificador)',
      ],
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
