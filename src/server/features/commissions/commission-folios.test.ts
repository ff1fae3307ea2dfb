import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { InvoiceTaskView } from '../../../shared/schemas/broker-invoices';
import type { CommissionView } from '../../../shared/schemas/reservations';
import { brokerCommissions } from '../../db/schema';
import { type Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createBroker, createReservation, seedUfValues } from '../../test/builders';
import { createCommission, createSaleFlow, FlowDriver } from '../../test/flow-builders';
import { FIRST_PAYMENT_BEFORE_INVOICE } from '../../test/payment-flow-tasks';

/**
 * The purchase order's and the broker's invoices' folios are the facts of the restricted document
 * types (decision 0076, issue 56 step 5): the reservation's commission and the payment flow's invoice
 * panel show them to whoever may read those documents, and say so; the others get them null.
 */

const NOW = new Date('2026-11-20T15:00:00Z');
const BROKER_RUT = '76543210-3';

const body = {
  commissionAmount: '100.00',
  commissionIncludesTax: true,
  commissionForDiscount: false,
  paysSecondary: false,
  numberOfPayments: 1,
  firstPaymentPercentage: 100,
  purchaseOrder: null,
  invoice1: null,
  invoice1Date: null,
  payment1Date: null,
  invoice2: null,
  invoice2Date: null,
  payment2Date: null,
};

describe("the commission's and the invoice panel's folios follow documents.read", () => {
  const ctx = useTestApp({ now: () => NOW });

  async function commissionSeenBy(agent: Agent, reservationId: string): Promise<CommissionView> {
    const response = await agent.get(`/api/reservations/${reservationId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().reservation.commission as CommissionView;
  }

  async function storedCommission(reservationId: string) {
    const [row] = await ctx.db
      .select()
      .from(brokerCommissions)
      .where(eq(brokerCommissions.reservationId, reservationId));
    return row!;
  }

  it('shows the folios to the payments team and administrators, hides them from the others, and a grant shows them', async () => {
    const admin = await loginAs(ctx);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createCommission(ctx.db, reservation, {
      purchaseOrder: 'OC-4410',
      invoice1: '1234',
      invoice1Date: '2026-11-16',
    });

    for (const allowed of [admin, payments]) {
      expect(await commissionSeenBy(allowed, reservation.id)).toMatchObject({
        purchaseOrder: 'OC-4410',
        invoice1: '1234',
        invoice1Date: '2026-11-16',
        foliosShown: true,
      });
    }
    const hidden = await commissionSeenBy(kam, reservation.id);
    expect(hidden).toMatchObject({ purchaseOrder: null, invoice1: null, invoice2: null, foliosShown: false });
    expect(JSON.stringify(hidden)).not.toContain('OC-4410');
    expect(JSON.stringify(hidden)).not.toContain('1234');

    // The office grants KAMs the restricted documents: the folios follow, without a restart.
    expect(
      (await admin.put('/api/settings/permissions/documents.readRestricted/KAM', { granted: true }))
        .statusCode,
    ).toBe(200);
    expect(await commissionSeenBy(kam, reservation.id)).toMatchObject({
      purchaseOrder: 'OC-4410',
      foliosShown: true,
    });
    await admin.put('/api/settings/permissions/documents.readRestricted/KAM', { granted: false });
    expect((await commissionSeenBy(kam, reservation.id)).foliosShown).toBe(false);

    // The reservation's Historial logs the commission's values: the folios follow the same rule.
    const historyUrl = `/api/audit/history/reservations/${reservation.id}`;
    const adminHistory = await admin.get(historyUrl);
    expect(adminHistory.statusCode).toBe(200);
    expect(adminHistory.body).toContain('OC-4410');
    const kamHistory = await kam.get(historyUrl);
    expect(kamHistory.statusCode).toBe(200);
    expect(kamHistory.body).not.toContain('OC-4410');
    expect(kamHistory.body).not.toContain('1234');
    expect(kamHistory.body).toContain('[oculto]');
  });

  it('a save by someone who may not see the folios keeps the stored ones, and typing one is refused', async () => {
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createCommission(ctx.db, reservation, { purchaseOrder: 'OC-4410', invoice1: '1234' });
    const url = `/api/reservations/${reservation.id}/commission`;

    // The KAM's form never showed the folios, so it sends none: the stored ones stay.
    const saved = await kam.put(url, { ...body, commissionAmount: '90.00', version: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().commission).toMatchObject({
      commissionAmount: '90.00',
      purchaseOrder: null,
      invoice1: null,
      foliosShown: false,
      version: 2,
    });
    expect(await storedCommission(reservation.id)).toMatchObject({
      commissionAmount: '90.00',
      purchaseOrder: 'OC-4410',
      invoice1: '1234',
    });

    // Typing a folio one could not read back: refused, nothing changes.
    const refused = await kam.put(url, { ...body, invoice1: '999', version: 2 });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe(
      'Los folios de la orden de compra y de las facturas del broker solo los ven y registran quienes pueden ver esos documentos: no se guardó.',
    );
    expect(await storedCommission(reservation.id)).toMatchObject({ invoice1: '1234', version: 2 });

    // The payments team sees and clears them (null means "none" for whoever sees them).
    const cleared = await payments.put(url, { ...body, commissionAmount: '90.00', version: 2 });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().commission).toMatchObject({
      purchaseOrder: null,
      invoice1: null,
      foliosShown: true,
    });
    expect(await storedCommission(reservation.id)).toMatchObject({ purchaseOrder: null, invoice1: null });
  });

  it('a new commission: folios refused from whoever may not see them, taken from whoever may', async () => {
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db);
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const url = `/api/reservations/${reservation.id}/commission`;

    const refused = await kam.put(url, { ...body, purchaseOrder: 'OC-1' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('COMMISSION_FOLIOS_FORBIDDEN');
    expect(await ctx.db.select().from(brokerCommissions)).toHaveLength(0);

    const created = await payments.put(url, { ...body, purchaseOrder: 'OC-1' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().commission).toMatchObject({ purchaseOrder: 'OC-1', foliosShown: true });
  });

  it("the payment flow's invoice panel: the folio for the payments team, null for a KAM, who still sees the check", async () => {
    const admin = await loginAs(ctx);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db, { rut: BROKER_RUT });
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createSaleFlow(ctx.db, { reservationId: reservation.id, at: NOW });
    await createCommission(ctx.db, reservation, { commissionAmount: '100.00' });
    await seedUfValues(ctx.appDb, { '2026-11-16': '40000.00' });
    const { flowId } = (await admin.post(`/api/payments/${reservation.id}/first-flow`)).json();
    const driver = await FlowDriver.open(ctx.db, flowId);
    await driver.start({ at: NOW });
    await driver.completeAll(FIRST_PAYMENT_BEFORE_INVOICE, { at: NOW });
    const base = `/api/payment-flows/${flowId}/tasks/${driver.task('Recepción Factura Broker')}`;
    const recorded = await payments.post(`${base}/invoice`, {
      kind: 'taxed',
      issuerRut: '76.543.210-3',
      folio: '77',
      issueDate: '2026-11-16',
      netAmount: '3.361.345',
      vatAmount: '638656',
      totalAmount: 4000001,
    });
    expect(recorded.statusCode, recorded.body).toBe(201);

    const panel = async (agent: Agent) => {
      const response = await agent.get(`/api/payment-flows/${flowId}/invoices`);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().tasks as InvoiceTaskView[])[0]!;
    };
    const seen = await panel(payments);
    expect(seen.foliosShown).toBe(true);
    expect(seen.invoice?.folio).toBe('77');
    const hidden = await panel(kam);
    expect(hidden.foliosShown).toBe(false);
    expect(hidden.invoice).toMatchObject({ folio: null, totalAmount: seen.invoice!.totalAmount });
    expect(hidden.check).toEqual(seen.check);
    // The invoice's folio is also the commission's 'Factura 1': hidden there too.
    expect(await commissionSeenBy(kam, reservation.id)).toMatchObject({ invoice1: null, foliosShown: false });
    expect(await commissionSeenBy(payments, reservation.id)).toMatchObject({ invoice1: '77' });
  });
});
