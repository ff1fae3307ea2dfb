/**
 * The ledger of suppressions (issue 54, decision 0054): what a restore needs to carry out again every
 * suppression made after its backup, and nothing personal — the request's id, when it was received
 * and carried out, and an HMAC-SHA-256 of the holder's normalised RUT under a random salt of its own.
 * Kept in `suppression_ledger` and, beside the backups, in `suppressions.ledger.json` (written after
 * every suppression and every backup), so a backup older than a suppression can still learn of it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { normalizeRut } from '../../../shared/domain/rut';

export const LEDGER_FILE = 'suppressions.ledger.json';
const FORMAT = 'inmoflujo-suppression-ledger 1';

export const ledgerEntry = z.object({
  requestId: z.string().uuid(),
  receivedDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  suppressedAt: z.string(),
  rutSalt: z.string().regex(/^[0-9a-f]{32}$/),
  rutHash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

const ledgerFile = z.object({
  format: z.literal(FORMAT),
  writtenAt: z.string(),
  entries: z.array(ledgerEntry),
});

/** The RUT in its one normal form ('12345678-5'), whatever spelling it was given in. */
function canonicalRut(rut: string): string {
  return normalizeRut(rut) ?? rut.trim().toUpperCase();
}

export function rutHash(rut: string, salt: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(canonicalRut(rut)).digest('hex');
}

/** A new entry's salt and hash for a holder's RUT. */
export function hashedRut(rut: string): { rutSalt: string; rutHash: string } {
  const rutSalt = randomBytes(16).toString('hex');
  return { rutSalt, rutHash: rutHash(rut, rutSalt) };
}

export function ledgerMatches(entry: Pick<LedgerEntry, 'rutSalt' | 'rutHash'>, rut: string): boolean {
  return rutHash(rut, entry.rutSalt) === entry.rutHash;
}

/** Writes the ledger beside the backups (a temporary file renamed over the last: never half a file). */
export async function writeLedgerFile(
  directory: string,
  entries: readonly LedgerEntry[],
  at: Date,
): Promise<string> {
  const path = join(directory, LEDGER_FILE);
  const partial = join(directory, `.${LEDGER_FILE}.${process.pid}.partial`);
  await writeFile(
    partial,
    `${JSON.stringify({ format: FORMAT, writtenAt: at.toISOString(), entries }, null, 1)}\n`,
    { mode: 0o600 },
  );
  await rename(partial, path);
  return path;
}

export class LedgerFileError extends Error {}

/** The ledger file's entries; a missing or unreadable file is a refusal, in Spanish. */
export async function readLedgerFile(path: string): Promise<LedgerEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new LedgerFileError(`No se encontró el registro de supresiones ${path}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LedgerFileError(`El registro de supresiones ${path} está dañado (no es JSON).`);
  }
  const result = ledgerFile.safeParse(parsed);
  if (!result.success)
    throw new LedgerFileError(`El registro de supresiones ${path} no tiene el formato esperado.`);
  return result.data.entries;
}
