import { eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { consolidatedTotals } from '../../../shared/domain/broker-consolidated';
import { dec, money } from '../../../shared/domain/decimal';
import { countsInFigures } from '../../../shared/domain/figures';
import { FIRST_PAYMENT_WORKFLOW, SALE_WORKFLOW } from '../../../shared/domain/workflow/names';
import {
  type BrokerConsolidatedPage,
  type BrokerPaymentsPage,
  type BrokersReportPage,
  brokerPaymentRow,
  type CommissionReportPage,
  type SalesReportPage,
} from '../../../shared/schemas/reports';
import { queryRows } from '../../db/client';
import { pageSql } from '../../db/paging';
import { brokerCommissions } from '../../db/schema';
import { type Agent, errorOf, loginAs, type TestContext, useTestApp } from '../../test/app';
import {
  createBroker,
  createClient,
  createProject,
  createReservation,
  loadInBulk,
} from '../../test/builders';
import { createCommission, createPaymentFlow, createSaleFlow } from '../../test/flow-builders';
import * as queries from './reports.queries';

/** The app's clock: 12:00 on 20 November 2026 in Santiago. */
const NOW = new Date('2026-11-20T15:00:00Z');

async function ok<T>(agent: Agent, url: string): Promise<T> {
  const response = await agent.get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

function csvRows(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const parsed = Papa.parse<string[]>(body.slice(1), { delimiter: ';', skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** A sale with a broker and a commission, in the given months, with its sale flow. */
async function brokerSale(
  c: TestContext,
  options: {
    broker?: { id: string };
    client?: { firstName: string; lastName: string };
    number?: string;
    commission?: string;
    paymentMonth?: string | null;
    projectionMonth?: string | null;
    reservationDate?: string;
    promiseDate?: string | null;
    isRescinded?: boolean;
    projectId?: string;
  } = {},
) {
  const broker = options.broker ?? (await createBroker(c.db));
  const client = options.client ? await createClient(c.db, options.client) : undefined;
  const reservation = await createReservation(c.db, {
    isWithBroker: true,
    brokerId: broker.id,
    ...(client ? { clientId: client.id } : {}),
    ...(options.number ? { reservationNumber: options.number } : {}),
    ...(options.projectId ? { projectId: options.projectId } : {}),
    reservationDate: options.reservationDate ?? '2026-10-15',
    promiseDate: options.promiseDate ?? null,
    commissionPaymentMonth: options.paymentMonth ?? null,
    commissionProjectionMonth: options.projectionMonth ?? null,
    isRescinded: options.isRescinded ?? false,
  });
  const flow = await createSaleFlow(c.db, { reservationId: reservation.id, at: NOW });
  const commission = await createCommission(c.db, reservation, {
    commissionAmount: options.commission ?? '100.00',
  });
  return { broker, reservation, commission, saleFlowId: flow.id };
}

describe('reports', () => {
  const ctx = useTestApp({ now: () => NOW });

  describe('reports: who may read them', () => {
    it('refuses every report and export without a session (401) and serves any signed-in user', async () => {
      const urls = [
        '/api/reports/commissions/months?kind=payment',
        '/api/reports/commissions?kind=payment&month=2027-03',
        '/api/reports/commissions/export?kind=payment&month=2027-03&format=csv',
        '/api/reports/brokers?fromDate=2026-01-01&toDate=2026-12-31',
        '/api/reports/brokers/export?fromDate=2026-01-01&toDate=2026-12-31&format=csv',
        '/api/reports/sales?fromDate=2026-01-01&toDate=2026-12-31',
        '/api/reports/sales/export?fromDate=2026-01-01&toDate=2026-12-31&format=xlsx',
        '/api/reports/broker-payments',
        '/api/reports/broker-payments/export?format=csv',
      ];
      for (const url of urls) {
        const response = await ctx.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(401);
      }
      const kam = await loginAs(ctx, { userType: 'KAM' });
      for (const url of urls) expect((await kam.get(url)).statusCode, url).toBe(200);
    });
  });

  describe('Informe de Comisiones / Proyección Comisiones', () => {
    it('lists the months with data, newest first, for each kind', async () => {
      const agent = await loginAs(ctx);
      await brokerSale(ctx, { paymentMonth: '2027-03-01', projectionMonth: '2027-01-01' });
      await brokerSale(ctx, { paymentMonth: '2026-12-01' });
      await brokerSale(ctx, { paymentMonth: '2027-03-01', projectionMonth: '2027-05-01' });
      expect(await ok(agent, '/api/reports/commissions/months?kind=payment')).toEqual({
        months: ['2027-03-01', '2026-12-01'],
      });
      expect(await ok(agent, '/api/reports/commissions/months?kind=projection')).toEqual({
        months: ['2027-05-01', '2027-01-01'],
      });
    });

    it("shows the month's reservations by number with Monto Neto = total − subsidy − commission and the totals", async () => {
      const agent = await loginAs(ctx);
      const b = await brokerSale(ctx, { number: 'R-0002', paymentMonth: '2027-03-01', commission: '120.50' });
      const a = await brokerSale(ctx, { number: 'R-0001', paymentMonth: '2027-03-01', commission: '80.00' });
      await brokerSale(ctx, { number: 'R-0003', paymentMonth: '2027-04-01' });
      const page = await ok<CommissionReportPage>(
        agent,
        '/api/reports/commissions?kind=payment&month=2027-03',
      );
      expect(page.rows.map((row) => row.reservationNumber)).toEqual(['R-0001', 'R-0002']);
      const first = page.rows[0]!;
      expect(first).toMatchObject({
        reservationId: a.reservation.id,
        apartmentNumber: a.reservation.apartmentNumber,
        commissionAmount: '80.00',
        saleFlowId: a.saleFlowId,
        isRescinded: false,
      });
      // total payment 3000, subsidy 100 (the builder's payments).
      expect(a.reservation.totalPayment).toBe('3000.00');
      expect(first.netAmount).toBe('2820.00');
      expect(page.rows[1]!.netAmount).toBe('2779.50');
      expect(page.totals).toEqual({ commissionAmount: '200.50', netAmount: '5599.50' });
      expect(page.total).toBe(2);

      const byCommission = await ok<CommissionReportPage>(
        agent,
        '/api/reports/commissions?kind=payment&month=2027-03&sort=commissionAmount&direction=desc',
      );
      expect(byCommission.rows.map((row) => row.reservationId)).toEqual([b.reservation.id, a.reservation.id]);

      const projection = await ok<CommissionReportPage>(
        agent,
        '/api/reports/commissions?kind=projection&month=2027-03',
      );
      expect(projection.rows).toEqual([]);
      expect(projection.totals).toEqual({ commissionAmount: '0.00', netAmount: '0.00' });
    });

    it('refuses a month that is not one, and an unknown order, in Spanish', async () => {
      const agent = await loginAs(ctx);
      const bad = await agent.get('/api/reports/commissions?kind=payment&month=2027-13');
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(errorOf(bad))).toContain('Seleccione un mes válido');
      const sort = await agent.get('/api/reports/commissions?kind=payment&month=2027-03&sort=rut');
      expect(sort.statusCode).toBe(400);
      expect(JSON.stringify(errorOf(sort))).toContain('Orden no válido');
    });

    it('exports CSV and XLSX read back by independent readers: headers, rows, numbers, accents, formula-looking text', async () => {
      const agent = await loginAs(ctx);
      await brokerSale(ctx, {
        number: 'R-0001',
        paymentMonth: '2027-03-01',
        commission: '1234.56',
        client: { firstName: '=HYPERLINK("http://x")', lastName: 'Ñúñez' },
      });
      await brokerSale(ctx, {
        number: 'R-0002',
        paymentMonth: '2027-03-01',
        client: { firstName: 'José', lastName: 'Muñoz' },
      });
      const csv = await agent.get('/api/reports/commissions/export?kind=payment&month=2027-03&format=csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="informe_comisiones_2027-03.csv"; filename*=UTF-8''informe_comisiones_2027-03.csv`,
      );
      const rows = csvRows(csv.body);
      expect(rows[0]).toEqual([
        'N° Reserva',
        'Estado',
        'Cliente',
        'Proyecto',
        'Depto.',
        'Broker',
        'Comisión',
        'Monto Neto',
        'Valor UF',
        'Monto CLP',
        'CLP',
      ]);
      expect(rows).toHaveLength(1 + 2 + 1);
      expect(rows[1]?.[1]).toBe('Vigente');
      expect(rows[1]?.[2]).toBe(`'=HYPERLINK("http://x") Ñúñez`);
      expect(rows[1]?.[6]).toBe('1234,56');
      expect(rows[2]?.[2]).toBe('José Muñoz');
      expect(rows[3]?.[0]).toBe('Totales (excluye resciliadas)');
      expect(rows[3]?.[6]).toBe('1334,56');

      const xlsx = await agent.get(
        '/api/reports/commissions/export?kind=projection&month=2027-03&format=xlsx',
      );
      expect(xlsx.headers['content-disposition']).toBe(
        `attachment; filename="proyeccion_comisiones_2027-03.xlsx"; filename*=UTF-8''proyeccion_comisiones_2027-03.xlsx`,
      );
      // No projection in March: the header and an all-zero totals row.
      expect(await readSheet(xlsx.rawPayload)).toEqual([
        [
          'N° Reserva',
          'Estado',
          'Cliente',
          'Proyecto',
          'Depto.',
          'Broker',
          'Comisión',
          'Monto Neto',
          'Valor UF',
          'Monto CLP',
          'CLP',
        ],
        ['Totales (excluye resciliadas)', null, null, null, null, null, 0, 0, null, null, null],
      ]);
      const payment = await agent.get(
        '/api/reports/commissions/export?kind=payment&month=2027-03&format=xlsx',
      );
      const sheet = await readSheet(payment.rawPayload);
      expect(sheet).toHaveLength(4);
      expect(sheet[1]?.[2]).toBe('=HYPERLINK("http://x") Ñúñez');
      expect(sheet[1]?.[6]).toBe(1234.56);
      expect(sheet[3]?.[6]).toBe(1334.56);
    });
  });

  describe('Informe de Brokers', () => {
    it('runs only with a broker or a full date range, and with dates in order', async () => {
      const agent = await loginAs(ctx);
      for (const url of [
        '/api/reports/brokers',
        '/api/reports/brokers?fromDate=2026-01-01',
        '/api/reports/brokers/export?format=csv&toDate=2026-01-01',
      ]) {
        const response = await agent.get(url);
        expect(response.statusCode, url).toBe(400);
        expect(JSON.stringify(errorOf(response))).toContain(
          'Seleccione un broker o un rango de fechas completo',
        );
      }
      const reversed = await agent.get('/api/reports/brokers?fromDate=2026-12-01&toDate=2026-01-01');
      expect(JSON.stringify(errorOf(reversed))).toContain('La fecha de inicio no puede ser posterior');
    });

    it("lists a broker's reservations newest first with the commission total; the date type picks the column", async () => {
      const agent = await loginAs(ctx);
      const broker = await createBroker(ctx.db, { name: 'Corredora Andes' });
      const older = await brokerSale(ctx, {
        broker,
        reservationDate: '2026-03-01',
        promiseDate: '2026-09-10',
      });
      const newer = await brokerSale(ctx, { broker, reservationDate: '2026-08-01', commission: '50.25' });
      await brokerSale(ctx, { reservationDate: '2026-08-02' });
      // Without a broker: not in the report.
      await createReservation(ctx.db, { reservationDate: '2026-08-03' });

      const page = await ok<BrokersReportPage>(agent, `/api/reports/brokers?brokerId=${broker.id}`);
      expect(page.rows.map((row) => row.reservationId)).toEqual([newer.reservation.id, older.reservation.id]);
      expect(page.rows[1]).toMatchObject({ brokerName: 'Corredora Andes', promiseDate: '2026-09-10' });
      expect(page.totals).toEqual({ commissionAmount: '150.25' });

      const byRange = await ok<BrokersReportPage>(
        agent,
        '/api/reports/brokers?fromDate=2026-08-01&toDate=2026-08-31',
      );
      expect(byRange.total).toBe(2);
      const byPromise = await ok<BrokersReportPage>(
        agent,
        '/api/reports/brokers?dateType=promise&fromDate=2026-09-01&toDate=2026-09-30',
      );
      expect(byPromise.rows.map((row) => row.reservationId)).toEqual([older.reservation.id]);

      const csv = await agent.get(`/api/reports/brokers/export?brokerId=${broker.id}&format=csv`);
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="informe_brokers_2026-11-20.csv"; filename*=UTF-8''informe_brokers_2026-11-20.csv`,
      );
      const rows = csvRows(csv.body);
      expect(rows[1]?.[5]).toBe('01/08/2026');
      expect(rows[2]?.[6]).toBe('10/09/2026');
      expect(rows.at(-1)).toEqual(['Totales (excluye resciliadas)', '', '', '', '', '', '', '', '150,25']);
    });
  });

  describe('Informe de Ventas', () => {
    it('sums Precio Lista, Precio Mínimo and Total Escrituración over the filtered reservations', async () => {
      const agent = await loginAs(ctx);
      const project = await createProject(ctx.db, { name: 'Edificio Ñandú' });
      const a = await createReservation(ctx.db, { projectId: project.id, reservationDate: '2026-05-01' });
      const b = await createReservation(ctx.db, { projectId: project.id, reservationDate: '2026-06-01' });
      await createReservation(ctx.db, { reservationDate: '2026-06-01' });
      const page = await ok<SalesReportPage>(agent, `/api/reports/sales?projectId=${project.id}`);
      expect(page.rows.map((row) => row.reservationId)).toEqual([b.id, a.id]);
      expect(page.rows[0]).toMatchObject({
        projectName: 'Edificio Ñandú',
        brokerName: null,
        totalPayment: '3000.00',
      });
      expect(a.minimumPrice).toBe('3050.00');
      expect(page.totals).toEqual({
        totalPrice: '6400.00',
        minimumPrice: '6100.00',
        totalPayment: '6000.00',
      });

      const xlsx = await agent.get(`/api/reports/sales/export?projectId=${project.id}&format=xlsx`);
      expect(xlsx.headers['content-disposition']).toBe(
        `attachment; filename="informe_ventas_2026-11-20.xlsx"; filename*=UTF-8''informe_ventas_2026-11-20.xlsx`,
      );
      const sheet = await readSheet(xlsx.rawPayload);
      expect(sheet[0]).toEqual([
        'N° Reserva',
        'Estado',
        'Cliente',
        'Proyecto',
        'Depto.',
        'Broker',
        'Fecha de Reserva',
        'Promesa',
        'Escritura',
        'Escrituración',
      ]);
      expect(sheet[1]?.[6]).toEqual(new Date(Date.UTC(2026, 5, 1)));
      expect(sheet[1]?.[9]).toBe(3000);
      expect(sheet[3]).toEqual([
        'Totales (excluye resciliadas)',
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        6000,
      ]);
    });
  });

  describe('one meaning of rescinded (issue 28 §4)', () => {
    it('lists a rescinded reservation with its Estado but counts it in no figure: dashboard, totals rows, cards and exports agree', async () => {
      const agent = await loginAs(ctx);
      const broker = await createBroker(ctx.db, { name: 'Corredora Única' });
      const project = await createProject(ctx.db, { name: 'Edificio Resciliado' });
      const sale = {
        broker,
        projectId: project.id,
        paymentMonth: '2027-05-01',
        reservationDate: '2026-07-01',
      };
      await brokerSale(ctx, { ...sale, number: 'R-10', commission: '100.00' });
      const risky = await brokerSale(ctx, { ...sale, number: 'R-11', commission: '40.00' });
      await brokerSale(ctx, { ...sale, number: 'R-12', commission: '25.50', isRescinded: true });
      await ctx.db
        .update(brokerCommissions)
        .set({ atRisk: true, atRiskReason: 'Crédito en evaluación' })
        .where(eq(brokerCommissions.id, risky.commission.id));
      // What a figure counts, in TypeScript, over the rows each list shows.
      const liveSum = (rows: { isRescinded: boolean; [key: string]: unknown }[], key: string) =>
        money(rows.filter(countsInFigures).reduce((sum, row) => sum.plus(String(row[key] ?? '0')), dec(0)));

      const commissions = await ok<CommissionReportPage>(
        agent,
        '/api/reports/commissions?kind=payment&month=2027-05',
      );
      expect(commissions.rows.map((row) => [row.reservationNumber, row.statusLabel])).toEqual([
        ['R-10', 'Vigente'],
        ['R-11', 'Vigente'],
        ['R-12', 'Resciliada'],
      ]);
      // The at-risk commission is a live one: it counts; the rescinded one does not.
      expect(commissions.totals.commissionAmount).toBe('140.00');
      expect(commissions.totals).toEqual({
        commissionAmount: liveSum(commissions.rows, 'commissionAmount'),
        netAmount: liveSum(commissions.rows, 'netAmount'),
      });

      const brokers = await ok<BrokersReportPage>(agent, `/api/reports/brokers?brokerId=${broker.id}`);
      expect(brokers.total).toBe(3);
      expect(brokers.totals).toEqual({ commissionAmount: liveSum(brokers.rows, 'commissionAmount') });

      const sales = await ok<SalesReportPage>(agent, `/api/reports/sales?projectId=${project.id}`);
      expect(sales.total).toBe(3);
      expect(sales.totals.totalPayment).toBe(liveSum(sales.rows, 'totalPayment'));
      expect(sales.totals.totalPayment).toBe('6000.00');

      // The dashboard counts the same reservations and the same commission for the broker.
      const dashboard = (await agent.get('/api/dashboard')).json() as {
        totals: { reservations: number };
        brokerStats: { id: string; reservations: number; commissions: string }[];
      };
      expect(dashboard.totals.reservations).toBe(2);
      expect(dashboard.brokerStats.find((row) => row.id === broker.id)).toMatchObject({
        reservations: 2,
        commissions: brokers.totals.commissionAmount,
      });

      // The consolidated view leaves the at-risk one out of Total Comisiones, as the spec says.
      const consolidated = await ok<BrokerConsolidatedPage>(
        agent,
        `/api/reports/broker-consolidated?brokerId=${broker.id}`,
      );
      expect(consolidated.totals.totalCommission).toBe('100.00');

      // Exports: the 'Estado' of each row and a totals row that says what it leaves out.
      const csv = csvRows(
        (await agent.get(`/api/reports/brokers/export?brokerId=${broker.id}&format=csv`)).body,
      );
      expect(csv[0]?.slice(0, 2)).toEqual(['N° Reserva', 'Estado']);
      expect(
        csv
          .slice(1, 4)
          .map((row) => row[1])
          .sort(),
      ).toEqual(['Resciliada', 'Vigente', 'Vigente']);
      expect(csv.at(-1)?.[0]).toBe('Totales (excluye resciliadas)');
      expect(csv.at(-1)?.at(-1)).toBe('140,00');
    });
  });

  describe('Informe de Pagos Brokers', () => {
    it('lists the open tasks of payment flows in progress, most days first, late ones with their days late', async () => {
      const agent = await loginAs(ctx);
      const started = await brokerSale(ctx, { number: 'R-0100' });
      const flow = await createPaymentFlow(ctx.db, { brokerCommissionId: started.commission.id });
      await flow.start({ at: new Date('2026-11-01T15:00:00Z') });
      const waiting = await brokerSale(ctx, { number: 'R-0200' });
      // A pending flow (not started): none of its tasks are listed.
      await createPaymentFlow(ctx.db, { brokerCommissionId: waiting.commission.id });

      const page = await ok<BrokerPaymentsPage>(agent, '/api/reports/broker-payments');
      expect(page.total).toBeGreaterThan(0);
      expect(new Set(page.rows.map((row) => row.reservationNumber))).toEqual(new Set(['R-0100']));
      const first = page.rows[0]!;
      expect(first).toMatchObject({
        flowId: flow.id,
        paymentLabel: 'Pago 1',
        taskName: 'Solicitud Liquidación',
      });
      // The reservation's and commission's values, looked up after the limit, and nothing else: the
      // keys the statement joined them by stay out of the row.
      expect(first).toMatchObject({ projectName: expect.any(String), apartmentNumber: expect.any(String) });
      expect(Object.keys(first).sort()).toEqual(Object.keys(brokerPaymentRow.shape).sort());
      expect(first.daysPending).toBe(19);
      expect(first.daysLate).toBe(Math.max(0, 19 - (first.daysToComplete ?? 0)));
      expect(first.daysLate).toBeGreaterThan(0);
      const days = page.rows.map((row) => row.daysPending);
      expect(days).toEqual([...days].sort((x, y) => y - x));

      const searched = await ok<BrokerPaymentsPage>(agent, '/api/reports/broker-payments?search=liquidacion');
      expect(searched.rows.map((row) => row.taskName)).toEqual(['Solicitud Liquidación']);
      const none = await ok<BrokerPaymentsPage>(agent, '/api/reports/broker-payments?search=R-0200');
      expect(none.rows).toEqual([]);

      const csv = await agent.get('/api/reports/broker-payments/export?format=csv');
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="informe_pagos_brokers_2026-11-20.csv"; filename*=UTF-8''informe_pagos_brokers_2026-11-20.csv`,
      );
      expect(csvRows(csv.body)).toHaveLength(1 + page.total);
    });
  });

  describe('Consolidado Brokers', () => {
    async function consolidatedFixture() {
      const broker = await createBroker(ctx.db, { name: 'Corredora Sur' });
      const paid = await brokerSale(ctx, { broker, number: 'R-1' });
      const partial = await brokerSale(ctx, { broker, number: 'R-2' });
      const risky = await brokerSale(ctx, { broker, number: 'R-3' });
      const rescinded = await brokerSale(ctx, { broker, number: 'R-4', isRescinded: true });
      const { db } = ctx;
      await db
        .update(brokerCommissions)
        .set({ payment1Date: '2026-10-01' })
        .where(eq(brokerCommissions.id, paid.commission.id));
      await db
        .update(brokerCommissions)
        .set({
          commissionAmount: '200.00',
          numberOfPayments: 2,
          firstPaymentPercentage: 25,
          payment1Date: '2026-10-01',
        })
        .where(eq(brokerCommissions.id, partial.commission.id));
      await db
        .update(brokerCommissions)
        .set({ atRisk: true, atRiskReason: 'Cliente sin crédito', payment1Date: '2026-10-01' })
        .where(eq(brokerCommissions.id, risky.commission.id));
      return { broker, paid, partial, risky, rescinded };
    }

    it('shows the totals of spec §9, equal to the domain formulas over the rows, and each row standing', async () => {
      const agent = await loginAs(ctx);
      const { broker } = await consolidatedFixture();
      const page = await ok<BrokerConsolidatedPage>(
        agent,
        `/api/reports/broker-consolidated?brokerId=${broker.id}`,
      );
      expect(page.rows.map((row) => row.reservationNumber)).toEqual(['R-1', 'R-2', 'R-3', 'R-4']);
      expect(page.rows.map((row) => row.statusLabel)).toEqual([
        'Pagada',
        'Pago parcial',
        'En Riesgo',
        'Resciliada',
      ]);
      expect(page.rows.map((row) => row.paidAmount)).toEqual(['100.00', '50.00', '100.00', '0.00']);
      expect(page.totals).toEqual({
        totalCommission: '300.00',
        totalPaid: '150.00',
        totalAtRisk: '100.00',
        totalPending: '150.00',
      });
      expect(page.totals).toEqual(consolidatedTotals(page.rows));

      const xlsx = await agent.get(
        `/api/reports/broker-consolidated/export?brokerId=${broker.id}&format=xlsx`,
      );
      expect(xlsx.headers['content-disposition']).toBe(
        `attachment; filename="consolidado_broker_2026-11-20.xlsx"; filename*=UTF-8''consolidado_broker_2026-11-20.xlsx`,
      );
      const sheet = await readSheet(xlsx.rawPayload);
      expect(sheet).toHaveLength(1 + 4 + 4);
      expect(sheet[3]?.[9]).toBe('En Riesgo'); // after 'Pagado CLP' (issue 33)
      // The screen's four cards, each labelled, under the column it sums.
      expect(sheet.slice(5).map((row) => [row[0], row[4], row[7]])).toEqual([
        ['Total Comisiones (excluye resciliadas y en riesgo)', 300, null],
        ['Total Pagado', null, 150],
        ['Total En Riesgo', null, 100],
        ['Total Pendiente', 150, null],
      ]);
    });

    it('refuses an unknown broker (404) and a missing one (400)', async () => {
      const agent = await loginAs(ctx);
      const missing = await agent.get('/api/reports/broker-consolidated');
      expect(missing.statusCode).toBe(400);
      const unknown = await agent.get(
        '/api/reports/broker-consolidated?brokerId=00000000-0000-4000-8000-000000000000',
      );
      expect(unknown.statusCode).toBe(404);
      expect(errorOf(unknown).message).toBe('El broker no existe.');
    });

    it('marks a commission at risk with its reason and clears it; refuses a rescinded unit and a stale version', async () => {
      const agent = await loginAs(ctx, { userType: 'Gestor de Pagos' });
      const { paid, rescinded } = await consolidatedFixture();
      const url = `/api/reports/broker-consolidated/${paid.reservation.id}/risk`;

      const noReason = await agent.put(url, { atRisk: true, reason: '', version: paid.commission.version });
      expect(noReason.statusCode).toBe(400);

      const marked = await agent.put(url, {
        atRisk: true,
        reason: 'Promesa caída',
        version: paid.commission.version,
      });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json().commission).toMatchObject({ atRisk: true, atRiskReason: 'Promesa caída' });
      const version = marked.json().commission.version as number;

      const stale = await agent.put(url, { atRisk: false, version: paid.commission.version });
      expect(stale.statusCode).toBe(409);

      const cleared = await agent.put(url, { atRisk: false, reason: 'ignorado', version });
      expect(cleared.json().commission).toMatchObject({ atRisk: false, atRiskReason: null });

      const refused = await agent.put(`/api/reports/broker-consolidated/${rescinded.reservation.id}/risk`, {
        atRisk: true,
        reason: 'x',
        version: rescinded.commission.version,
      });
      expect(refused.statusCode).toBe(409);
      expect(errorOf(refused).message).toBe('No se puede marcar en riesgo una unidad resciliada');

      const anonymous = await ctx.app.inject({
        method: 'PUT',
        url,
        payload: { atRisk: false, version },
        headers: { origin: 'http://localhost' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('the statements at scale', () => {
    async function planOf(statement: ReturnType<typeof sql>): Promise<string> {
      const rows = await queryRows<Record<string, string>>(ctx.db, sql`explain ${statement}`);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    }

    it('reads every row of an export once, in the page order, chunk after chunk, whatever the sort key', async () => {
      const broker = await createBroker(ctx.db);
      const amounts = ['10.50', '10.50', '200.00', '3.25', '1000.10'];
      for (const [index, commission] of amounts.entries())
        await brokerSale(ctx, {
          broker,
          commission,
          paymentMonth: '2027-03-01',
          reservationDate: `2026-0${1 + (index % 3)}-15`,
          client: { firstName: `Cliente ${5 - index}`, lastName: 'Soto' },
        });
      const month = { kind: 'payment', month: '2027-03' } as const;
      const dates = { dateType: 'reservation', fromDate: '2026-01-01', toDate: '2026-12-31' } as const;
      const reports: [string, (direction: 'asc' | 'desc') => queries.ReportSql][] = [
        [
          'amount',
          (direction) =>
            queries.commissionReportSql({ ...month, sort: 'commissionAmount', direction }, '2026-11-20'),
        ],
        [
          'net amount',
          (direction) =>
            queries.commissionReportSql({ ...month, sort: 'netAmount', direction }, '2026-11-20'),
        ],
        [
          'client',
          (direction) =>
            queries.commissionReportSql({ ...month, sort: 'clientName', direction }, '2026-11-20'),
        ],
        [
          'number',
          (direction) =>
            queries.commissionReportSql({ ...month, sort: 'reservationNumber', direction }, '2026-11-20'),
        ],
        ['date', (direction) => queries.brokersReportSql({ ...dates, sort: 'reservationDate', direction })],
        ['promise', (direction) => queries.brokersReportSql({ ...dates, sort: 'promiseDate', direction })],
      ];
      for (const [name, reportSql] of reports)
        for (const direction of ['asc', 'desc'] as const) {
          const report = reportSql(direction);
          const page = await queries.selectReportPage<{ reservationId: string }, never>(
            ctx.db,
            report,
            1,
            100,
          );
          expect(page.rows).toHaveLength(amounts.length);
          // Two rows a chunk: the cursor (the sort key as text, the id) must carry the walk on.
          const walked: string[] = [];
          let after: queries.ReportCursor | null = null;
          for (;;) {
            const chunk: { rows: { reservationId: string }[]; cursor: queries.ReportCursor | null } =
              await queries.selectReportChunk(ctx.db, report, after, 2);
            walked.push(...chunk.rows.map((row) => row.reservationId));
            if (chunk.rows.length < 2 || !chunk.cursor) break;
            after = chunk.cursor;
          }
          expect(walked, `${name} ${direction}`).toEqual(page.rows.map((row) => row.reservationId));
        }
      // Money stays a decimal string through the chunk's JSON.
      const chunk = await queries.selectReportChunk<{ commissionAmount: string; netAmount: string }>(
        ctx.db,
        queries.commissionReportSql(
          {
            kind: 'payment',
            month: '2027-03',
            sort: 'commissionAmount',
            direction: 'asc',
          },
          '2027-03-12',
        ),
        null,
        10,
      );
      expect(chunk.rows.map((row) => row.commissionAmount)).toEqual([
        '3.25',
        '10.50',
        '10.50',
        '200.00',
        '1000.10',
      ]);
      expect(chunk.rows[0]?.netAmount).toBe('2896.75');
    });

    it('finds the open payment tasks off flow_tasks_open_idx and sums commissions with a join, not a lookup per row', async () => {
      const project = await createProject(ctx.db);
      const broker = await createBroker(ctx.db);
      // Plan shape only: 6,000 sales with their flows' task rows, loaded as the generator does
      // (without the audit and inbox triggers). Every sale flow has 25 task rows, a third of them
      // open; every sale has a first payment flow of 18 task rows, one in ten in progress with one
      // open task, the others completed.
      await loadInBulk(
        ctx.db,
        ['clients', 'reservations', 'broker_commissions', 'flows', 'flow_tasks'],
        [
          sql`insert into clients (rut, first_name, last_name, birth_date)
          select g || '-' || (g % 10), 'Cliente ' || g, 'Apellido ' || g, date '1980-01-01'
            from generate_series(3000000, 3005999) g`,
          sql`insert into reservations (reservation_number, client_id, project_id, reservation_date,
                                                        apartment_number, is_with_broker, broker_id)
          select 'P-' || n, id, ${project.id}, date '2025-01-01' + (n % 600)::int, n::text, true, ${broker.id}
            from (select c.id, row_number() over (order by c.id) as n from clients c) numbered`,
          sql`insert into broker_commissions (reservation_id, broker_id, commission_amount)
          select r.id, r.broker_id, 100 from reservations r`,
          sql`insert into flows (workflow_id, kind, reservation_id, status)
          select w.id, 'sale', r.id, 'in_progress' from reservations r, workflows w where w.name = ${SALE_WORKFLOW}`,
          sql`insert into flows (workflow_id, kind, reservation_id, broker_commission_id, status, started_at)
          select w.id, 'payment', bc.reservation_id, bc.id,
                 case when row_number() over (order by bc.id) % 10 = 0 then 'in_progress' else 'completed' end, now()
            from broker_commissions bc, workflows w where w.name = ${FIRST_PAYMENT_WORKFLOW}`,
          sql`insert into flow_tasks (flow_id, task_id, status, completed_at)
          select f.id, t.id, task.status, case when task.status = 'completed' then now() end
            from flows f
            join workflow_stages s on s.workflow_id = f.workflow_id
            join workflow_tasks t on t.stage_id = s.id
            cross join lateral (
              select case
                when f.kind = 'sale' then case when t.sort_order % 3 = 0 then 'pending' else 'completed' end
                when f.status = 'completed' then 'completed'
                when s.sort_order = 1 and t.sort_order = 1 then 'pending'
                else 'blocked' end as status
            ) as task`,
        ],
      );
      await ctx.db.execute(sql`analyze`);

      const payments = await planOf(
        pageSql(
          queries.reportPageSql(
            queries.brokerPaymentsSql({ sort: 'daysPending', direction: 'desc' }, '2026-11-20'),
            1,
            25,
          ),
        ),
      );
      expect(payments).toContain('flow_tasks_open_idx');
      expect(payments).not.toMatch(/Seq Scan on flow_tasks/);

      const brokers = await planOf(
        pageSql(
          queries.reportPageSql(
            queries.brokersReportSql({
              dateType: 'reservation',
              fromDate: '1900-01-01',
              toDate: '2100-12-31',
              sort: 'reservationDate',
              direction: 'desc',
            }),
            1,
            25,
          ),
        ),
      );
      // The page off the date index; the total joins the commissions once instead of a lookup per row.
      expect(brokers).toContain('reservations_broker_date_idx');
      expect(brokers).toMatch(/Hash (Right |Left )?Join/);
      expect(brokers).not.toMatch(/Sort Key: r\w*\.reservation_date/);
    }, 120_000);
  });
});
