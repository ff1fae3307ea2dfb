/**
 * The e-mail notices' side of the holders' rights (issue 54, decision 0055): the outbox rows and the
 * `.eml` copies written when no SMTP server is set may name a client (a notice quotes the sale's
 * client). On a suppression the outbox's subjects and notices are rewritten as comments are, and the
 * copies that name the holder are deleted (a MIME file's text may be encoded: it is decoded to be
 * searched, and a copy is a copy — deleting it is the redaction that leaves nothing). Copies are kept
 * `mail_copy_days` (30 by default).
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { needlePattern, redactText } from '../../../shared/domain/privacy';
import { type Executor, queryRows } from '../../db/client';
import { textArray } from '../../db/privacy';

function redactJson(value: unknown, needles: readonly string[]): { value: unknown; changed: boolean } {
  if (typeof value === 'string') {
    const redacted = redactText(value, needles);
    return { value: redacted.text, changed: redacted.changed };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const done = redactJson(item, needles);
      changed ||= done.changed;
      return done.value;
    });
    return { value: items, changed };
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const done = redactJson(item, needles);
      changed ||= done.changed;
      return [key, done.value] as const;
    });
    return { value: Object.fromEntries(entries), changed };
  }
  return { value, changed: false };
}

/**
 * The outbox's messages naming the holder, rewritten (in the suppression's transaction). A message
 * addressed to the holder (a payee's bank-account notice) loses the address too; unsent, it is
 * discarded (there is no one left to send it to).
 */
export async function redactHolderMailIn(tx: Executor, needles: readonly string[]): Promise<number> {
  if (needles.length === 0) return 0;
  const rows = await queryRows<{
    id: string;
    toAddress: string | null;
    subject: string | null;
    notices: unknown;
  }>(
    tx,
    sql`select id::text, to_address as "toAddress", subject, notices from mail_messages
         where privacy_holds(coalesce(to_address, '') || ' ' || coalesce(subject, '') || ' ' || notices::text,
                             ${textArray(needles.map(needlePattern))})
           for update`,
  );
  let changed = 0;
  for (const row of rows) {
    const toAddress = row.toAddress === null ? null : redactText(row.toAddress, needles);
    const subject = row.subject === null ? null : redactText(row.subject, needles);
    const notices = redactJson(row.notices, needles);
    if (!toAddress?.changed && !subject?.changed && !notices.changed) continue;
    await tx.execute(sql`update mail_messages set to_address = ${toAddress?.text ?? null},
                           subject = ${subject?.text ?? null}, notices = ${JSON.stringify(notices.value)}::jsonb,
                           status = case when ${toAddress?.changed ?? false} and status in ('pending', 'failed')
                                         then 'discarded' else status end
                     where id = ${row.id}::uuid`);
    changed += 1;
  }
  return changed;
}

/** A MIME message's text as a reader sees it: quoted-printable and encoded words decoded. */
export function readableMime(raw: Buffer): string {
  const text = raw.toString('latin1');
  const decoded = text
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_all, encoding: string, body: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(body, 'base64').toString('latin1')
        : body
            .replace(/_/g, ' ')
            .replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    )
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  // Base64 bodies (long lines of the alphabet only) decoded too.
  const base64 = [...decoded.matchAll(/\n\n([A-Za-z0-9+/=\n]{40,})/g)]
    .map((match) => Buffer.from(match[1]!.replace(/\n/g, ''), 'base64').toString('latin1'))
    .join('\n');
  return Buffer.from(`${decoded}\n${base64}`, 'latin1').toString('utf8');
}

async function copies(folder: string): Promise<string[]> {
  return (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
}

/** The `.eml` copies that name the holder, deleted (after the suppression commits). */
export async function removeMailCopiesNaming(folder: string, needles: readonly string[]): Promise<number> {
  if (needles.length === 0) return 0;
  let removed = 0;
  for (const name of await copies(folder)) {
    const path = join(folder, name);
    const text = await readFile(path).then(readableMime, () => null);
    if (text === null || !redactText(text, needles).changed) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  return removed;
}

/** Copies older than `days` deleted. */
export async function removeOldMailCopies(folder: string, days: number, now: Date): Promise<number> {
  const before = now.getTime() - days * 86_400_000;
  let removed = 0;
  for (const name of await copies(folder)) {
    const path = join(folder, name);
    const info = await stat(path).catch(() => null);
    if (!info || info.mtimeMs >= before) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  return removed;
}
