import PDFDocument from 'pdfkit';
import { formatPlanUf, LINE_KIND_LABELS, PAYMENT_MEANS_LABELS } from '../../../shared/buyer-plan';
import { formatCLP, formatDate, formatRut, santiagoDateOf } from '../../../shared/format';
import type { ReportColumns } from '../../../shared/reports/columns';
import type { BuyerAccount, BuyerPlan } from '../../../shared/schemas/buyer-accounts';

/**
 * The buyer's statement (issue 60, decision 0073): the developer's razón social and RUT, the plan, the
 * payments, the balance — as a PDF (pdfkit) and as the rows of an XLSX. Reproducible: the PDF's creation
 * date is the plan's last change, so the same account gives the same bytes.
 */

export interface StatementHeading {
  reservationNumber: string;
  apartmentNumber: string;
  projectName: string;
  projectStage: string;
  developerName: string | null;
  developerRut: string | null;
  clientName: string;
  clientRut: string;
  planChangedAt: string;
}

const INK = '#1f2937';
const MUTED = '#6b7280';
const LEFT = 56;
const WIDTH = 483;

function lineConcept(kind: keyof typeof LINE_KIND_LABELS, number: number, plan: BuyerPlan) {
  return kind === 'downPayment'
    ? `${LINE_KIND_LABELS.downPayment} ${number} de ${plan.installmentCount}`
    : LINE_KIND_LABELS[kind];
}

export function statementPdf(
  heading: StatementHeading,
  account: BuyerAccount,
  plan: BuyerPlan,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: LEFT, right: LEFT },
    info: {
      Title: `Estado de cuenta reserva N° ${heading.reservationNumber}`,
      Subject: `${heading.projectName} ${heading.projectStage}`,
      Author: 'Inmoflujo',
      Creator: 'Inmoflujo',
      Producer: 'Inmoflujo',
      CreationDate: new Date(heading.planChangedAt),
    },
    lang: 'es-CL',
    compress: true,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).fillColor(INK).text('Estado de cuenta del comprador', LEFT, doc.y);
  doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor(MUTED);
  doc.text(
    `${heading.developerName ?? 'Inmobiliaria'}${heading.developerRut ? ` · RUT ${formatRut(heading.developerRut)}` : ''}`,
  );
  doc.text(`Proyecto ${heading.projectName} ${heading.projectStage} · Unidad ${heading.apartmentNumber}`);
  doc.text(`Reserva N° ${heading.reservationNumber}${account.isRescinded ? ' · RESERVA RESCILIADA' : ''}`);
  doc.text(`Comprador: ${heading.clientName} · RUT ${formatRut(heading.clientRut)}`);
  doc.text(`Al ${formatDate(santiagoDateOf(new Date(heading.planChangedAt)))} (último movimiento)`);
  doc.moveDown(0.8);

  const table = (columns: { label: string; width: number }[], rows: string[][]) => {
    const draw = (cells: string[], font: string, color: string) => {
      if (doc.y > 760) doc.addPage();
      const y = doc.y;
      let x = LEFT;
      let bottom = y;
      cells.forEach((cell, index) => {
        const width = columns[index]!.width;
        doc
          .font(font)
          .fontSize(9)
          .fillColor(color)
          .text(cell, x, y, { width: width - 6, align: index === 0 ? 'left' : 'right' });
        bottom = Math.max(bottom, doc.y);
        x += width;
      });
      doc.y = bottom + 3;
    };
    draw(
      columns.map((column) => column.label),
      'Helvetica-Bold',
      MUTED,
    );
    for (const row of rows) draw(row, 'Helvetica', INK);
    doc.x = LEFT;
  };
  const section = (title: string) => {
    doc
      .moveDown(0.6)
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor(INK)
      .text(title, LEFT, doc.y, { width: WIDTH });
    doc.moveDown(0.3);
  };

  section('Plan de pagos');
  table(
    [
      { label: 'Concepto', width: 140 },
      { label: 'Vence', width: 80 },
      { label: 'Monto', width: 95 },
      { label: 'Pagado', width: 95 },
      { label: 'Saldo', width: 73 },
    ],
    plan.lines.map((line) => [
      lineConcept(line.kind, line.number, plan),
      formatDate(line.dueDate),
      formatPlanUf(line.amount),
      formatPlanUf(line.paidAmount),
      formatPlanUf(String(Number(line.amount) - Number(line.paidAmount))),
    ]),
  );

  section('Pagos recibidos');
  table(
    [
      { label: 'Fecha', width: 70 },
      { label: 'Medio · N° documento', width: 150 },
      { label: 'Pesos', width: 85 },
      { label: 'Monto', width: 95 },
      { label: 'Estado', width: 83 },
    ],
    plan.payments.map((payment) => [
      formatDate(payment.paidDate),
      `${PAYMENT_MEANS_LABELS[payment.means]} · ${payment.documentNumber}`,
      payment.amountClp ? formatCLP(payment.amountClp) : '—',
      formatPlanUf(payment.amount),
      payment.isReversed ? 'Reversado' : 'Recibido',
    ]),
  );

  section('Resumen');
  const summary: [string, string][] = [
    ['Total a pagar (reserva, promesa y pie)', formatPlanUf(plan.totalAmount)],
    ['Pagado', formatPlanUf(plan.paidAmount)],
    ['Saldo', formatPlanUf(plan.balance)],
    ['Vencido', formatPlanUf(plan.overdueAmount)],
    ['Crédito hipotecario', formatPlanUf(plan.creditAmount)],
    ['Subsidio', formatPlanUf(plan.subsidyAmount)],
    ['Saldo a la escritura', formatPlanUf(plan.deedBalance)],
  ];
  for (const [label, value] of summary) {
    const y = doc.y;
    doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(label, LEFT, y, { width: 260 });
    doc
      .font('Helvetica-Bold')
      .fillColor(INK)
      .text(value, LEFT + 270, y, { width: WIDTH - 270, align: 'right' });
    doc.moveDown(0.2);
  }
  doc.end();
  return done;
}

/** One row of the statement's XLSX: a line of the plan or a payment. */
export interface StatementRow {
  section: string;
  concept: string;
  date: string;
  amount: string;
  paidAmount: string | null;
  amountClp: string | null;
  status: string;
}

export const STATEMENT_COLUMNS: ReportColumns<StatementRow> = [
  { key: 'section', header: 'Sección', format: 'text', width: 16 },
  { key: 'concept', header: 'Concepto', format: 'text', width: 30 },
  { key: 'date', header: 'Fecha', format: 'date' },
  { key: 'amount', header: 'Monto (UF)', format: 'uf' },
  { key: 'paidAmount', header: 'Pagado (UF)', format: 'uf' },
  { key: 'amountClp', header: 'Pesos', format: 'clp' },
  { key: 'status', header: 'Estado', format: 'text', width: 24 },
];

export function statementRows(plan: BuyerPlan): StatementRow[] {
  return [
    ...plan.lines.map((line) => ({
      section: 'Plan de pagos',
      concept: lineConcept(line.kind, line.number, plan),
      date: line.dueDate,
      amount: line.amount,
      paidAmount: line.paidAmount,
      amountClp: null,
      status: !line.isOpen ? 'Pagada' : line.daysLate > 0 ? `Vencida (${line.daysLate} días)` : 'Pendiente',
    })),
    ...plan.payments.map((payment) => ({
      section: 'Pagos recibidos',
      concept: `${PAYMENT_MEANS_LABELS[payment.means]} N° ${payment.documentNumber}`,
      date: payment.paidDate,
      amount: payment.amount,
      paidAmount: null,
      amountClp: payment.amountClp,
      status: payment.isReversed ? `Reversado: ${payment.reversalReason ?? ''}` : 'Recibido',
    })),
  ];
}
