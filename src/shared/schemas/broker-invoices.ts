import { z } from 'zod';
import { BROKER_INVOICE_KINDS, BROKER_INVOICE_SOURCES } from '../domain/broker-invoices';
import { closed, isoDate, requiredNote, rut, uuid } from './common';

/**
 * The broker's invoice on its payment task (issue 33, decision 0039): recorded by hand or read from
 * the SII's XML, checked against the payment line by line, a mismatch accepted by an administrator.
 */

const PESOS_MESSAGE = 'Ingrese un monto en pesos: entero y no negativo';

/** Whole pesos as typed ('1.234.567', '1234567' or a number), normalised to '1234567'. */
const pesos = z
  .union([closed(z.string(), 'pesos'), z.number()], { error: PESOS_MESSAGE })
  .transform((value, ctx) => {
    const text = String(value).trim().replace(/\./g, '');
    if (!/^\d{1,14}$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: PESOS_MESSAGE });
      return z.NEVER;
    }
    return String(Number(text));
  });

const REQUIRED_FOR_KIND = {
  taxed: ['netAmount', 'vatAmount', 'totalAmount'],
  exempt: ['netAmount', 'totalAmount'],
  fees: ['grossAmount', 'withholdingAmount', 'payableAmount'],
} as const;

/** POST (no version: a new invoice) or PUT (the version read) of an invoice typed by hand. */
export const brokerInvoiceBody = z
  .strictObject({
    kind: z.enum(BROKER_INVOICE_KINDS, { error: 'Seleccione el tipo de documento' }),
    issuerRut: rut(),
    folio: z
      .string({ error: 'Ingrese el folio' })
      .trim()
      .regex(/^[1-9]\d{0,9}$/, { error: 'Ingrese un folio numérico (hasta 10 dígitos)' }),
    issueDate: isoDate('Ingrese la fecha de emisión'),
    /** When the office received it (today when not given). */
    receivedDate: isoDate('Ingrese la fecha de recepción').optional(),
    netAmount: pesos.nullish(),
    vatAmount: pesos.nullish(),
    totalAmount: pesos.nullish(),
    grossAmount: pesos.nullish(),
    withholdingAmount: pesos.nullish(),
    payableAmount: pesos.nullish(),
    version: z.number().int().min(1).optional(),
  })
  .superRefine((body, ctx) => {
    for (const key of REQUIRED_FOR_KIND[body.kind]) {
      if (body[key] === null || body[key] === undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: 'Ingrese el monto' });
    }
  })
  .transform((body) => {
    const keep = new Set<string>(REQUIRED_FOR_KIND[body.kind]);
    const amount = (key: keyof typeof body) =>
      keep.has(key) ? ((body[key] as string | null) ?? null) : null;
    return {
      ...body,
      netAmount: amount('netAmount'),
      // An exenta has no IVA.
      vatAmount: body.kind === 'exempt' ? '0' : amount('vatAmount'),
      totalAmount: amount('totalAmount'),
      grossAmount: amount('grossAmount'),
      withholdingAmount: amount('withholdingAmount'),
      payableAmount: amount('payableAmount'),
    };
  });
export type BrokerInvoiceBody = z.input<typeof brokerInvoiceBody>;

export const BROKER_INVOICE_XML_MAX_BYTES = 256 * 1024;

/** The SII's XML of the invoice (base64 of its bytes), recorded as read. */
export const brokerInvoiceXmlBody = z.strictObject({
  content: z
    .base64({ error: 'El archivo no es válido' })
    .max(Math.ceil((BROKER_INVOICE_XML_MAX_BYTES * 4) / 3) + 4, {
      error: 'El archivo es demasiado grande (máximo 256 KB)',
    }),
  receivedDate: isoDate('Ingrese la fecha de recepción').optional(),
  /** The version of the invoice it replaces, if there is one. */
  version: z.number().int().min(1).optional(),
});
export type BrokerInvoiceXmlBody = z.input<typeof brokerInvoiceXmlBody>;

/** An administrator accepts the invoice's mismatch with the payment. */
export const brokerInvoiceAcceptanceBody = z.strictObject({
  reason: requiredNote('Indique el motivo por el que acepta la diferencia', 500),
  version: z.number().int().min(1),
});
export type BrokerInvoiceAcceptanceBody = z.input<typeof brokerInvoiceAcceptanceBody>;

export const flowInvoiceTaskParams = z.strictObject({ flowId: uuid(), taskId: uuid() });

const checkLine = z.object({
  key: z.enum(['issuerRut', 'net', 'vat', 'total', 'gross', 'withholding', 'payable']),
  label: z.string(),
  expected: z.string().nullable(),
  received: z.string(),
  matches: z.boolean(),
  note: z.string().nullable(),
});

export const brokerInvoiceView = z.object({
  id: z.uuid(),
  kind: z.enum(BROKER_INVOICE_KINDS),
  issuerRut: z.string(),
  /** Null for whoever may not see the folios (`foliosShown` of its task). */
  folio: z.string().nullable(),
  issueDate: z.string(),
  receivedDate: z.string(),
  netAmount: z.string().nullable(),
  vatAmount: z.string().nullable(),
  totalAmount: z.string().nullable(),
  grossAmount: z.string().nullable(),
  withholdingAmount: z.string().nullable(),
  payableAmount: z.string().nullable(),
  source: z.enum(BROKER_INVOICE_SOURCES),
  version: z.number().int(),
  acceptance: z.object({ byName: z.string().nullable(), at: z.string(), reason: z.string() }).nullable(),
});
export type BrokerInvoiceView = z.infer<typeof brokerInvoiceView>;

/** One invoice task of a payment flow as its panel shows it. */
export const invoiceTaskView = z.object({
  taskRowId: z.uuid(),
  taskName: z.string(),
  taskStatus: z.string(),
  broker: z.object({ name: z.string(), rut: z.string() }),
  /** The payment in pesos the invoice is checked against (null: 'Valor UF no disponible'). */
  expected: z
    .object({
      clp: z.string().nullable(),
      /** 'frozen': paid, as stored; 'issueDate': at the UF value of the invoice's issue date. */
      basis: z.enum(['frozen', 'issueDate']),
      ufValue: z.string().nullable(),
      ufDate: z.string(),
      includesVat: z.boolean(),
    })
    .nullable(),
  invoice: brokerInvoiceView.nullable(),
  check: z.object({ matches: z.boolean(), lines: z.array(checkLine) }).nullable(),
  /** Ley 19.983's countdown from reception. */
  claim: z
    .object({ deadline: z.string(), daysLeft: z.number().int(), isExpired: z.boolean(), label: z.string() })
    .nullable(),
  /** Why completing the task is refused now (the server's words), or null. */
  completionBlock: z.string().nullable(),
  /**
   * Whether this user may see the invoice's folio, the fact of the restricted type 'Factura del
   * broker' (decision 0076); when false, `invoice.folio` is null.
   */
  foliosShown: z.boolean(),
  canRecord: z.boolean(),
  canAccept: z.boolean(),
});
export type InvoiceTaskView = z.infer<typeof invoiceTaskView>;

export const flowInvoicesResponse = z.object({ tasks: z.array(invoiceTaskView) });
export type FlowInvoices = z.infer<typeof flowInvoicesResponse>;

export const invoiceTaskResponse = z.object({ task: invoiceTaskView });
