/**
 * Whom an uploaded import file names (issue 54, decision 0062). A file may name a person whose records
 * its run never changed (a row with errors, a file never applied, an unchanged row): the suppression
 * used to reach only the runs that wrote the holder's records, so such a file kept the person until
 * its 30-day retention. At upload, every valid RUT and every e-mail address in the file is kept as a
 * keyed hash (HMAC-SHA-256 under a salt of the run's own, its first 16 bytes; sorted, joined in one
 * value): nothing readable of the person beside the file, and gone with it. A suppression hashes the
 * holder's RUTs and e-mails under each run's salt and deletes the stored files that name them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { cellText } from '../../../shared/domain/import-cells';
import { normalizeRut } from '../../../shared/domain/rut';
import { letOthersThrough } from '../../event-loop';
import { fileFormatOf, openRows } from '../../readers/table';

const HASH_BYTES = 16;
/** Rows read between two turns of the event loop (other requests go through meanwhile). */
const ROWS_PER_TURN = 2_000;

/**
 * A RUT as written in a file: '12.345.678-5', '12345678-5', '123456785', '7.654.321-K'. Bounded
 * quantifiers only (linear over any text); the check digit then judges it.
 */
const RUT_IN_TEXT = /(?<![\d.])(?:\d{1,2}\.\d{3}\.\d{3}|\d{7,8})-?[\dkK](?![\dA-Za-z])/g;
const EMAIL_LOCAL = /[A-Za-z0-9._%+'-]/;
const EMAIL_DOMAIN = /[A-Za-z0-9.-]/;
const EMAIL_MAX = 254;

/** The identifier keys a text holds: 'rut:12345678-5' and 'email:ana@dominio.cl'. */
export function subjectKeysIn(text: string, into: Set<string> = new Set()): Set<string> {
  for (const match of text.matchAll(RUT_IN_TEXT)) {
    const rut = normalizeRut(match[0]);
    if (rut) into.add(`rut:${rut}`);
  }
  // Each '@' grown both ways over the characters an address may hold: linear, whatever the text.
  let at = text.indexOf('@');
  while (at >= 0) {
    let start = at;
    while (start > 0 && at - start < 64 && EMAIL_LOCAL.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && end - at < EMAIL_MAX && EMAIL_DOMAIN.test(text[end]!)) end++;
    const domain = text.slice(at + 1, end).replace(/[.-]+$/, '');
    if (start < at && /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(domain))
      into.add(`email:${text.slice(start, at).toLowerCase()}@${domain.toLowerCase()}`);
    at = text.indexOf('@', at + 1);
  }
  return into;
}

/** The keys of a holder's identifiers, from the suppression's needles (RUT spellings, e-mails, …). */
export function holderSubjectKeys(needles: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const needle of needles) {
    const rut = normalizeRut(needle);
    if (rut) keys.add(`rut:${rut}`);
    else if (needle.includes('@')) keys.add(`email:${needle.trim().toLowerCase()}`);
  }
  return [...keys];
}

/** Every identifier key in an uploaded file: a CSV's text as is, every row of every sheet of a workbook. */
export async function fileSubjectKeys(bytes: Buffer): Promise<Set<string>> {
  const keys = new Set<string>();
  if (fileFormatOf(bytes) === 'csv') {
    // RUTs and addresses are ASCII: read as Latin-1, every encoding of ASCII text reads the same.
    const text = bytes.toString('latin1');
    // 64 KiB per stretch: a whole MiB of the RUT pattern held the loop 0.1 s idle, more under load.
    const CHUNK = 1 << 16;
    // Chunks overlapping by more than an identifier's length; a turn of the event loop between them.
    for (let from = 0; from < text.length; from += CHUNK) {
      subjectKeysIn(text.slice(Math.max(0, from - 400), from + CHUNK), keys);
      await letOthersThrough();
    }
    return keys;
  }
  const first = await openRows(bytes);
  await first.rows.return(undefined);
  for (const sheet of first.sheets) {
    const { rows } = await openRows(bytes, sheet);
    let read = 0;
    for await (const row of rows) {
      for (const cell of row.cells) if (typeof cell === 'string') subjectKeysIn(cellText(cell), keys);
      if (++read % ROWS_PER_TURN === 0) await letOthersThrough();
    }
  }
  return keys;
}

function keyedHash(salt: Buffer, key: string): Buffer {
  return createHmac('sha256', salt).update(key).digest().subarray(0, HASH_BYTES);
}

/** Keys hashed per stretch of the upload, with others' requests between (see hashSubjects). */
const HASHES_PER_TURN = 1_000;

/**
 * The stored form: a new salt, and the keys' hashes under it, sorted and joined. A thousand keys
 * at a time with a turn of the event loop between: the 200,000 keys of 100,000 clients (RUT and
 * e-mail) hashed in one stretch held /api/health through the upload (~0.5 s idle, 4 s under load).
 */
export async function hashSubjects(keys: Iterable<string>): Promise<{ salt: string; hashes: Buffer }> {
  const salt = randomBytes(16);
  // Each hash as a Latin-1 string (a character a byte): sorted by the engine's own string order, which
  // is the bytes' order. Sorted with `Buffer.compare`, a call into C++ per comparison, the 200,000
  // hashes of 100,000 clients held the event loop 5.5 s under load.
  const hashes: string[] = [];
  for (const key of keys) {
    hashes.push(keyedHash(salt, key).toString('latin1'));
    if (hashes.length % HASHES_PER_TURN === 0) await letOthersThrough();
  }
  // By their first byte into 256 buckets, each sorted alone, a turn between every 16: one sort of the
  // 200,000 held the loop ~0.4 s under load.
  const buckets: string[][] = Array.from({ length: 256 }, () => []);
  for (const hash of hashes) buckets[hash.charCodeAt(0)]!.push(hash);
  const sorted: string[] = [];
  for (const [index, bucket] of buckets.entries()) {
    sorted.push(...bucket.sort());
    if (index % 16 === 15) await letOthersThrough();
  }
  return { salt: salt.toString('hex'), hashes: Buffer.from(sorted.join(''), 'latin1') };
}

/** Whether any of the keys is among the stored hashes (a binary search per key). */
export function namesAny(stored: { salt: string; hashes: Buffer }, keys: readonly string[]): boolean {
  const salt = Buffer.from(stored.salt, 'hex');
  const count = Math.floor(stored.hashes.length / HASH_BYTES);
  for (const key of keys) {
    const wanted = keyedHash(salt, key);
    let low = 0;
    let high = count - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const order = Buffer.compare(
        stored.hashes.subarray(middle * HASH_BYTES, (middle + 1) * HASH_BYTES),
        wanted,
      );
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
  }
  return false;
}
