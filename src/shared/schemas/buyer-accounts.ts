import { z } from 'zod';
import { LINE_KINDS, MAX_INSTALLMENTS, PAYMENT_MEANS } from '../buyer-plan';
import { closed, isoDate, pageOf, requiredNote, requiredText, uuid } from './common';

/**
 * The buyer's account (issue 60, decision 0073): a reservation's payment plan, the payments received
 * and what is overdue. UF amounts travel as strings of four decimals, pesos as whole-number strings.
 */

const INSTALLMENTS_MESSAGE = `Ingrese el número de cuotas del pie: un entero entre 1 y ${MAX_INSTALLMENTS}`;

/** POST /api/reservations/:id/account/plan — the plan from the reservation's figures. */
export const buyerPlanBody = z.strictObject({
  installmentCount: z
    .number({ error: INSTALLMENTS_MESSAGE })
    .int({ error: INSTALLMENTS_MESSAGE })
    .min(1, { error: INSTALLMENTS_MESSAGE })
    .max(MAX_INSTALLMENTS, { error: INSTALLMENTS_MESSAGE }),
});

const UF_MESSAGE = 'Ingrese un monto en UF mayor que 0, con hasta 4 decimales';
const CLP_MESSAGE = 'Ingrese un monto en pesos: entero y mayor que 0';

/** POST /api/reservations/:id/account/payments — a payment received. */
export const buyerPaymentBody = z
  .strictObject({
    paidDate: isoDate('Ingrese la fecha del pago'),
    currency: z.enum(['UF', 'CLP'], { error: 'Seleccione la moneda: UF o pesos' }),
    amount: closed(z.string({ error: 'Ingrese el monto' }).trim(), 'monto'),
    means: z.enum(PAYMENT_MEANS, { error: 'Seleccione el medio de pago' }),
    documentNumber: requiredText('Ingrese el número de documento', 40),
  })
  .superRefine((body, ctx) => {
    const ok =
      body.currency === 'UF'
        ? /^\d{1,9}(\.\d{1,4})?$/.test(body.amount) && Number(body.amount) > 0
        : /^\d{1,12}$/.test(body.amount) && Number(body.amount) > 0;
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: body.currency === 'UF' ? UF_MESSAGE : CLP_MESSAGE,
      });
  });

/** POST …/payments/:paymentId/reversal — a returned cheque, a payment that did not arrive. */
export const buyerReversalBody = z.strictObject({
  reason: requiredNote('Indique el motivo de la reversa', 500),
  version: z.number().int().min(1),
});

/** POST …/account/pie-waiver — an administrator lets 'PENDIENTE CARTA PIE' complete without the pie paid. */
export const pieWaiverBody = z.strictObject({
  reason: requiredNote('Indique el motivo para liberar la carta pie', 500),
  version: z.number().int().min(1),
});

export const paymentParams = z.strictObject({ id: uuid(), paymentId: uuid() });

const planLine = z.object({
  id: z.string(),
  kind: z.enum(LINE_KINDS),
  number: z.number().int(),
  dueDate: z.string(),
  amount: z.string(),
  paidAmount: z.string(),
  isOpen: z.boolean(),
  /** Whole days past its due date when open and due; 0 otherwise. */
  daysLate: z.number().int(),
});
export type BuyerPlanLine = z.infer<typeof planLine>;

const payment = z.object({
  id: z.string(),
  paidDate: z.string(),
  amount: z.string(),
  amountClp: z.string().nullable(),
  ufValue: z.string().nullable(),
  means: z.enum(PAYMENT_MEANS),
  documentNumber: z.string(),
  isReversed: z.boolean(),
  reversedAt: z.string().nullable(),
  reversalReason: z.string().nullable(),
  version: z.number().int(),
});
export type BuyerPayment = z.infer<typeof payment>;

const plan = z.object({
  id: z.string(),
  version: z.number().int(),
  reservationAmount: z.string(),
  promiseAmount: z.string(),
  downPaymentAmount: z.string(),
  installmentCount: z.number().int(),
  creditAmount: z.string(),
  subsidyAmount: z.string(),
  promiseDate: z.string(),
  expectedDeedDate: z.string().nullable(),
  lines: z.array(planLine),
  payments: z.array(payment),
  /** What the buyer pays the developer: reserva + promesa + pie. */
  totalAmount: z.string(),
  paidAmount: z.string(),
  balance: z.string(),
  overdueAmount: z.string(),
  /** Saldo a la escritura: the balance plus the crédito and the subsidio. */
  deedBalance: z.string(),
  isPiePaid: z.boolean(),
  pieWaiver: z.object({ reason: z.string(), at: z.string(), byName: z.string().nullable() }).nullable(),
});
export type BuyerPlan = z.infer<typeof plan>;

export const buyerAccount = z.object({
  reservationId: z.string(),
  reservationNumber: z.string(),
  isRescinded: z.boolean(),
  /** The reservation's figures the plan is built from (UF), and how many cuotas fit before the deed. */
  figures: z.object({
    reservationDate: z.string(),
    reservationPayment: z.string(),
    promisePayment: z.string(),
    downPayment: z.string(),
    creditPayment: z.string(),
    subsidyPayment: z.string(),
    promiseDate: z.string().nullable(),
    deedDate: z.string().nullable(),
    maxInstallments: z.number().int(),
  }),
  plan: plan.nullable(),
  /** What the viewer may do here (the server decides; the screen shows only these). */
  may: z.object({ plan: z.boolean(), recordPayments: z.boolean(), waivePie: z.boolean() }),
});
export type BuyerAccount = z.infer<typeof buyerAccount>;
export const buyerAccountResponse = z.object({ account: buyerAccount });

/** GET /api/buyer-accounts/overdue — 'Cuotas vencidas'. */
export const overdueQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  projectId: uuid('Seleccione un proyecto válido').optional(),
  sellerId: uuid('Seleccione un vendedor válido').optional(),
});
export type OverdueQuery = z.infer<typeof overdueQuery>;

export const overdueRow = z.object({
  lineId: z.string(),
  reservationId: z.string(),
  reservationNumber: z.string(),
  clientName: z.string(),
  projectName: z.string(),
  sellerName: z.string().nullable(),
  kind: z.enum(LINE_KINDS),
  number: z.number().int(),
  dueDate: z.string(),
  amount: z.string(),
  paidAmount: z.string(),
  daysLate: z.number().int(),
});
export type OverdueRow = z.infer<typeof overdueRow>;
export const overduePage = pageOf(overdueRow);
