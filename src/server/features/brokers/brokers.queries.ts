import { and, asc, desc, eq, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type {
  Broker,
  BrokerListParams,
  BrokerRow,
  BrokerSort,
  BrokerValues,
} from '../../../shared/schemas/brokers';
import type { SortDirection, YesNoAll } from '../../../shared/schemas/common';
import { awaitingVerification, type BankChange } from '../../db/bank-verification';
import { insertRowsAsJson } from '../../db/bulk';
import { type Executor, isoInstant } from '../../db/client';
import { rutInNumberOrder } from '../../db/order';
import { type Page, type PageSpec, pageSql, selectPage } from '../../db/paging';
import { brokers } from '../../db/schema';
import { matchesEveryWord } from '../../db/search';

const rowColumns = {
  id: brokers.id,
  rut: brokers.rut,
  name: brokers.name,
  businessName: brokers.businessName,
  kamName: brokers.kamName,
  kamReceivesCommission: brokers.kamReceivesCommission,
};

/** A person's name by id (who changed or verified the bank data). */
function personNameOf(column: SQLWrapper) {
  return sql<
    string | null
  >`(select nullif(trim(p.first_name || ' ' || p.last_name), '') from profiles p where p.id = ${column})`;
}

/** A broker as stored, with who changed and verified its bank data (the service adds what the viewer may do). */
export type StoredBroker = Omit<Broker, 'bankStatus' | 'canChangeBank' | 'canVerifyBank'> & {
  bankChangedBy: string | null;
};

/** Every field of the form (never search_text or the audit columns). */
const detailColumns = {
  id: brokers.id,
  rut: brokers.rut,
  name: brokers.name,
  businessName: brokers.businessName,
  constitutionDate: brokers.constitutionDate,
  constitutionNotary: brokers.constitutionNotary,
  legalRepresentative: brokers.legalRepresentative,
  legalRepresentativeRut: brokers.legalRepresentativeRut,
  commercialAddress: brokers.commercialAddress,
  commercialAddressCommune: brokers.commercialAddressCommune,
  commercialContactName: brokers.commercialContactName,
  commercialContactPhone: brokers.commercialContactPhone,
  commercialContactEmail: brokers.commercialContactEmail,
  operationsContactName: brokers.operationsContactName,
  operationsContactPhone: brokers.operationsContactPhone,
  operationsContactEmail: brokers.operationsContactEmail,
  financeContactName: brokers.financeContactName,
  financeContactPhone: brokers.financeContactPhone,
  financeContactEmail: brokers.financeContactEmail,
  kamName: brokers.kamName,
  kamPhone: brokers.kamPhone,
  kamEmail: brokers.kamEmail,
  kamReceivesCommission: brokers.kamReceivesCommission,
  bankName: brokers.bankName,
  bankAccountType: brokers.bankAccountType,
  bankAccountNumber: brokers.bankAccountNumber,
  bankHolderName: brokers.bankHolderName,
  bankHolderRut: brokers.bankHolderRut,
  paymentEmail: brokers.paymentEmail,
  bankChangedBy: brokers.bankChangedBy,
  bankChangedByName: personNameOf(brokers.bankChangedBy),
  bankChangedAt: isoInstant(brokers.bankChangedAt),
  bankVerifiedByName: personNameOf(brokers.bankVerifiedBy),
  bankVerifiedAt: isoInstant(brokers.bankVerifiedAt),
  createdAt: isoInstant(brokers.createdAt),
  updatedAt: isoInstant(brokers.updatedAt),
  version: brokers.version,
};

/**
 * The order of each sort, ending in a unique column so pages never overlap. Each is read off an index:
 * brokers_name_idx (the spec's order), brokers_rut_order_idx (RUTs in number order), brokers_business_name_idx,
 * brokers_kam_idx (a KAM's brokers by name).
 */
function orderOf(sort: BrokerSort, direction: SortDirection): SQL[] {
  const by = direction === 'asc' ? asc : desc;
  switch (sort) {
    case 'name':
      return [by(brokers.name), by(brokers.id)];
    case 'rut':
      // In number order (brokers_rut_order_idx); unique.
      return [by(rutInNumberOrder(brokers.rut))];
    case 'businessName':
      return [by(brokers.businessName), by(brokers.id)];
    case 'kamName':
      return [by(brokers.kamName), by(brokers.name), by(brokers.id)];
  }
}

const kamReceivesCommission: Record<YesNoAll, SQL | undefined> = {
  all: undefined,
  yes: eq(brokers.kamReceivesCommission, true),
  no: eq(brokers.kamReceivesCommission, false),
};

/**
 * The list of /brokers (and the reservation's broker picker): searched by name, RUT or razón social,
 * filtered by KAM and by whether the KAM receives commission, in the chosen order.
 */
function listSpec(query: BrokerListParams): PageSpec {
  return {
    columns: rowColumns,
    from: brokers,
    where: and(
      matchesEveryWord(brokers.searchText, query.search),
      query.kam === undefined ? undefined : eq(brokers.kamName, query.kam),
      kamReceivesCommission[query.kamReceivesCommission],
    ),
    orderBy: orderOf(query.sort, query.direction),
    page: query.page,
    pageSize: query.pageSize,
  };
}

export function listBrokersSql(query: BrokerListParams): SQL {
  return pageSql(listSpec(query));
}

export function listBrokers(db: Executor, query: BrokerListParams): Promise<Page<BrokerRow>> {
  return selectPage<BrokerRow>(db, listSpec(query));
}

/** Every KAM name the brokers carry, once, in order (read off brokers_kam_idx). */
export async function listKamNames(db: Executor): Promise<string[]> {
  const rows = await db
    .selectDistinct({ kamName: brokers.kamName })
    .from(brokers)
    .orderBy(asc(brokers.kamName));
  return rows.map((row) => row.kamName);
}

export async function findBroker(db: Executor, id: string): Promise<StoredBroker | null> {
  const [row] = await db.select(detailColumns).from(brokers).where(eq(brokers.id, id)).limit(1);
  return row ?? null;
}

/** The broker's row locked for a change of its bank data or its verification. */
export async function lockBroker(db: Executor, id: string): Promise<StoredBroker | null> {
  const [row] = await db.select(detailColumns).from(brokers).where(eq(brokers.id, id)).limit(1).for('update');
  return row ?? null;
}

export async function rutTaken(db: Executor, rut: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: brokers.id })
    .from(brokers)
    .where(and(eq(brokers.rut, rut), exceptId ? ne(brokers.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertBroker(
  db: Executor,
  values: BrokerValues,
  userId: string,
  bankChange: BankChange | null,
): Promise<StoredBroker> {
  const [row] = await db
    .insert(brokers)
    .values({
      ...values,
      ...(bankChange ? { bankChangedBy: bankChange.changedBy, bankChangedAt: bankChange.at } : {}),
      createdBy: userId,
      updatedBy: userId,
    })
    .returning(detailColumns);
  return row!;
}

/** Optimistic update: changes the row only when it still has `version`; null otherwise. */
export async function updateBroker(
  db: Executor,
  id: string,
  version: number,
  values: BrokerValues,
  userId: string,
  bankChange: BankChange | null,
): Promise<StoredBroker | null> {
  const [row] = await db
    .update(brokers)
    .set({
      ...values,
      ...awaitingVerification(bankChange),
      updatedBy: userId,
      updatedAt: sql`now()`,
      version: sql`${brokers.version} + 1`,
    })
    .where(and(eq(brokers.id, id), eq(brokers.version, version)))
    .returning(detailColumns);
  return row ?? null;
}

/** The bank data verified by a second person (under the broker's lock, at the version read). */
export async function setBankVerified(
  db: Executor,
  id: string,
  version: number,
  verified: { userId: string; at: Date },
): Promise<StoredBroker | null> {
  const [row] = await db
    .update(brokers)
    .set({
      bankVerifiedBy: verified.userId,
      bankVerifiedAt: verified.at,
      updatedBy: verified.userId,
      updatedAt: sql`now()`,
      version: sql`${brokers.version} + 1`,
    })
    .where(and(eq(brokers.id, id), eq(brokers.version, version)))
    .returning(detailColumns);
  return row ?? null;
}

/** New brokers of an import's chunk, set-based (ids made by the caller). */
export async function insertBrokersAsJson(
  tx: Executor,
  rows: readonly (BrokerValues & { id: string })[],
  userId: string,
): Promise<void> {
  await insertRowsAsJson(
    tx,
    brokers,
    rows.map((row) => ({ ...row, createdBy: userId, updatedBy: userId })),
  );
}
