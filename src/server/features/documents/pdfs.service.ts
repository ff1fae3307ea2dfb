import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { paymentUf } from '../../../shared/domain/uf';
import {
  formatCLP,
  formatDate,
  formatFractionAsPercent,
  formatInstantDate,
  formatRut,
  formatUF,
  formatUfValue,
} from '../../../shared/format';
import { allow } from '../../../shared/policies';
import type { ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';
import * as files from '../files/files.service';
import { findReceiptData, findStatementData } from './pdfs.queries';

/**
 * The product's own PDFs (issue 35, decision 0037): 'Comprobante de Reserva' and 'Liquidación de
 * Comisión', made on demand with pdfkit from the reservation's data. Reproducible: the document's
 * creation date is the data's own (the reservation's creation, the commission's last change) and
 * its /ID is derived from its metadata, so the same data gives the same bytes; nothing of the
 * request's clock or a random number enters them.
 */

/** The project's logo as PNG (pdfkit reads PNG and JPEG; ours are stored as WebP), or null. */
async function logoOf(ctx: ServiceContext, logoUrl: string | null): Promise<Buffer | null> {
  const name = files.storedFileNameOf(logoUrl);
  if (!name) return null;
  try {
    const file = await files.getFile(ctx, name);
    return await sharp(file.bytes).png({ compressionLevel: 9 }).toBuffer();
  } catch {
    return null;
  }
}

const UNIT_KINDS: Record<string, string> = {
  apartment: 'Departamento',
  parking: 'Estacionamiento',
  storage: 'Bodega',
};

const INK = '#1f2937';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
const LEFT = 56;
const WIDTH = 483;

/** One page of ours: logo, title, subtitle; then sections of label–value rows. */
class Sheet {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(title: string, subject: string, createdAt: Date) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: 56, bottom: 56, left: LEFT, right: LEFT },
      // The data's own date: the same data, the same bytes (pdfkit derives the /ID from this metadata).
      info: {
        Title: title,
        Subject: subject,
        Author: 'Inmoflujo',
        Creator: 'Inmoflujo',
        Producer: 'Inmoflujo',
        CreationDate: createdAt,
      },
      lang: 'es-CL',
      compress: true,
    });
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
  }

  header(title: string, lines: string[], logo: Buffer | null) {
    const top = this.doc.y;
    if (logo) this.doc.image(logo, LEFT + WIDTH - 120, top, { fit: [120, 60], align: 'right' });
    this.doc
      .font('Helvetica-Bold')
      .fontSize(18)
      .fillColor(INK)
      .text(title, LEFT, top, { width: WIDTH - 140 });
    this.doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor(MUTED);
    for (const line of lines) this.doc.text(line, { width: WIDTH - 140 });
    this.doc.y = Math.max(this.doc.y, top + 64);
    this.rule();
  }

  rule() {
    this.doc.moveDown(0.5);
    this.doc
      .moveTo(LEFT, this.doc.y)
      .lineTo(LEFT + WIDTH, this.doc.y)
      .lineWidth(0.7)
      .strokeColor(RULE)
      .stroke();
    this.doc.moveDown(0.6);
  }

  section(title: string) {
    this.doc.moveDown(0.4).font('Helvetica-Bold').fontSize(11).fillColor(INK).text(title, LEFT, this.doc.y);
    this.doc.moveDown(0.3);
  }

  /** A row: the label on the left, the value right-aligned (or on the right half when long). */
  row(label: string, value: string, options: { bold?: boolean } = {}) {
    const y = this.doc.y;
    this.doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(label, LEFT, y, { width: 220 });
    const afterLabel = this.doc.y;
    this.doc
      .font(options.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fillColor(INK)
      .text(value, LEFT + 230, y, { width: WIDTH - 230, align: 'right' });
    this.doc.y = Math.max(afterLabel, this.doc.y) + 2;
  }

  /** A table: header cells and rows of cells, the first column left, the others right-aligned. */
  table(columns: { label: string; width: number }[], rows: string[][]) {
    const draw = (cells: string[], font: string, color: string) => {
      const y = this.doc.y;
      let x = LEFT;
      let bottom = y;
      cells.forEach((cell, index) => {
        const width = columns[index]!.width;
        this.doc
          .font(font)
          .fontSize(9)
          .fillColor(color)
          .text(cell, x, y, {
            width: index === cells.length - 1 ? width : width - 6,
            align: index === 0 ? 'left' : 'right',
          });
        bottom = Math.max(bottom, this.doc.y);
        x += width;
      });
      this.doc.y = bottom + 3;
    };
    draw(
      columns.map((column) => column.label),
      'Helvetica-Bold',
      MUTED,
    );
    for (const cells of rows) draw(cells, 'Helvetica', INK);
  }

  note(text: string) {
    this.doc
      .moveDown(0.8)
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(text, LEFT, this.doc.y, { width: WIDTH });
  }

  finish(): Promise<Buffer> {
    this.doc.end();
    return this.done;
  }
}

export interface ProductPdf {
  fileName: string;
  bytes: Buffer;
}

const orDash = (value: string | null | undefined) => (value ? value : '—');

/** 'Comprobante de Reserva': the client, the unit(s), prices, discounts, payment form, seller, broker. */
export async function reservationReceipt(ctx: ServiceContext, reservationId: string): Promise<ProductPdf> {
  const data = await findReceiptData(ctx.db, reservationId);
  if (!data) throw new AppError('RESERVATION_NOT_FOUND');
  const logo = await logoOf(ctx, data.logoUrl);
  const sheet = new Sheet(
    `Comprobante de Reserva N° ${data.reservationNumber}`,
    `${data.projectName} ${data.projectStage}`,
    new Date(data.createdAt),
  );
  sheet.header(
    'Comprobante de Reserva',
    [
      `Reserva N° ${data.reservationNumber} · ${formatDate(data.reservationDate)}`,
      `Proyecto ${data.projectName} ${data.projectStage}`,
      ...(data.isRescinded ? ['RESERVA RESCILIADA'] : []),
    ],
    logo,
  );

  sheet.section('Cliente');
  sheet.row('Nombre', data.clientName);
  sheet.row('RUT', formatRut(data.clientRut));
  sheet.row('Correo electrónico', orDash(data.clientEmail));

  sheet.section('Unidades');
  const units =
    data.units.length > 0
      ? data.units.map((unit) => [
          `${UNIT_KINDS[unit.kind] ?? unit.kind} ${unit.number}`,
          formatUF(unit.price),
        ])
      : [
          [`Departamento ${data.apartmentNumber}`, formatUF(data.apartmentPrice)],
          ...(data.parkingNumber
            ? [[`Estacionamiento ${data.parkingNumber}`, formatUF(data.parkingPrice)]]
            : []),
          ...(data.storageNumber ? [[`Bodega ${data.storageNumber}`, formatUF(data.storagePrice)]] : []),
        ];
  sheet.table(
    [
      { label: 'Unidad', width: 323 },
      { label: 'Precio lista', width: 160 },
    ],
    units,
  );
  sheet.rule();

  sheet.section('Precio y descuentos');
  sheet.row('Precio lista', formatUF(data.totalPrice));
  sheet.row('Descuento columna', formatFractionAsPercent(data.columnDiscount));
  sheet.row('Descuento adicional', formatFractionAsPercent(data.additionalDiscount));
  sheet.row('Otro descuento', formatFractionAsPercent(data.otherDiscount));
  sheet.row('Precio mínimo', formatUF(data.minimumPrice), { bold: true });

  sheet.section('Forma de pago');
  sheet.row('Reserva', formatUF(data.reservationPayment));
  sheet.row('Promesa', formatUF(data.promisePayment));
  sheet.row('Pie', formatUF(data.downPayment));
  sheet.row('Crédito hipotecario', formatUF(data.creditPayment));
  sheet.row('Bono pie', formatUF(data.subsidyPayment));
  sheet.row('Total escrituración', formatUF(data.totalPayment), { bold: true });

  sheet.section('Venta');
  sheet.row('Vendedor', orDash(data.sellerName));
  sheet.row(
    'Broker',
    data.brokerName ? `${data.brokerName} (${formatRut(data.brokerRut ?? '')})` : 'Sin broker',
  );
  sheet.note(
    `Comprobante emitido por Inmoflujo con los datos de la reserva registrados al ${formatInstantDate(data.createdAt)}. ` +
      'Los montos están expresados en Unidades de Fomento (UF).',
  );
  return { fileName: `Comprobante de Reserva ${data.reservationNumber}.pdf`, bytes: await sheet.finish() };
}

/**
 * 'Liquidación de Comisión' for the broker: the reservation, the commission, each payment with its
 * date, UF and the pesos frozen when it was paid (when known), the invoices.
 */
export async function commissionStatement(ctx: ServiceContext, reservationId: string): Promise<ProductPdf> {
  const [data, commission] = await Promise.all([
    findReceiptData(ctx.db, reservationId),
    findStatementData(ctx.db, reservationId),
  ]);
  if (!data) throw new AppError('RESERVATION_NOT_FOUND');
  if (!commission) throw new AppError('COMMISSION_NOT_CONFIGURED');
  // One rule for what a user may read (issue 56): the statement cites the purchase order's and the
  // broker's invoices' folios, the facts of the restricted document types, so it follows their policy.
  const citesFolios = Boolean(commission.purchaseOrder || commission.invoice1 || commission.invoice2);
  if (!allow(ctx.user, 'documents.read', { isRestricted: citesFolios }))
    throw new AppError('COMMISSION_STATEMENT_FORBIDDEN');
  const logo = await logoOf(ctx, data.logoUrl);
  const sheet = new Sheet(
    `Liquidación de Comisión · Reserva N° ${data.reservationNumber}`,
    `${data.brokerName ?? ''}`,
    new Date(commission.updatedAt),
  );
  sheet.header(
    'Liquidación de Comisión',
    [
      `Broker ${orDash(data.brokerName)}${data.brokerRut ? ` · RUT ${formatRut(data.brokerRut)}` : ''}`,
      `Reserva N° ${data.reservationNumber} · ${formatDate(data.reservationDate)}`,
      `Proyecto ${data.projectName} ${data.projectStage} · Depto. ${data.apartmentNumber}`,
    ],
    logo,
  );

  sheet.section('Reserva');
  sheet.row('Cliente', `${data.clientName} (${formatRut(data.clientRut)})`);
  sheet.row('Precio lista', formatUF(data.totalPrice));
  sheet.row('Precio mínimo', formatUF(data.minimumPrice));

  sheet.section('Comisión');
  sheet.row(
    'Comisión',
    `${formatUF(commission.commissionAmount)}${commission.commissionIncludesTax ? ' (IVA incluido)' : ''}`,
    {
      bold: true,
    },
  );
  sheet.row('Comisión neta', formatUF(commission.netCommission));
  sheet.row(
    'Forma de pago',
    commission.numberOfPayments === 1
      ? 'Un pago'
      : `Dos pagos (${commission.firstPaymentPercentage} % y ${100 - commission.firstPaymentPercentage} %)`,
  );
  sheet.row('Orden de compra', orDash(commission.purchaseOrder));

  sheet.section('Pagos');
  const payments: (1 | 2)[] = commission.numberOfPayments === 2 ? [1, 2] : [1];
  sheet.table(
    [
      { label: 'Pago', width: 60 },
      { label: 'Factura', width: 85 },
      { label: 'Fecha factura', width: 75 },
      { label: 'Fecha de pago', width: 75 },
      { label: 'UF', width: 70 },
      { label: 'Valor UF', width: 58 },
      { label: 'Pesos', width: 60 },
    ],
    payments.map((payment) => {
      const invoice = payment === 1 ? commission.invoice1 : commission.invoice2;
      const invoiceDate = payment === 1 ? commission.invoice1Date : commission.invoice2Date;
      const paidOn = payment === 1 ? commission.payment1Date : commission.payment2Date;
      const clp = payment === 1 ? commission.payment1Clp : commission.payment2Clp;
      const ufValue = payment === 1 ? commission.payment1UfValue : commission.payment2UfValue;
      return [
        payment === 1 ? 'Primero' : 'Segundo',
        orDash(invoice),
        invoiceDate ? formatDate(invoiceDate) : '—',
        paidOn ? formatDate(paidOn) : 'Pendiente',
        formatUF(paymentUf(commission, payment)),
        ufValue ? formatUfValue(ufValue) : '—',
        clp ? formatCLP(clp) : '—',
      ];
    }),
  );
  sheet.note(
    'Los pesos de un pago son los registrados con el valor UF del día en que se pagó; "—" cuando ese valor no estaba disponible o el pago está pendiente.',
  );
  return {
    fileName: `Liquidación de Comisión ${data.reservationNumber}.pdf`,
    bytes: await sheet.finish(),
  };
}
