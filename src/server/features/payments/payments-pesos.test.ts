import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PaymentFlowDetail, PaymentListRow } from '../../../shared/schemas/payments';
import { queryRows } from '../../db/client';
import { brokerCommissions } from '../../db/schema';
import { type Agent, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation, seedUfValues } from '../../test/builders';
import { createCommission, createSaleFlow, FlowDriver } from '../../test/flow-builders';
import {
  FIRST_PAYMENT_BEFORE_INVOICE,
  FIRST_PAYMENT_INVOICE_TO_FINANCE,
} from '../../test/payment-flow-tasks';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');

async function detail(agent: Agent, flowId: string): Promise<PaymentFlowDetail> {
  const response = await agent.get(`/api/payment-flows/${flowId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().flow;
}

async function listRow(agent: Agent, apartment: string): Promise<PaymentListRow> {
  const rows = (await agent.get(`/api/payments?search=${apartment}`)).json().rows as PaymentListRow[];
  return rows[0]!;
}

function taskOf(flow: PaymentFlowDetail, name: string) {
  return flow.stages.flatMap((stage) => stage.tasks).find((task) => task.name === name)!;
}

describe('payments in pesos', () => {
  const ctx = useTestApp({ now: () => NOW });

  /** A two-payment commission of UF 120,35 (payment 1: UF 60,18; payment 2: UF 60,17), its first flow ready to pay. */
  async function readyToPay() {
    const admin = await loginAs(ctx);
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at: NOW });
    const commission = await createCommission(ctx.db, reservation, {
      commissionAmount: '120.35',
      numberOfPayments: 2,
      firstPaymentPercentage: 50,
    });
    const { flowId } = (await admin.post(`/api/payments/${reservation.id}/first-flow`)).json();
    const driver = await FlowDriver.open(ctx.db, flowId);
    await driver.start({ at: NOW });
    await driver.completeAll([...FIRST_PAYMENT_BEFORE_INVOICE, ...FIRST_PAYMENT_INVOICE_TO_FINANCE], {
      at: NOW,
    });
    return { admin, reservation, commission: commission!, flowId };
  }

  async function frozen(commissionId: string) {
    const [row] = await ctx.db.select().from(brokerCommissions).where(eq(brokerCommissions.id, commissionId));
    return { date: row!.payment1Date, clp: row!.payment1Clp, ufValue: row!.payment1UfValue };
  }

  it('estimates at today’s value while unpaid, freezes CLP and the UF value at the payment date, and keeps them', async () => {
    await seedUfValues(ctx.appDb, { '2026-11-19': '39898.21', '2026-11-20': '39902.60' });
    const { admin, reservation, commission, flowId } = await readyToPay();

    // 60,18 UF × 39.902,60 = 2.401.338,468 → $ 2.401.338 (estimated: today's value).
    expect((await detail(admin, flowId)).commission.pesos).toEqual({
      state: 'estimated',
      clp: '2401338',
      ufValue: '39902.60',
      date: '2026-11-20',
    });
    const row = await listRow(admin, reservation.apartmentNumber);
    expect(row.payment1Pesos).toMatchObject({ state: 'estimated', clp: '2401338' });
    // 60,17 UF × 39.902,60 = 2.400.939,442 → $ 2.400.939.
    expect(row.payment2Pesos).toMatchObject({ state: 'estimated', clp: '2400939' });

    const last = taskOf(await detail(admin, flowId), 'Fecha de Pago');
    const done = await admin.put(`/api/payment-flows/${flowId}/tasks/${last.id}/status`, {
      status: 'completed',
      version: last.version,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await frozen(commission.id)).toEqual({ date: '2026-11-20', clp: '2401338', ufValue: '39902.60' });
    expect((await detail(admin, flowId)).commission.pesos).toEqual({
      state: 'frozen',
      clp: '2401338',
      ufValue: '39902.60',
      date: '2026-11-20',
    });

    // A correction of the day's UF value afterwards changes the estimate of payment 2, never the paid amount.
    const corrected = await admin.put('/api/uf-values/2026-11-20', { value: '40000.00', version: 1 });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await frozen(commission.id)).toEqual({ date: '2026-11-20', clp: '2401338', ufValue: '39902.60' });
    const after = await listRow(admin, reservation.apartmentNumber);
    expect(after.payment1Pesos).toMatchObject({ state: 'frozen', clp: '2401338' });
    expect(after.payment2Pesos).toMatchObject({ state: 'estimated', clp: '2406800', ufValue: '40000.00' });

    // The payment date corrected by an administrator: the pesos follow the new date's value, audited.
    const moved = await admin.put(`/api/payment-flows/${flowId}/dates`, {
      startedAt: '2026-11-18T15:00:00.000Z',
      completedAt: '2026-11-19T15:00:00.000Z',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // 60,18 × 39.898,21 = 2.401.074,2778 → $ 2.401.074
    expect(await frozen(commission.id)).toEqual({ date: '2026-11-19', clp: '2401074', ufValue: '39898.21' });
    const logged = await queryRows<{ before: Record<string, string>; after: Record<string, string> }>(
      ctx.db,
      sql`select before, after from audit_log where table_name = 'broker_commissions'
           and record_id = ${commission.id} and after ? 'payment_1_clp' order by id`,
    );
    expect(logged.at(-1)).toEqual({
      before: { payment_1_date: '2026-11-20', payment_1_clp: '2401338', payment_1_uf_value: '39902.60' },
      after: { payment_1_date: '2026-11-19', payment_1_clp: '2401074', payment_1_uf_value: '39898.21' },
    });
  });

  it("shows a missing day as missing ('Valor UF no disponible'), and freezes the pesos once the day's value arrives", async () => {
    const { admin, commission, flowId } = await readyToPay();
    expect((await detail(admin, flowId)).commission.pesos).toEqual({ state: 'missing', date: '2026-11-20' });

    const last = taskOf(await detail(admin, flowId), 'Fecha de Pago');
    await admin.put(`/api/payment-flows/${flowId}/tasks/${last.id}/status`, {
      status: 'completed',
      version: last.version,
    });
    expect(await frozen(commission.id)).toEqual({ date: '2026-11-20', clp: null, ufValue: null });
    expect((await detail(admin, flowId)).commission.pesos).toEqual({ state: 'missing', date: '2026-11-20' });

    const added = await admin.put('/api/uf-values/2026-11-20', { value: '39.902,60' });
    expect(added.statusCode, added.body).toBe(200);
    expect(await frozen(commission.id)).toEqual({ date: '2026-11-20', clp: '2401338', ufValue: '39902.60' });
  });

  it('freezes a payment date typed in the commission form (no flow yet) the same way', async () => {
    await seedUfValues(ctx.appDb, { '2026-11-02': '39832.13' });
    const admin = await loginAs(ctx);
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const commission = await createCommission(ctx.db, reservation, { commissionAmount: '100.00' });
    const view = (await admin.get(`/api/reservations/${reservation.id}`)).json().reservation.commission;
    const saved = await admin.put(`/api/reservations/${reservation.id}/commission`, {
      commissionAmount: '100.00',
      commissionIncludesTax: view.commissionIncludesTax,
      commissionForDiscount: view.commissionForDiscount,
      paysSecondary: view.paysSecondary,
      numberOfPayments: 1,
      firstPaymentPercentage: 100,
      payment1Date: '2026-11-02',
      version: view.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await frozen(commission!.id)).toEqual({ date: '2026-11-02', clp: '3983213', ufValue: '39832.13' });
    // The commission's popup and page read them with the commission.
    expect(
      (await admin.get(`/api/reservations/${reservation.id}`)).json().reservation.commission,
    ).toMatchObject({
      payment1Clp: '3983213',
      payment1UfValue: '39832.13',
      payment2Clp: null,
      payment2UfValue: null,
    });
  });
});
