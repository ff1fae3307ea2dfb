import { describe, expect, it } from 'vitest';
import { MAIL_KINDS } from '../../../shared/schemas/mail';
import type { PaymentFlowFacts, TaskFacts } from './mail.queries';
import { compose, type MessageFacts } from './mail-templates';

/**
 * Decision 0059: the product speaks with one voice, 'usted', e-mails included; a mention names the
 * person mentioned instead of guessing a pronoun ('lo mencionó' to a woman).
 */

const TASK: TaskFacts = {
  taskRowId: 't1',
  taskName: 'COF PENDIENTE FIRMA',
  stageName: 'Reserva',
  flowId: 'f1',
  kind: 'sale',
  isSecondPayment: false,
  isApproval: true,
  reservationNumber: '1042',
  apartmentNumber: '1201',
  projectName: 'Parque Ñuñoa',
  totalPrice: '3200.00',
  commissionAmount: null,
  brokerName: null,
  startedAt: null,
  daysToComplete: null,
};

const PAYMENT: PaymentFlowFacts = {
  flowId: 'p1',
  isSecondPayment: false,
  kamName: 'Karla Mendoza',
  kamEmail: 'kam@inmoflujo.test',
  brokerName: 'Propiedades Andinas',
  reservationNumber: '1042',
  apartmentNumber: '1201',
  projectName: 'Parque Ñuñoa',
  commissionAmount: '45.00',
  firstPaymentPercentage: 50,
  numberOfPayments: 2,
  completedAt: '2027-03-05',
};

function facts(
  kind: MessageFacts['kind'],
  count = 1,
  recipientName: string | null = 'Catalina',
): MessageFacts {
  return {
    kind,
    recipientName,
    notices: Array.from({ length: count }, () => ({
      kind: 'mention',
      taskRowId: 't1',
      by: 'u1',
      commentId: 'c1',
      dueDate: '2027-03-05',
      reason: 'Falta la firma',
    })),
    tasks: new Map([['t1', TASK]]),
    people: new Map([['u1', 'Pedro Soto']]),
    comments: new Map([['c1', '@Catalina Núñez revise esto']]),
    payment: PAYMENT,
    appUrl: 'https://inmoflujo.example.cl',
    now: new Date('2027-03-05T12:00:00Z'),
  };
}

/** Words of the 'tú' voice, and the pronouns that guess the reader's gender. */
const TU_VOICE = /\b(tienes|tus?|te|puedes|revisa|elige|recibes)\b/i;
const GUESSED_PRONOUN = /\b(lo|la) mencion(ó|aron)\b/i;

describe('e-mail voice', () => {
  it('a mention names the person mentioned, one or several', () => {
    const one = compose(facts('mention'))!;
    expect(one.subject).toBe('Pedro Soto mencionó a Catalina en COF PENDIENTE FIRMA · Reserva N° 1042');
    expect(one.text).toContain('Tiene una mención en un comentario.');
    const many = compose(facts('mention', 3))!;
    expect(many.subject).toBe('Menciones en 3 comentarios');
    expect(many.text).toContain('Tiene menciones en 3 comentarios.');
    expect(compose(facts('mention', 1, null))!.subject).toBe(
      'Mención de Pedro Soto en COF PENDIENTE FIRMA · Reserva N° 1042',
    );
  });

  it("every kind speaks 'usted' and guesses no pronoun", () => {
    for (const kind of MAIL_KINDS) {
      for (const count of [1, 2]) {
        const message = compose(facts(kind, count));
        expect(message, kind).not.toBeNull();
        for (const part of [message!.subject, message!.text]) {
          expect(part, `${kind}: ${part}`).not.toMatch(TU_VOICE);
          expect(part, `${kind}: ${part}`).not.toMatch(GUESSED_PRONOUN);
        }
      }
    }
  });
});

describe('bank account notices (decision 0077)', () => {
  const facts = (notice: Record<string, unknown>): MessageFacts => ({
    kind: 'bankAccount',
    recipientName: null,
    notices: [notice],
    tasks: new Map(),
    people: new Map(),
    comments: new Map(),
    payment: null,
    appUrl: 'https://inmoflujo.test/',
    now: new Date('2026-12-08T12:00:00Z'),
  });
  const account = {
    bankName: 'BancoEstado',
    accountType: 'Cuenta Corriente',
    accountEnding: '···· 5555',
    byName: 'Pía Rojas',
  };

  it("names a promotion's payee and its reservation, and links to it", () => {
    const composed = compose(
      facts({
        action: 'changed',
        payee: 'promotion',
        reservationId: 'r-1',
        reservationNumber: 'A-100',
        beneficiary: 'María Soto',
        ...account,
      }),
    )!;
    expect(composed.subject).toBe('Se cambió la cuenta bancaria · María Soto');
    expect(composed.text).toContain('Promoción de la Reserva N° A-100 · Beneficiario: María Soto');
    expect(composed.text).toContain('Cuenta: BancoEstado · Cuenta Corriente · ···· 5555');
    expect(composed.text).toContain('https://inmoflujo.test/reservas/editar/r-1');
  });

  it("names an agency and links to Configuración → Inmobiliarias; a notice without payee is a broker's", () => {
    const agency = compose(
      facts({ action: 'verified', payee: 'agency', agencyName: 'Los Andes SpA', ...account }),
    )!;
    expect(agency.subject).toBe('Se verificó la cuenta bancaria · Los Andes SpA');
    expect(agency.text).toContain('Inmobiliaria: Los Andes SpA');
    expect(agency.text).toContain('https://inmoflujo.test/configuracion/inmobiliarias');
    const broker = compose(
      facts({ action: 'changed', brokerId: 'b-1', brokerName: 'Corredora Sur', ...account }),
    )!;
    expect(broker.subject).toBe('Se cambió la cuenta bancaria · Corredora Sur');
    expect(broker.text).toContain('https://inmoflujo.test/brokers/editar/b-1');
  });
});
