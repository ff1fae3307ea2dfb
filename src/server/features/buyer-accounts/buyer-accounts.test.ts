import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import type { BuyerAccount } from '../../../shared/schemas/buyer-accounts';
import { queryRows } from '../../db/client';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createProject, createReservation, createUser, seedUfValues } from '../../test/builders';
import { createSaleFlow } from '../../test/flow-builders';

/** The app's clock: 10:42 on 12 March 2027 in Santiago. */
const NOW = new Date('2027-03-12T13:42:00Z');
const PIE_TASK = 'PENDIENTE CARTA PIE';

/** Reserva 20, promesa 180, pie 300 (UF): 500 the buyer pays; crédito 2.400 and subsidio 100 at the deed. */
async function reservationWithDates(
  ctx: TestContext,
  overrides: Parameters<typeof createReservation>[1] = {},
) {
  return createReservation(ctx.db, {
    reservationDate: '2026-10-15',
    promiseDate: '2026-11-30',
    deedDate: '2027-06-30',
    ...overrides,
  });
}

async function accountOf(agent: Agent, reservationId: string): Promise<BuyerAccount> {
  const response = await agent.get(`/api/reservations/${reservationId}/account`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().account;
}

async function planOf(agent: Agent, reservationId: string, installmentCount = 3): Promise<BuyerAccount> {
  const response = await agent.post(`/api/reservations/${reservationId}/account/plan`, { installmentCount });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().account;
}

function pay(agent: Agent, reservationId: string, body: Record<string, unknown>) {
  return agent.post(`/api/reservations/${reservationId}/account/payments`, {
    paidDate: '2027-03-01',
    currency: 'UF',
    means: 'transfer',
    documentNumber: '1001',
    ...body,
  });
}

const paidOfLines = (account: BuyerAccount) => account.plan!.lines.map((line) => line.paidAmount);

describe("the buyer's plan", () => {
  const ctx = useTestApp({ now: () => NOW });

  it('is built by a seller from the reservation’s figures: cuotas monthly after the promise, summing to the pie', async () => {
    const seller = await loginAs(ctx, { userType: 'KAM' });
    const reservation = await reservationWithDates(ctx);
    const before = await accountOf(seller, reservation.id);
    expect(before.plan).toBeNull();
    expect(before.may).toEqual({ plan: true, recordPayments: false, waivePie: false });
    // From 30 November to 30 June: seven cuotas fit before the deed.
    expect(before.figures.maxInstallments).toBe(7);

    const account = await planOf(seller, reservation.id, 3);
    const plan = account.plan!;
    expect(
      plan.lines.map(({ kind, number, dueDate, amount }) => ({ kind, number, dueDate, amount })),
    ).toEqual([
      { kind: 'reservation', number: 0, dueDate: '2026-10-15', amount: '20.0000' },
      { kind: 'promise', number: 0, dueDate: '2026-11-30', amount: '180.0000' },
      { kind: 'downPayment', number: 1, dueDate: '2026-12-30', amount: '100.0000' },
      { kind: 'downPayment', number: 2, dueDate: '2027-01-30', amount: '100.0000' },
      { kind: 'downPayment', number: 3, dueDate: '2027-02-28', amount: '100.0000' },
    ]);
    expect(plan).toMatchObject({
      totalAmount: '500.0000',
      paidAmount: '0.0000',
      balance: '500.0000',
      overdueAmount: '500.0000',
      deedBalance: '3000.0000',
      isPiePaid: false,
      creditAmount: '2400.0000',
      subsidyAmount: '100.0000',
    });
    expect(plan.lines.map((line) => line.daysLate)).toEqual([148, 102, 72, 41, 12]);
    // The seller may not record payments; the plan exists once.
    expect(account.may).toEqual({ plan: false, recordPayments: false, waivePie: false });
    const again = await seller.post(`/api/reservations/${reservation.id}/account/plan`, {
      installmentCount: 2,
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe('La reserva ya tiene un plan de pagos: recargue la página.');
  });

  it('splits an uneven pie in four decimals and refuses cuotas past the deed, a missing promise date, a rescinded reservation', async () => {
    const seller = await loginAs(ctx, { userType: 'KAM' });
    const uneven = await reservationWithDates(ctx, { downPayment: '100.00' });
    const plan = (await planOf(seller, uneven.id, 7)).plan!;
    const cuotas = plan.lines.filter((line) => line.kind === 'downPayment').map((line) => line.amount);
    expect(cuotas).toEqual(['14.2858', '14.2857', '14.2857', '14.2857', '14.2857', '14.2857', '14.2857']);
    expect(plan.totalAmount).toBe('300.0000');

    const late = await reservationWithDates(ctx);
    const tooMany = await seller.post(`/api/reservations/${late.id}/account/plan`, { installmentCount: 8 });
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany).message).toBe(
      'Con 8 cuotas la última vence después de la fecha de escritura (30/06/2027): use como máximo 7.',
    );
    const badCount = await seller.post(`/api/reservations/${late.id}/account/plan`, { installmentCount: 0 });
    expect(badCount.statusCode).toBe(400);

    const noPromise = await reservationWithDates(ctx, { promiseDate: null });
    const refused = await seller.post(`/api/reservations/${noPromise.id}/account/plan`, {
      installmentCount: 3,
    });
    expect(errorOf(refused).message).toBe(
      'Ingrese la fecha de promesa de la reserva antes de armar el plan de pagos.',
    );
    const rescinded = await reservationWithDates(ctx, {
      isRescinded: true,
      rescindedAt: NOW,
      rescindedReason: 'x',
    });
    const closed = await seller.post(`/api/reservations/${rescinded.id}/account/plan`, {
      installmentCount: 3,
    });
    expect(closed.statusCode).toBe(409);
    for (const id of [late.id, noPromise.id, rescinded.id])
      expect((await accountOf(seller, id)).plan).toBeNull();
  });
});

describe('payments received', () => {
  const ctx = useTestApp({ now: () => NOW });

  it('are applied oldest first, in UF or in pesos at the day’s UF; a returned cheque is reversed and audited', async () => {
    const seller = await loginAs(ctx, { userType: 'KAM' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const reservation = await reservationWithDates(ctx);
    await planOf(seller, reservation.id, 3);
    await seedUfValues(ctx.db, { '2027-03-02': '38000.00' });

    // A partial payment: the reserva, then part of the promesa.
    const first = await pay(payments, reservation.id, { amount: '100.5' });
    expect(first.statusCode, first.body).toBe(201);
    expect(paidOfLines(first.json().account)).toEqual(['20.0000', '80.5000', '0.0000', '0.0000', '0.0000']);

    // Pesos at 2 March's UF: $3.800.000 / 38.000 = 100 UF.
    const pesos = await pay(payments, reservation.id, {
      paidDate: '2027-03-02',
      currency: 'CLP',
      amount: '3800000',
      means: 'bankDraft',
      documentNumber: 'VV-88',
    });
    expect(pesos.statusCode, pesos.body).toBe(201);
    let account: BuyerAccount = pesos.json().account;
    expect(paidOfLines(account)).toEqual(['20.0000', '180.0000', '0.5000', '0.0000', '0.0000']);
    expect(account.plan!.payments[1]).toMatchObject({
      amount: '100.0000',
      amountClp: '3800000',
      ufValue: '38000.00',
    });

    const cheque = await pay(payments, reservation.id, {
      amount: '150',
      means: 'cheque',
      documentNumber: '445566',
    });
    account = cheque.json().account;
    expect(paidOfLines(account)).toEqual(['20.0000', '180.0000', '100.0000', '50.5000', '0.0000']);
    expect(account.plan!.balance).toBe('149.5000');

    // The cheque comes back: it stays listed, reversed, and the lines are applied again without it.
    const returned = account.plan!.payments.find((payment) => payment.documentNumber === '445566')!;
    const reversal = await payments.post(
      `/api/reservations/${reservation.id}/account/payments/${returned.id}/reversal`,
      { reason: 'Cheque devuelto por falta de fondos', version: returned.version },
    );
    expect(reversal.statusCode, reversal.body).toBe(200);
    account = reversal.json().account;
    expect(paidOfLines(account)).toEqual(['20.0000', '180.0000', '0.5000', '0.0000', '0.0000']);
    expect(account.plan!.paidAmount).toBe('200.5000');
    expect(account.plan!.payments.find((payment) => payment.id === returned.id)).toMatchObject({
      isReversed: true,
      reversalReason: 'Cheque devuelto por falta de fondos',
    });
    const twice = await payments.post(
      `/api/reservations/${reservation.id}/account/payments/${returned.id}/reversal`,
      { reason: 'otra vez', version: returned.version + 1 },
    );
    expect(twice.statusCode).toBe(409);

    const audited = await queryRows(
      ctx.db,
      sql`select table_name, action, actor_id, root_id from audit_log
           where table_name = 'buyer_payments' order by id`,
    );
    expect(audited).toHaveLength(4);
    expect(audited[3]).toMatchObject({
      action: 'update',
      actor_id: payments.user!.id,
      root_id: reservation.id,
    });
  });

  it('refuses more than the balance, a future date, pesos on a day without UF, and anyone outside the payments team — changing nothing', async () => {
    const seller = await loginAs(ctx, { userType: 'KAM' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const reservation = await reservationWithDates(ctx);
    await planOf(seller, reservation.id, 3);

    const tooMuch = await pay(payments, reservation.id, { amount: '500.0001' });
    expect(tooMuch.statusCode).toBe(400);
    expect(errorOf(tooMuch).message).toBe(
      'El pago (UF 500,0001) supera el saldo por pagar del plan (UF 500,0000). No se registró nada.',
    );
    const future = await pay(payments, reservation.id, { amount: '1', paidDate: '2027-03-13' });
    expect(errorOf(future).message).toBe('La fecha del pago no puede ser posterior a hoy.');
    const noUf = await pay(payments, reservation.id, {
      currency: 'CLP',
      amount: '1000000',
      paidDate: '2027-02-01',
    });
    expect(errorOf(noUf).message).toBe(
      'No hay valor UF para el 01/02/2027: regístrelo en Configuración → Valores UF o ingrese el monto en UF.',
    );
    const badAmount = await pay(payments, reservation.id, { amount: '1,5' });
    expect(badAmount.statusCode).toBe(400);
    expect(errorOf(badAmount).fields?.amount).toBe(
      'Ingrese un monto en UF mayor que 0, con hasta 4 decimales',
    );
    const bySeller = await pay(seller, reservation.id, { amount: '1' });
    expect(bySeller.statusCode).toBe(403);

    const account = await accountOf(payments, reservation.id);
    expect(account.plan!.payments).toEqual([]);
    expect(account.plan!.paidAmount).toBe('0.0000');
    expect(account.may.recordPayments).toBe(true);
    // Exactly the balance is accepted: the plan is paid.
    const all = await pay(payments, reservation.id, { amount: '500' });
    expect(all.json().account.plan).toMatchObject({
      balance: '0.0000',
      isPiePaid: true,
      overdueAmount: '0.0000',
    });
  });
});

describe("'Cuotas vencidas'", () => {
  const ctx = useTestApp({ now: () => NOW });

  it('lists the open lines past due, oldest first, with days late, filtered by project and seller', async () => {
    const admin = await loginAs(ctx);
    const sellerA = await createUser(ctx.db, { firstName: 'Sofía', lastName: 'Vera', isSeller: true });
    const projectB = await createProject(ctx.db, { name: 'Edificio Norte' });
    const a = await reservationWithDates(ctx, { sellerId: sellerA.id });
    const b = await reservationWithDates(ctx, { projectId: projectB.id, promiseDate: '2027-01-31' });
    await planOf(admin, a.id, 3);
    await planOf(admin, b.id, 2);
    await pay(admin, a.id, { amount: '250' });

    const all = await admin.get('/api/buyer-accounts/overdue?pageSize=100');
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json();
    // a: cuota 1's rest, cuotas 2 and 3; b: reserva, promesa (31/01), cuota 1 (28/02) — cuota 2 falls due 31/03.
    expect(page.total).toBe(6);
    expect(page.rows[0]).toMatchObject({
      reservationId: b.id,
      kind: 'reservation',
      dueDate: '2026-10-15',
      daysLate: 148,
      projectName: 'Edificio Norte',
      sellerName: null,
    });
    expect(page.rows.find((row: { reservationId: string }) => row.reservationId === a.id)).toMatchObject({
      kind: 'downPayment',
      number: 1,
      amount: '100.0000',
      paidAmount: '50.0000',
      sellerName: 'Sofía Vera',
      daysLate: 72,
    });
    const dueDates = page.rows.map((row: { dueDate: string }) => row.dueDate);
    expect(dueDates).toEqual([...dueDates].sort());

    const bySeller = (await admin.get(`/api/buyer-accounts/overdue?sellerId=${sellerA.id}`)).json();
    expect(bySeller.rows.map((row: { number: number }) => row.number)).toEqual([1, 2, 3]);
    const byProject = (
      await admin.get(`/api/buyer-accounts/overdue?projectId=${projectB.id}&pageSize=2`)
    ).json();
    expect(byProject).toMatchObject({ total: 3, totalIsCapped: false });
    expect(byProject.rows).toHaveLength(2);
    const bad = await admin.get('/api/buyer-accounts/overdue?projectId=nope');
    expect(bad.statusCode).toBe(400);
  });
});

describe("'PENDIENTE CARTA PIE' reads the account", () => {
  const ctx = useTestApp({ now: () => NOW });

  async function flowAtPie(reservationId: string) {
    const flow = await createSaleFlow(ctx.db, { reservationId, at: NOW });
    const names = flow.taskNames();
    await flow.completeAll(names.slice(0, names.indexOf(PIE_TASK)), { at: NOW });
    return flow;
  }

  it('completes only once the pie is paid', async () => {
    const admin = await loginAs(ctx);
    const reservation = await reservationWithDates(ctx);
    await planOf(admin, reservation.id, 3);
    const flow = await flowAtPie(reservation.id);
    await pay(admin, reservation.id, { amount: '499.9999' });

    await expect(flow.complete(PIE_TASK, { at: NOW })).rejects.toMatchObject({
      code: 'PIE_NOT_PAID',
      message:
        'El pie no está pagado (saldo UF 0,0001): registre los pagos en la cuenta del comprador, o un administrador puede liberar la carta pie indicando el motivo.',
    });
    const put = await admin.put(`/api/sale-flows/${flow.id}/tasks/${flow.task(PIE_TASK)}/status`, {
      status: 'completed',
    });
    expect(put.statusCode).toBe(409);
    expect((await flow.state()).tasks.find((task) => task.id === flow.task(PIE_TASK))?.status).not.toBe(
      'completed',
    );

    await pay(admin, reservation.id, { amount: '0.0001' });
    await flow.complete(PIE_TASK, { at: NOW });
    expect((await flow.state()).tasks.find((task) => task.id === flow.task(PIE_TASK))?.status).toBe(
      'completed',
    );
  });

  it('or when an administrator releases it with a reason (audited); not others; a reservation without a plan is not gated', async () => {
    const admin = await loginAs(ctx);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const reservation = await reservationWithDates(ctx);
    const { plan } = await planOf(admin, reservation.id, 3);
    const flow = await flowAtPie(reservation.id);

    const url = `/api/reservations/${reservation.id}/account/pie-waiver`;
    const denied = await payments.post(url, { reason: 'Acuerdo comercial', version: plan!.version });
    expect(denied.statusCode).toBe(403);
    const blank = await admin.post(url, { reason: '  ', version: plan!.version });
    expect(blank.statusCode).toBe(400);
    const waived = await admin.post(url, {
      reason: 'Pie pagado directamente al banco',
      version: plan!.version,
    });
    expect(waived.statusCode, waived.body).toBe(200);
    expect(waived.json().account.plan.pieWaiver).toMatchObject({
      reason: 'Pie pagado directamente al banco',
      byName: 'Ana Rojas',
    });
    expect(waived.json().account.may.waivePie).toBe(false);
    await flow.complete(PIE_TASK, { at: NOW });

    const audited = await queryRows(
      ctx.db,
      sql`select after from audit_log where table_name = 'buyer_plans' and action = 'update' order by id desc limit 1`,
    );
    expect(JSON.stringify(audited[0])).toContain('Pie pagado directamente al banco');

    const noPlan = await reservationWithDates(ctx);
    const free = await flowAtPie(noPlan.id);
    await free.complete(PIE_TASK, { at: NOW });
    expect((await free.state()).tasks.find((task) => task.id === free.task(PIE_TASK))?.status).toBe(
      'completed',
    );
  });
});

describe("the buyer's statement", () => {
  const ctx = useTestApp({ now: () => NOW });

  it('is a reproducible PDF and an XLSX of the plan, the payments and their state', async () => {
    const admin = await loginAs(ctx);
    const reservation = await reservationWithDates(ctx);
    const none = await admin.get(`/api/reservations/${reservation.id}/account/statement.pdf`);
    expect(none.statusCode).toBe(404);
    expect(errorOf(none).message).toBe('La reserva no tiene un plan de pagos.');

    await planOf(admin, reservation.id, 3);
    const cheque = await pay(admin, reservation.id, {
      amount: '120',
      means: 'cheque',
      documentNumber: '445566',
    });
    const payment = cheque.json().account.plan.payments[0];
    await admin.post(`/api/reservations/${reservation.id}/account/payments/${payment.id}/reversal`, {
      reason: 'Cheque devuelto',
      version: payment.version,
    });
    await pay(admin, reservation.id, { amount: '30' });

    const first = await admin.get(`/api/reservations/${reservation.id}/account/statement.pdf`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const second = await admin.get(`/api/reservations/${reservation.id}/account/statement.pdf`);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);

    const xlsx = await admin.get(`/api/reservations/${reservation.id}/account/statement.xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const sheet = await readSheet(xlsx.rawPayload);
    expect(sheet[0]).toEqual([
      'Sección',
      'Concepto',
      'Fecha',
      'Monto (UF)',
      'Pagado (UF)',
      'Pesos',
      'Estado',
    ]);
    expect(sheet.slice(1).map((row) => [row[1], row[6]])).toEqual([
      ['Reserva', 'Pagada'],
      ['Promesa', 'Vencida (102 días)'],
      ['Cuota pie 1 de 3', 'Vencida (72 días)'],
      ['Cuota pie 2 de 3', 'Vencida (41 días)'],
      ['Cuota pie 3 de 3', 'Vencida (12 días)'],
      ['Cheque N° 445566', 'Reversado: Cheque devuelto'],
      ['Transferencia N° 1001', 'Recibido'],
    ]);
    expect(sheet[2]?.[4]).toBe(10);
  });
});
