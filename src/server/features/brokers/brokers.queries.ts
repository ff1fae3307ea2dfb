import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Broker, BrokerRow, BrokerValues } from '../../../shared/schemas/brokers';
import type { PageQuery } from '../../../shared/schemas/common';
import { type Executor, isoInstant } from '../../db/client';
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
  createdAt: isoInstant(brokers.createdAt),
  updatedAt: isoInstant(brokers.updatedAt),
  version: brokers.version,
};

/** The list of /brokers (and the reservation's broker picker): by name, searched by name, RUT or razón social. */
function listSpec(query: PageQuery): PageSpec {
  return {
    columns: rowColumns,
    from: brokers,
    where: matchesEveryWord(brokers.searchText, query.search),
    orderBy: [asc(brokers.name), asc(brokers.id)],
    page: query.page,
    pageSize: query.pageSize,
  };
}

export function listBrokersSql(query: PageQuery): SQL {
  return pageSql(listSpec(query));
}

export function listBrokers(db: Executor, query: PageQuery): Promise<Page<BrokerRow>> {
  return selectPage<BrokerRow>(db, listSpec(query));
}

export async function findBroker(db: Executor, id: string): Promise<Broker | null> {
  const [row] = await db.select(detailColumns).from(brokers).where(eq(brokers.id, id)).limit(1);
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

export async function insertBroker(db: Executor, values: BrokerValues, userId: string): Promise<Broker> {
  const [row] = await db
    .insert(brokers)
    .values({ ...values, createdBy: userId, updatedBy: userId })
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
): Promise<Broker | null> {
  const [row] = await db
    .update(brokers)
    .set({
      ...values,
      updatedBy: userId,
      updatedAt: sql`now()`,
      version: sql`${brokers.version} + 1`,
    })
    .where(and(eq(brokers.id, id), eq(brokers.version, version)))
    .returning(detailColumns);
  return row ?? null;
}
