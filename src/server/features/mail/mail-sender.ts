import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { asSystem } from '../../db/actor';
import type { Database } from '../../db/client';
import * as queries from './mail.queries';
import { compose } from './mail-templates';

/**
 * The sender (DESIGN §18, decision 0035): claims due messages of the outbox (FOR UPDATE SKIP LOCKED
 * and a lease, so several instances never take one message), composes each, sends it outside any
 * transaction and records the outcome. SMTP through nodemailer when SMTP_URL is set; otherwise each
 * message is written as an .eml file under DATA_DIR/mail. A failed attempt waits longer each time
 * (1, 2, 4 … minutes, at most an hour) and, after MAX_ATTEMPTS or a permanent refusal (5xx), is
 * 'failed' with the server's answer; an administrator retries it from Configuración → Correos.
 */

export const MAX_ATTEMPTS = 10;
const MINUTE_MS = 60_000;

export function retryDelayMs(attemptsBefore: number): number {
  return Math.min(60 * MINUTE_MS, MINUTE_MS * 2 ** attemptsBefore);
}

export interface OutgoingMail {
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  kind: 'smtp' | 'files';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer's pooled transport (a few connections kept open: ≥ 100 messages a second). */
export function smtpTransport(url: string, options: { timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 20_000;
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 5,
    maxMessages: Number.POSITIVE_INFINITY,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({ ...mail, messageId: `<${mail.messageId}>` });
    },
    close: () => transporter.close(),
  };
}

/** Each message as an .eml file in `folder` (nodemailer's stream transport builds the MIME message). */
export function fileTransport(folder: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let made = false;
  return {
    kind: 'files',
    async send(mail) {
      const info = await transporter.sendMail({ ...mail, messageId: `<${mail.messageId}>` });
      if (!made) {
        await mkdir(folder, { recursive: true });
        made = true;
      }
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      await writeFile(join(folder, `${stamp}-${mail.messageId.split('@')[0]}.eml`), info.message as Buffer);
    },
    close: () => transporter.close(),
  };
}

export interface SenderLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface SenderOptions {
  db: Database;
  transport: MailTransport;
  from: string;
  appUrl: string;
  now?: () => Date;
  log?: SenderLog;
  batchSize?: number;
  /** How long a claim keeps other senders off a message (longer than one SMTP exchange). */
  leaseSeconds?: number;
}

export interface PassResult {
  sent: number;
  retrying: number;
  failed: number;
  discarded: number;
}

/** What an SMTP error says, as the server answered it. */
function smtpAnswer(error: unknown): { text: string; permanent: boolean } {
  const e = error as { response?: string; responseCode?: number; message?: string; code?: string };
  const text = (e.response ?? e.message ?? String(error)).slice(0, 500);
  const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
  return { text: e.code && !e.response ? `${e.code}: ${text}` : text, permanent };
}

export interface MailSender {
  /** Sends every due message (batch after batch until none is due); what it did. */
  deliverDue(): Promise<PassResult>;
  /** Polls every `intervalMs` (and at once); answers what stops it. */
  start(intervalMs: number): () => Promise<void>;
  /** Asks for a pass soon (a message was just written). */
  wake(): void;
}

export function createMailSender(options: SenderOptions): MailSender {
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 100;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const domain = (() => {
    const match = /@([^>\s]+)/.exec(options.from);
    return match?.[1] ?? 'inmoflujo.local';
  })();

  type Sent = { id: string; token: string; toAddress: string; subject: string };

  async function sendOne(
    message: queries.ClaimedMessage,
    facts: Omit<Parameters<typeof compose>[0], 'kind' | 'notices' | 'recipientName' | 'payment'>,
    payment: queries.PaymentFlowFacts | null,
    sent: Sent[],
  ): Promise<keyof PassResult> {
    const at = now();
    const discard = async (reason: string) => {
      await queries.updateDiscarded(options.db, {
        id: message.id,
        token: message.claimToken,
        reason,
        now: at,
      });
      return 'discarded' as const;
    };
    let to: string | null;
    if (message.kind === 'paymentCompleted') {
      if (!payment) return discard('El flujo de pago ya no existe');
      to = payment.kamEmail?.trim() || null;
      if (!to) return discard('El corredor no tiene correo del KAM');
    } else if (message.kind === 'bankAccount' || message.kind === 'portalInvitation') {
      to = message.toAddress?.trim() || null;
      if (!to) return discard('Sin dirección de correo');
    } else {
      if (message.userId === null) return discard('El usuario ya no existe');
      if (message.userActive === false) return discard('Usuario desactivado');
      to = message.userEmail?.trim() || null;
      if (!to) return discard('Usuario sin correo electrónico');
    }
    const composed = compose({
      ...facts,
      kind: message.kind,
      notices: message.notices,
      recipientName: message.userFirstName,
      payment,
    });
    if (!composed) return discard('Lo que el aviso menciona ya no existe');
    try {
      await options.transport.send({
        messageId: `${message.id}@${domain}`,
        from: options.from,
        to,
        ...composed,
      });
    } catch (error) {
      const answer = smtpAnswer(error);
      const giveUp = answer.permanent || message.attempts + 1 >= MAX_ATTEMPTS;
      await queries.updateAttemptFailed(options.db, {
        id: message.id,
        token: message.claimToken,
        error: answer.text,
        retryAt: giveUp ? null : new Date(at.getTime() + retryDelayMs(message.attempts)),
        toAddress: to,
        subject: composed.subject,
        now: at,
      });
      options.log?.warn({ mailId: message.id, answer: answer.text, giveUp }, 'mail not sent');
      return giveUp ? 'failed' : 'retrying';
    }
    // Recorded with the batch's others in one statement.
    sent.push({ id: message.id, token: message.claimToken, toAddress: to, subject: composed.subject });
    return 'sent';
  }

  async function deliverBatch(result: PassResult): Promise<number> {
    const token = randomUUID();
    const claimed = await asSystem(options.db, (tx) =>
      queries.claimDue(tx, { now: now(), limit: batchSize, leaseSeconds, token }),
    );
    if (claimed.length === 0) return 0;
    const notices = claimed.flatMap((message) => message.notices);
    const ids = (key: string) =>
      notices.map((notice) => notice[key]).filter((value): value is string => typeof value === 'string');
    const [tasks, people, comments] = await Promise.all([
      queries.listTaskFacts(options.db, ids('taskRowId')),
      queries.listPeopleNamed(options.db, ids('by')),
      queries.listCommentContents(options.db, ids('commentId')),
    ]);
    const sent: Sent[] = [];
    const outcomes = await Promise.all(
      claimed.map(async (message) => {
        try {
          const flowId = message.notices[0]?.flowId;
          const payment =
            message.kind === 'paymentCompleted' && typeof flowId === 'string'
              ? await queries.findPaymentFlowFacts(options.db, flowId)
              : null;
          return await sendOne(
            message,
            { tasks, people, comments, appUrl: options.appUrl, now: now() },
            payment,
            sent,
          );
        } catch (error) {
          // The database failed while recording: the lease runs out and the message is taken again.
          options.log?.error({ err: error, mailId: message.id }, 'mail sender failed on a message');
          return 'retrying' as const;
        }
      }),
    );
    await queries.updateSent(options.db, sent, now());
    for (const outcome of outcomes) result[outcome] += 1;
    return claimed.length;
  }

  let running: Promise<PassResult> | null = null;
  async function deliverDue(): Promise<PassResult> {
    const result: PassResult = { sent: 0, retrying: 0, failed: 0, discarded: 0 };
    while ((await deliverBatch(result)) === batchSize) {
      // A full batch: more may be due.
    }
    return result;
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    running = deliverDue()
      .then((result) => {
        if (result.sent + result.failed + result.discarded + result.retrying > 0) {
          options.log?.info({ ...result }, 'mail sender pass');
        }
        return result;
      })
      .catch((error) => {
        options.log?.error({ err: error }, 'mail sender pass failed');
        return { sent: 0, retrying: 0, failed: 0, discarded: 0 };
      })
      .finally(() => {
        running = null;
      });
  };

  return {
    deliverDue,
    wake() {
      if (timer) setImmediate(pass);
    },
    start(intervalMs) {
      pass();
      timer = setInterval(pass, intervalMs);
      // Never what keeps the process alive.
      timer.unref();
      return async () => {
        stopped = true;
        clearInterval(timer);
        timer = undefined;
        await running;
      };
    },
  };
}
