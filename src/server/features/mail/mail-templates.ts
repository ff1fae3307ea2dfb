import { formatDate, formatDateTime, formatUF } from '../../../shared/format';
import type { MailKind } from '../../../shared/schemas/mail';
import type { PaymentFlowFacts, TaskFacts } from './mail.queries';

/**
 * The messages' Spanish text and HTML (decision 0035). Every value that comes from a user (task and
 * project names, comments, reasons) is escaped in the HTML; the text part is plain. Links lead to the
 * task on its flow screen (`APP_URL`), amounts and dates in es-CL formats. The product's one voice
 * is 'usted' (decision 0059); a mention names the person mentioned ('… mencionó a Ana Soto en …').
 */

export interface Composed {
  subject: string;
  text: string;
  html: string;
}

export interface MessageFacts {
  kind: MailKind;
  recipientName: string | null;
  notices: Record<string, unknown>[];
  tasks: Map<string, TaskFacts>;
  people: Map<string, string>;
  comments: Map<string, string>;
  payment: PaymentFlowFacts | null;
  appUrl: string;
  now: Date;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The task's place on its flow screen, its comments open. */
export function taskLink(appUrl: string, task: Pick<TaskFacts, 'kind' | 'flowId' | 'taskRowId'>): string {
  const base = appUrl.replace(/\/+$/, '');
  const screen = task.kind === 'sale' ? 'flujo-reservas' : 'pagos/flujo';
  return `${base}/${screen}/${task.flowId}?comentarios=${task.taskRowId}`;
}

/** One block of a message: a heading line, detail lines, a link. */
interface Block {
  title: string;
  lines: string[];
  quote?: string;
  link?: { href: string; label: string };
}

function flowName(task: TaskFacts): string {
  if (task.kind === 'sale') return 'Flujo de venta';
  return task.isSecondPayment ? 'Flujo del segundo pago' : 'Flujo del primer pago';
}

function taskLines(task: TaskFacts): string[] {
  const lines = [
    `Reserva N° ${task.reservationNumber} · ${task.projectName} · Depto. ${task.apartmentNumber}`,
    `${flowName(task)} · Etapa: ${task.stageName}`,
  ];
  if (task.kind === 'payment' && task.commissionAmount !== null) {
    lines.push(
      `Comisión${task.brokerName ? ` de ${task.brokerName}` : ''}: ${formatUF(task.commissionAmount)}`,
    );
  } else {
    lines.push(`Precio lista: ${formatUF(task.totalPrice)}`);
  }
  return lines;
}

function taskBlock(facts: MessageFacts, notice: Record<string, unknown>): Block | null {
  const task = facts.tasks.get(str(notice.taskRowId));
  if (!task) return null;
  const link = { href: taskLink(facts.appUrl, task), label: 'Abrir la tarea' };
  const kind = str(notice.kind);
  if (kind === 'approval') {
    return { title: `Aprobación pendiente: ${task.taskName}`, lines: taskLines(task), link };
  }
  if (kind === 'assigned') {
    return { title: `Se le asignó la tarea ${task.taskName}`, lines: taskLines(task), link };
  }
  if (kind === 'rejected') {
    const by = facts.people.get(str(notice.by)) ?? 'Un aprobador';
    return {
      title: `${by} rechazó ${task.taskName}`,
      lines: taskLines(task),
      quote: `Motivo: ${str(notice.reason)}`,
      link,
    };
  }
  if (kind === 'mention') {
    const by = facts.people.get(str(notice.by)) ?? 'Un usuario';
    const content = facts.comments.get(str(notice.commentId));
    // The person by their name: no pronoun guesses who they are (decision 0059).
    return {
      title: facts.recipientName
        ? `${by} mencionó a ${facts.recipientName} en ${task.taskName}`
        : `Mención de ${by} en ${task.taskName}`,
      lines: taskLines(task),
      quote: content ?? '(El comentario fue eliminado.)',
      link,
    };
  }
  // The digest and the reminders: a task with its deadline.
  const dueDate = str(notice.dueDate);
  return {
    title: task.taskName,
    lines: [...taskLines(task), `Plazo: ${formatDate(dueDate)}`],
    link,
  };
}

const BANK_ACTION_TITLES: Record<string, string> = {
  changed: 'Se cambió la cuenta bancaria',
  removed: 'Se quitaron los datos bancarios',
  verified: 'Se verificó la cuenta bancaria',
};

/**
 * Whose account a bank notice is about and where the screen shows it (decision 0077). A notice
 * without `payee` was written before 0077: a broker's.
 */
function bankPayeeOf(facts: MessageFacts, notice: Record<string, unknown>) {
  const base = facts.appUrl.replace(/\/+$/, '');
  switch (notice.payee) {
    case 'promotion':
      return {
        name: str(notice.beneficiary),
        line: `Promoción de la Reserva N° ${str(notice.reservationNumber)} · Beneficiario: ${str(notice.beneficiary)}`,
        link: { href: `${base}/reservas/editar/${str(notice.reservationId)}`, label: 'Ver la reserva' },
      };
    case 'agency':
      return {
        name: str(notice.agencyName),
        line: `Inmobiliaria: ${str(notice.agencyName)}`,
        link: { href: `${base}/configuracion/inmobiliarias`, label: 'Ver las inmobiliarias' },
      };
    default:
      return {
        name: str(notice.brokerName),
        line: `Corredora: ${str(notice.brokerName)}`,
        link: { href: `${base}/brokers/editar/${str(notice.brokerId)}`, label: 'Ver el broker' },
      };
  }
}

/** An account that decides where money goes changed or verified (issue 53): never more of it than its end. */
function bankAccountBlock(facts: MessageFacts, notice: Record<string, unknown>): Block {
  const action = str(notice.action);
  const payee = bankPayeeOf(facts, notice);
  const account = [str(notice.bankName), str(notice.accountType), str(notice.accountEnding)]
    .filter(Boolean)
    .join(' · ');
  const lines = [payee.line];
  if (account) lines.push(`Cuenta: ${account}`);
  lines.push(`${action === 'verified' ? 'Verificada' : 'Cambiada'} por ${str(notice.byName)}`);
  if (action !== 'verified')
    lines.push('Los pagos a esta cuenta esperan que otra persona de pagos verifique el cambio.');
  return { title: BANK_ACTION_TITLES[action] ?? 'Cuenta bancaria', lines, link: payee.link };
}

/** An invitation to the brokers' portal (issue 58): the single-use link that sets the password. */
function portalInvitationBlock(facts: MessageFacts, notice: Record<string, unknown>): Block {
  return {
    title: 'Invitación al portal de brokers',
    lines: [
      `Corredora: ${str(notice.brokerName)}`,
      `El enlace sirve una sola vez, hasta el ${formatDateTime(str(notice.expiresAt))}.`,
    ],
    link: { href: `${facts.appUrl.replace(/\/+$/, '')}${str(notice.path)}`, label: 'Crear su contraseña' },
  };
}

function subjectOf(facts: MessageFacts, blocks: Block[]): string {
  const n = facts.notices.length;
  const first = facts.notices[0] ?? {};
  const firstTask = facts.tasks.get(str(first.taskRowId));
  const where = firstTask ? ` · Reserva N° ${firstTask.reservationNumber}` : '';
  switch (facts.kind) {
    case 'approval':
      return n === 1
        ? `Aprobación pendiente: ${firstTask?.taskName ?? ''}${where}`
        : `${n} aprobaciones pendientes`;
    case 'mention':
      return n === 1 ? `${blocks[0]?.title ?? 'Una mención'}${where}` : `Menciones en ${n} comentarios`;
    case 'notices':
      return n === 1 ? `${blocks[0]?.title ?? 'Aviso'}${where}` : `${n} avisos de Inmoflujo`;
    case 'digest':
      return n === 1 ? 'Resumen diario: 1 tarea atrasada' : `Resumen diario: ${n} tareas atrasadas`;
    case 'reminder':
      return n === 1
        ? `Recordatorio: vence ${firstTask?.taskName ?? 'una tarea'}`
        : `Recordatorio: vencen ${n} tareas`;
    case 'paymentCompleted':
      return facts.payment
        ? `Pago completado · Reserva N° ${facts.payment.reservationNumber} · ${facts.payment.projectName}`
        : 'Pago completado';
    case 'bankAccount':
      return `${blocks[0]?.title ?? 'Cuenta bancaria'} · ${bankPayeeOf(facts, first).name}`;
    case 'test':
      return 'Correo de prueba de Inmoflujo';
    case 'portalInvitation':
      return `Invitación al portal de brokers · ${str(first.brokerName)}`;
  }
}

function introOf(facts: MessageFacts): string {
  switch (facts.kind) {
    case 'approval':
      return 'Una aprobación espera su visto bueno.';
    case 'mention':
      return facts.notices.length === 1
        ? 'Tiene una mención en un comentario.'
        : `Tiene menciones en ${facts.notices.length} comentarios.`;
    case 'notices':
      return 'Estos son sus avisos de los últimos minutos.';
    case 'digest':
      return 'Estas tareas suyas están atrasadas.';
    case 'reminder':
      return 'El plazo de estas tareas suyas vence el próximo día hábil.';
    case 'paymentCompleted':
      return 'Se completó el flujo de pago de una comisión de su corredora.';
    case 'bankAccount':
      return facts.notices[0]?.payee === 'promotion'
        ? 'Le avisamos de un cambio en los datos bancarios con que Inmoflujo paga una promoción a su nombre.'
        : facts.notices[0]?.payee === 'agency'
          ? 'Le avisamos de un cambio en los datos bancarios de una inmobiliaria.'
          : 'Le avisamos de un cambio en los datos bancarios con que Inmoflujo paga a la corredora.';
    case 'test':
      return `Este es un correo de prueba enviado desde Configuración → Correos el ${formatDateTime(facts.now)}. Si lo recibe, los avisos por correo funcionan.`;
    case 'portalInvitation':
      return 'Lo invitamos a seguir sus operaciones, comisiones y facturas en el portal de brokers de Inmoflujo.';
  }
}

function paymentBlock(payment: PaymentFlowFacts): Block {
  const share = payment.isSecondPayment
    ? 100 - payment.firstPaymentPercentage
    : payment.firstPaymentPercentage;
  return {
    title: payment.isSecondPayment ? 'Segundo pago completado' : 'Primer pago completado',
    lines: [
      `Corredora: ${payment.brokerName}`,
      `Reserva N° ${payment.reservationNumber} · ${payment.projectName} · Depto. ${payment.apartmentNumber}`,
      `Comisión: ${formatUF(payment.commissionAmount)} · Pago de ${share}%`,
      ...(payment.completedAt ? [`Completado el ${formatDate(payment.completedAt)}`] : []),
    ],
  };
}

/** Subject, text and HTML of a message, or null when nothing it speaks of exists any more. */
export function compose(facts: MessageFacts): Composed | null {
  let blocks: Block[];
  if (facts.kind === 'paymentCompleted') {
    if (!facts.payment) return null;
    blocks = [paymentBlock(facts.payment)];
  } else if (facts.kind === 'test') {
    blocks = [];
  } else if (facts.kind === 'bankAccount') {
    blocks = facts.notices.map((notice) => bankAccountBlock(facts, notice));
  } else if (facts.kind === 'portalInvitation') {
    blocks = facts.notices.map((notice) => portalInvitationBlock(facts, notice));
  } else {
    blocks = facts.notices.flatMap((notice) => {
      const block = taskBlock(facts, {
        kind: facts.kind === 'notices' ? notice.kind : facts.kind,
        ...notice,
      });
      return block ? [block] : [];
    });
    if (blocks.length === 0) return null;
  }
  const greeting =
    facts.kind === 'paymentCompleted' && facts.payment
      ? `Hola ${facts.payment.kamName}:`
      : facts.kind === 'bankAccount'
        ? 'Hola:'
        : facts.kind === 'portalInvitation'
          ? `Hola ${str(facts.notices[0]?.name)}:`
          : `Hola${facts.recipientName ? ` ${facts.recipientName}` : ''}:`;
  const intro = introOf(facts);
  const subject = subjectOf(facts, blocks);
  const footer = 'Inmoflujo. Elija qué avisos recibe con el botón «Avisos por correo» de la barra superior.';

  const text = [
    greeting,
    '',
    intro,
    ...blocks.flatMap((block) => [
      '',
      `• ${block.title}`,
      ...block.lines.map((line) => `  ${line}`),
      ...(block.quote ? [`  «${block.quote}»`] : []),
      ...(block.link ? [`  ${block.link.label}: ${block.link.href}`] : []),
    ]),
    '',
    '—',
    footer,
    '',
  ].join('\n');

  const e = escapeHtml;
  const htmlBlocks = blocks
    .map(
      (block) => `
      <tr><td style="padding:12px 0;border-top:1px solid #e5e7eb">
        <p style="margin:0 0 4px;font-weight:600">${e(block.title)}</p>
        ${block.lines.map((line) => `<p style="margin:0;color:#374151">${e(line)}</p>`).join('\n        ')}
        ${block.quote ? `<blockquote style="margin:8px 0;padding-left:8px;border-left:3px solid #d1d5db;color:#111827">${e(block.quote)}</blockquote>` : ''}
        ${block.link ? `<p style="margin:8px 0 0"><a href="${e(block.link.href)}">${e(block.link.label)}</a></p>` : ''}
      </td></tr>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="es-CL"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#111827">
  <table role="presentation" style="max-width:600px;width:100%">
    <tr><td><p>${e(greeting)}</p><p>${e(intro)}</p></td></tr>${htmlBlocks}
    <tr><td style="padding-top:16px;color:#6b7280;font-size:12px">${e(footer)}</td></tr>
  </table>
</body></html>
`;
  return { subject, text, html };
}
