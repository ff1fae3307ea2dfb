import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { dec } from '../../../shared/domain/decimal';
import { paymentUf, ufToClp } from '../../../shared/domain/uf';
import type {
  BrokerConsolidatedPage,
  BrokerPaymentsPage,
  CommissionReportPage,
} from '../../../shared/schemas/reports';
import { type Agent, loginAs, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createReservation, seedUfValues } from '../../test/builders';
import { createCommission, createPaymentFlow } from '../../test/flow-builders';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');
const TODAY_UF = '39902.60';

async function ok<T>(agent: Agent, url: string): Promise<T> {
  const response = await agent.get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

async function sale(
  ctx: TestContext,
  commission: { commissionAmount: string; numberOfPayments?: 1 | 2; firstPaymentPercentage?: 25 | 50 | 100 },
  broker?: { id: string },
) {
  const owner = broker ?? (await createBroker(ctx.db));
  const reservation = await createReservation(ctx.db, {
    isWithBroker: true,
    brokerId: owner.id,
    commissionPaymentMonth: '2026-11-01',
  });
  const created = await createCommission(ctx.db, reservation, {
    numberOfPayments: 1,
    firstPaymentPercentage: 100,
    ...commission,
  });
  return { broker: owner, reservation, commission: created! };
}

/** Dates a payment in the commission's form (no flow yet): its pesos are frozen at that day's value. */
async function datePayment(admin: Agent, reservationId: string, payment1Date: string) {
  const view = (await admin.get(`/api/reservations/${reservationId}`)).json().reservation.commission;
  const saved = await admin.put(`/api/reservations/${reservationId}/commission`, {
    commissionAmount: view.commissionAmount,
    commissionIncludesTax: view.commissionIncludesTax,
    commissionForDiscount: view.commissionForDiscount,
    paysSecondary: view.paysSecondary,
    numberOfPayments: view.numberOfPayments,
    firstPaymentPercentage: view.firstPaymentPercentage,
    payment1Date,
    version: view.version,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('reports in pesos', () => {
  const ctx = useTestApp({ now: () => NOW });

  it("Informe de Comisiones: paid parts frozen, unpaid at today's value ('Estimado'), on screen and in both exports", async () => {
    await seedUfValues(ctx.appDb, { '2026-11-02': '39832.13', '2026-11-20': TODAY_UF });
    const admin = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const manager = await loginAs(ctx);
    const partial = await sale(ctx, {
      commissionAmount: '120.35',
      numberOfPayments: 2,
      firstPaymentPercentage: 50,
    });
    await datePayment(manager, partial.reservation.id, '2026-11-02');
    const paid = await sale(ctx, { commissionAmount: '100.00' });
    await datePayment(manager, paid.reservation.id, '2026-11-02');
    const unpaid = await sale(ctx, { commissionAmount: '2.50' });

    const page = await ok<CommissionReportPage>(admin, '/api/reports/commissions?kind=payment&month=2026-11');
    const byId = new Map(page.rows.map((row) => [row.reservationId, row]));
    // 60,18 × 39.832,13 = 2.397.097,58 → 2.397.098 (frozen) + 60,17 × 39.902,60 = 2.400.938,44 → 2.400.939.
    expect(byId.get(partial.reservation.id)).toMatchObject({
      clpAmount: '4798037',
      ufValue: TODAY_UF,
      clpState: 'Estimado',
    });
    expect(byId.get(paid.reservation.id)).toMatchObject({
      clpAmount: '3983213',
      ufValue: '39832.13',
      clpState: 'Pagado',
    });
    // 2,50 × 39.902,60 = 99.756,5: the half peso goes up.
    expect(byId.get(unpaid.reservation.id)).toMatchObject({ clpAmount: '99757', clpState: 'Estimado' });

    const csv = await admin.get('/api/reports/commissions/export?kind=payment&month=2026-11&format=csv');
    const rows = Papa.parse<string[]>(csv.body.slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    expect(rows[0]?.slice(-3)).toEqual(['Valor UF', 'Monto CLP', 'CLP']);
    const paidRow = rows.find((row) => row[0] === paid.reservation.reservationNumber)!;
    expect(paidRow.slice(-3)).toEqual(['39832,13', '3983213', 'Pagado']);

    const xlsx = await admin.get('/api/reports/commissions/export?kind=payment&month=2026-11&format=xlsx');
    const sheet = await readSheet(xlsx.rawPayload);
    const paidLine = sheet.find((row) => row[0] === paid.reservation.reservationNumber)!;
    expect(paidLine.slice(-3)).toEqual([39832.13, 3983213, 'Pagado']);
  });

  it("shows a missing day as 'Valor UF no disponible', never a guess", async () => {
    await loginAs(ctx);
    const admin = await loginAs(ctx, { userType: 'KAM' });
    const unpaid = await sale(ctx, { commissionAmount: '10.00' });
    const page = await ok<CommissionReportPage>(admin, '/api/reports/commissions?kind=payment&month=2026-11');
    expect(page.rows.find((row) => row.reservationId === unpaid.reservation.id)).toMatchObject({
      clpAmount: null,
      ufValue: null,
      clpState: 'Valor UF no disponible',
    });
  });

  it('Informe de Pagos Brokers: each open payment with its UF, the UF value and the estimated pesos; exported too', async () => {
    await seedUfValues(ctx.appDb, { '2026-11-20': TODAY_UF });
    const agent = await loginAs(ctx, { userType: 'Operaciones' });
    const open = await sale(ctx, { commissionAmount: '100.00' });
    const driver = await createPaymentFlow(ctx.db, { brokerCommissionId: open.commission.id, at: NOW });
    await driver.start({ at: NOW });
    const page = await ok<BrokerPaymentsPage>(
      agent,
      `/api/reports/broker-payments?search=${open.reservation.reservationNumber}`,
    );
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]).toMatchObject({
      paymentLabel: 'Pago 1',
      paymentUf: '100.00',
      ufValue: TODAY_UF,
      clpAmount: '3990260',
      clpState: 'Estimado',
    });
    const csv = await agent.get(
      `/api/reports/broker-payments/export?format=csv&search=${open.reservation.reservationNumber}`,
    );
    const rows = Papa.parse<string[]>(csv.body.slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    expect(rows[0]?.slice(-4)).toEqual(['Monto UF', 'Valor UF', 'Monto CLP', 'CLP']);
    expect(rows[1]?.slice(-4)).toEqual(['100,00', '39902,60', '3990260', 'Estimado']);
  });

  it('Consolidado: the pesos paid, frozen with each payment', async () => {
    await seedUfValues(ctx.appDb, { '2026-11-02': '39832.13' });
    const admin = await loginAs(ctx);
    const partial = await sale(ctx, {
      commissionAmount: '120.35',
      numberOfPayments: 2,
      firstPaymentPercentage: 50,
    });
    await datePayment(admin, partial.reservation.id, '2026-11-02');
    const page = await ok<BrokerConsolidatedPage>(
      admin,
      `/api/reports/broker-consolidated?brokerId=${partial.broker.id}`,
    );
    expect(page.rows[0]).toMatchObject({ paidAmount: '60.18', paidClp: '2397098' });
  });

  it('computes in SQL exactly what shared/domain computes (half pesos, splits, one or two payments)', async () => {
    await seedUfValues(ctx.appDb, { '2026-11-20': TODAY_UF });
    const agent = await loginAs(ctx);
    const broker = await createBroker(ctx.db);
    const cases = [
      { commissionAmount: '2.50' },
      { commissionAmount: '7.50' },
      { commissionAmount: '5.00', numberOfPayments: 2, firstPaymentPercentage: 50 },
      { commissionAmount: '0.01', numberOfPayments: 2, firstPaymentPercentage: 25 },
      { commissionAmount: '999.99', numberOfPayments: 2, firstPaymentPercentage: 25 },
      { commissionAmount: '135.33', numberOfPayments: 2, firstPaymentPercentage: 50 },
      { commissionAmount: '1.23' },
      { commissionAmount: '0.00' },
    ] as const;
    const made = [];
    for (const commission of cases) made.push({ ...(await sale(ctx, commission, broker)), commission });
    const page = await ok<CommissionReportPage>(
      agent,
      '/api/reports/commissions?kind=payment&month=2026-11&pageSize=100',
    );
    for (const { commission, reservation } of made) {
      const figures = {
        commissionAmount: commission.commissionAmount,
        numberOfPayments: 'numberOfPayments' in commission ? commission.numberOfPayments : 1,
        firstPaymentPercentage:
          'firstPaymentPercentage' in commission ? commission.firstPaymentPercentage : 100,
      };
      const expected = dec(ufToClp(paymentUf(figures, 1), TODAY_UF))
        .plus(figures.numberOfPayments === 2 ? ufToClp(paymentUf(figures, 2), TODAY_UF) : 0)
        .toFixed(0);
      const row = page.rows.find((candidate) => candidate.reservationId === reservation.id);
      expect(row?.clpAmount, commission.commissionAmount).toBe(expected);
    }
    // The export reads the same pesos another way (its commission joined, columns of their own).
    const csv = await agent.get('/api/reports/commissions/export?kind=payment&month=2026-11&format=csv');
    const lines = Papa.parse<string[]>(csv.body.slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    for (const row of page.rows) {
      const line = lines.find((candidate) => candidate[0] === row.reservationNumber);
      expect(line?.slice(-2), row.reservationNumber).toEqual([row.clpAmount, row.clpState]);
    }
  });
});
