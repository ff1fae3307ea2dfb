import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../shared/schemas/common';
import type { Agency, AgencyOption, AgencyRow, AgencyValues } from '../../../shared/schemas/settings';
import { awaitingVerification, type BankChange } from '../../db/bank-verification';
import type { Executor } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';
import { realEstateAgencies } from '../../db/schema';
import { foldedText, matchesEveryWord } from '../../db/search';

const rowColumns = {
  id: realEstateAgencies.id,
  rut: realEstateAgencies.rut,
  businessName: realEstateAgencies.businessName,
  bank: realEstateAgencies.bank,
  accountType: realEstateAgencies.accountType,
  accountNumber: realEstateAgencies.accountNumber,
  accountStatus: sql<AgencyRow['accountStatus']>`case when ${realEstateAgencies.bankVerifiedAt} is null
    then 'unverified' else 'verified' end`,
} satisfies Record<keyof AgencyRow, unknown>;

/** The detail as stored: the row, its version and the account's author (who may not verify it). */
export type StoredAgency = Omit<Agency, 'canVerifyAccount'> & { bankChangedBy: string | null };

const detailColumns = {
  ...rowColumns,
  version: realEstateAgencies.version,
  bankChangedBy: realEstateAgencies.bankChangedBy,
} satisfies Record<keyof StoredAgency, unknown>;

/** Inmobiliarias: by business name (spec part 2 §7), searched by RUT or business name. */
export function listAgencies(db: Executor, query: PageQuery): Promise<Page<AgencyRow>> {
  return selectPage<AgencyRow>(db, {
    columns: rowColumns,
    from: realEstateAgencies,
    where: matchesEveryWord(
      foldedText(realEstateAgencies.rut, realEstateAgencies.businessName),
      query.search,
    ),
    orderBy: [asc(realEstateAgencies.businessName), asc(realEstateAgencies.id)],
    page: query.page,
    pageSize: query.pageSize,
  });
}

export async function listAgencyOptions(db: Executor): Promise<AgencyOption[]> {
  return db
    .select({
      id: realEstateAgencies.id,
      rut: realEstateAgencies.rut,
      businessName: realEstateAgencies.businessName,
    })
    .from(realEstateAgencies)
    .orderBy(asc(realEstateAgencies.businessName), asc(realEstateAgencies.id));
}

export async function findAgency(db: Executor, id: string): Promise<StoredAgency | null> {
  const [row] = await db.select(detailColumns).from(realEstateAgencies).where(eq(realEstateAgencies.id, id));
  return (row as StoredAgency | undefined) ?? null;
}

/** The agency, its row locked for the rest of the transaction. */
export async function lockAgency(db: Executor, id: string): Promise<StoredAgency | null> {
  const [row] = await db
    .select(detailColumns)
    .from(realEstateAgencies)
    .where(eq(realEstateAgencies.id, id))
    .for('update');
  return (row as StoredAgency | undefined) ?? null;
}

export async function agencyRutTaken(db: Executor, rut: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: realEstateAgencies.id })
    .from(realEstateAgencies)
    .where(and(eq(realEstateAgencies.rut, rut), exceptId ? ne(realEstateAgencies.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertAgency(
  db: Executor,
  values: AgencyValues,
  userId: string,
  change: BankChange,
): Promise<StoredAgency> {
  const [row] = await db
    .insert(realEstateAgencies)
    .values({
      ...values,
      createdBy: userId,
      updatedBy: userId,
      bankChangedBy: change.changedBy,
      bankChangedAt: change.at,
    })
    .returning(detailColumns);
  return row as StoredAgency;
}

/** Optimistic update: null when the row is gone or no longer at `version`. */
export async function updateAgency(
  db: Executor,
  id: string,
  version: number,
  values: AgencyValues,
  userId: string,
  change: BankChange | null,
): Promise<StoredAgency | null> {
  const [row] = await db
    .update(realEstateAgencies)
    .set({
      ...values,
      ...awaitingVerification(change),
      updatedBy: userId,
      updatedAt: sql`now()`,
      version: sql`${realEstateAgencies.version} + 1`,
    })
    .where(and(eq(realEstateAgencies.id, id), eq(realEstateAgencies.version, version)))
    .returning(detailColumns);
  return (row as StoredAgency | undefined) ?? null;
}

/** 'Verificar cuenta': at the version the verifier read; null when it moved on. */
export async function setAccountVerified(
  db: Executor,
  id: string,
  version: number,
  verified: { userId: string; at: Date },
): Promise<StoredAgency | null> {
  const [row] = await db
    .update(realEstateAgencies)
    .set({
      bankVerifiedBy: verified.userId,
      bankVerifiedAt: verified.at,
      updatedBy: verified.userId,
      updatedAt: sql`now()`,
      version: sql`${realEstateAgencies.version} + 1`,
    })
    .where(and(eq(realEstateAgencies.id, id), eq(realEstateAgencies.version, version)))
    .returning(detailColumns);
  return (row as StoredAgency | undefined) ?? null;
}
