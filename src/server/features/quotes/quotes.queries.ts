import { and, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { UnitKind } from '../../../shared/domain/stock';
import type { QuoteListParams, QuoteRow, QuoteState } from '../../../shared/schemas/quotes';
import { type Executor, isoInstant, queryRows } from '../../db/client';
import { quoteSettings, quotes, quoteUnits } from '../../db/schema';
import { matchesEveryWord } from '../../db/search';

/** The only SQL that writes `quotes`, `quote_units` and `quote_settings` (decision 0071). */

export const DEFAULT_VALIDITY_DAYS = 10;
export const DEFAULT_MAX_INSTALLMENTS = 12;

/**
 * A quote's state on `today` (Santiago): reserved once it became a reservation, else expired after
 * its last valid day, else in force. The one definition, for the list, its counts and one quote.
 */
export function stateSql(today: string): SQL<QuoteState> {
  return sql<QuoteState>`case when q.reservation_id is not null then 'reservada'
    when q.valid_until < ${today}::date then 'vencida' else 'vigente' end`;
}

export async function projectExists(db: Executor, projectId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 as found from projects where id = ${projectId}`,
    z.object({ found: z.number() }),
  );
  return rows.length > 0;
}

// --- Settings ------------------------------------------------------------------------------------

const settingsRow = z.object({ validityDays: z.number(), maxInstallments: z.number(), version: z.number() });

export async function findSettings(db: Executor, projectId: string) {
  const [row] = await queryRows(
    db,
    sql`select validity_days as "validityDays", max_installments as "maxInstallments", version
          from quote_settings where project_id = ${projectId}`,
    settingsRow,
  );
  return row ?? null;
}

export async function insertSettings(
  tx: Executor,
  projectId: string,
  values: { validityDays: number; maxInstallments: number },
  actorId: string,
) {
  const [row] = await tx
    .insert(quoteSettings)
    .values({ projectId, ...values, updatedBy: actorId })
    .onConflictDoNothing()
    .returning({ projectId: quoteSettings.projectId });
  return row ?? null;
}

export async function updateSettings(
  tx: Executor,
  projectId: string,
  version: number,
  values: { validityDays: number; maxInstallments: number },
  actorId: string,
) {
  const [row] = await tx
    .update(quoteSettings)
    .set({ ...values, updatedBy: actorId, updatedAt: sql`now()`, version: sql`${quoteSettings.version} + 1` })
    .where(and(eq(quoteSettings.projectId, projectId), eq(quoteSettings.version, version)))
    .returning({ projectId: quoteSettings.projectId });
  return row ?? null;
}

// --- Quotes --------------------------------------------------------------------------------------

export type QuoteValues = Omit<
  typeof quotes.$inferInsert,
  'id' | 'number' | 'searchText' | 'createdAt' | 'updatedAt' | 'version' | 'createdBy' | 'updatedBy'
>;

export async function insertQuote(
  tx: Executor,
  values: QuoteValues,
  units: { unitId: string; kind: UnitKind; number: string; price: string; priceListId: string | null }[],
  actorId: string,
): Promise<string> {
  const [row] = await tx
    .insert(quotes)
    .values({ ...values, createdBy: actorId, updatedBy: actorId })
    .returning({ id: quotes.id });
  await tx.insert(quoteUnits).values(units.map((unit) => ({ quoteId: row!.id, ...unit })));
  return row!.id;
}

const lockedQuote = z.object({
  id: z.string(),
  projectId: z.string(),
  reservationId: z.string().nullable(),
  validUntil: z.string(),
  version: z.number(),
});

export async function lockQuote(tx: Executor, id: string) {
  const [row] = await queryRows(
    tx,
    sql`select id, project_id as "projectId", reservation_id as "reservationId",
               valid_until::text as "validUntil", version
          from quotes where id = ${id} for update`,
    lockedQuote,
  );
  return row ?? null;
}

export async function updateReserved(
  tx: Executor,
  id: string,
  reservationId: string,
  now: Date,
  actorId: string,
) {
  await tx
    .update(quotes)
    .set({
      reservationId,
      reservedAt: now,
      updatedBy: actorId,
      updatedAt: sql`now()`,
      version: sql`${quotes.version} + 1`,
    })
    .where(eq(quotes.id, id));
}

export interface QuoteDetailRow {
  id: string;
  number: number;
  state: QuoteState;
  projectId: string;
  projectName: string;
  projectLogoUrl: string | null;
  agencyName: string;
  agencyRut: string;
  sellerId: string | null;
  sellerName: string | null;
  sellerEmail: string | null;
  brokerId: string | null;
  brokerName: string | null;
  prospectName: string;
  prospectEmail: string;
  prospectPhone: string | null;
  prospectRut: string | null;
  quoteDate: string;
  validUntil: string;
  priceListId: string | null;
  priceListDate: string | null;
  ufDate: string;
  ufValue: string;
  apartmentPrice: string;
  parkingPrice: string;
  storagePrice: string;
  columnDiscount: string;
  additionalDiscount: string;
  otherDiscount: string;
  listPrice: string;
  finalPrice: string;
  reservationAmount: string;
  downPaymentFraction: string;
  downPayment: string;
  installments: number;
  subsidyAmount: string;
  creditAmount: string;
  reservationId: string | null;
  reservationNumber: string | null;
  sentCount: number;
  lastSentAt: string | null;
  createdAt: string;
  version: number;
  units: { unitId: string; kind: UnitKind; number: string; price: string; priceListId: string | null }[];
}

/** One quote with its names and units, in one statement. */
export async function findQuote(db: Executor, id: string, today: string): Promise<QuoteDetailRow | null> {
  const [row] = await queryRows(
    db,
    sql`select q.id, q.number, ${stateSql(today)} as state, q.project_id as "projectId",
               p.name || ' ' || p.stage as "projectName", p.logo_url as "projectLogoUrl",
               a.business_name as "agencyName", a.rut as "agencyRut",
               q.seller_id as "sellerId", s.first_name || ' ' || s.last_name as "sellerName", s.email as "sellerEmail",
               q.broker_id as "brokerId", b.name as "brokerName",
               q.prospect_name as "prospectName", q.prospect_email as "prospectEmail",
               q.prospect_phone as "prospectPhone", q.prospect_rut as "prospectRut",
               q.quote_date::text as "quoteDate", q.valid_until::text as "validUntil",
               q.price_list_id as "priceListId", pl.effective_date::text as "priceListDate",
               q.uf_date::text as "ufDate", q.uf_value::text as "ufValue",
               q.apartment_price::text as "apartmentPrice", q.parking_price::text as "parkingPrice",
               q.storage_price::text as "storagePrice", q.column_discount::text as "columnDiscount",
               q.additional_discount::text as "additionalDiscount", q.other_discount::text as "otherDiscount",
               q.list_price::text as "listPrice", q.final_price::text as "finalPrice",
               q.reservation_amount::text as "reservationAmount",
               q.down_payment_fraction::text as "downPaymentFraction", q.down_payment::text as "downPayment",
               q.installments, q.subsidy_amount::text as "subsidyAmount", q.credit_amount::text as "creditAmount",
               q.reservation_id as "reservationId", r.reservation_number as "reservationNumber",
               q.sent_count as "sentCount", ${isoInstant(sql`q.last_sent_at`)} as "lastSentAt",
               ${isoInstant(sql`q.created_at`)} as "createdAt", q.version,
               (select coalesce(json_agg(json_build_object('unitId', qu.unit_id, 'kind', qu.kind, 'number', qu.number,
                         'price', qu.price::text, 'priceListId', qu.price_list_id)
                         order by array_position(array['apartment','parking','storage'], qu.kind), qu.number), '[]'::json)
                  from quote_units qu where qu.quote_id = q.id)::text as "unitsJson"
          from quotes q
          join projects p on p.id = q.project_id
          join real_estate_agencies a on a.id = p.real_estate_agency_id
          left join profiles s on s.id = q.seller_id
          left join brokers b on b.id = q.broker_id
          left join price_lists pl on pl.id = q.price_list_id
          left join reservations r on r.id = q.reservation_id
         where q.id = ${id}`,
    // The answer's schema checks the quote's fields; here its key and its units' JSON.
    z.looseObject({ id: z.string(), number: z.number(), unitsJson: z.string() }),
  );
  if (!row) return null;
  const { unitsJson, ...rest } = row as unknown as QuoteDetailRow & { unitsJson: string };
  return { ...rest, units: JSON.parse(unitsJson) };
}

function listFilters(params: QuoteListParams): SQL | undefined {
  return and(
    matchesEveryWord(sql`q.search_text`, params.search),
    params.projectId ? sql`q.project_id = ${params.projectId}` : undefined,
    params.sellerId ? sql`q.seller_id = ${params.sellerId}` : undefined,
    params.brokerId ? sql`q.broker_id = ${params.brokerId}` : undefined,
  );
}

function stateFilter(state: QuoteState | undefined, today: string): SQL | undefined {
  if (state === 'reservada') return sql`q.reservation_id is not null`;
  if (state === 'vencida') return sql`q.reservation_id is null and q.valid_until < ${today}::date`;
  if (state === 'vigente') return sql`q.reservation_id is null and q.valid_until >= ${today}::date`;
  return undefined;
}

const listRow = z.object({
  vigente: z.number(),
  vencida: z.number(),
  reservada: z.number(),
  rows: z.string().nullable(),
});

/**
 * The list in ONE statement: the counts per state over the search and filters (not the state), and
 * the page, newest first (quotes_newest_idx, or the project's / seller's index), as one JSON text.
 */
export async function listQuotes(
  db: Executor,
  params: QuoteListParams,
  today: string,
): Promise<{ counts: Record<QuoteState, number>; rows: QuoteRow[] }> {
  const filters = listFilters(params);
  const where = and(filters, stateFilter(params.state, today));
  const offset = (params.page - 1) * params.pageSize;
  const direction = params.direction === 'asc' ? sql`asc` : sql`desc`;
  const [row] = await queryRows(
    db,
    sql`select c.vigente, c.vencida, c.reservada,
               (select json_agg(x order by x.created_at ${direction}, x.id ${direction})::text from (
                  select q.id, q.number, ${stateSql(today)} as state, p.name || ' ' || p.stage as "projectName",
                         q.prospect_name as "prospectName", q.prospect_email as "prospectEmail",
                         coalesce((select qu.number from quote_units qu
                                    where qu.quote_id = q.id and qu.kind = 'apartment' limit 1), '') as "apartmentNumber",
                         s.first_name || ' ' || s.last_name as "sellerName", b.name as "brokerName",
                         q.quote_date::text as "quoteDate", q.valid_until::text as "validUntil",
                         q.final_price::text as "finalPrice", r.reservation_number as "reservationNumber",
                         q.created_at
                    from quotes q
                    join projects p on p.id = q.project_id
                    left join profiles s on s.id = q.seller_id
                    left join brokers b on b.id = q.broker_id
                    left join reservations r on r.id = q.reservation_id
                   ${where ? sql`where ${where}` : sql``}
                   order by q.created_at ${direction}, q.id ${direction}
                   limit ${params.pageSize} offset ${offset}) x) as rows
          from (select count(*) filter (where q.reservation_id is null and q.valid_until >= ${today}::date)::int as vigente,
                       count(*) filter (where q.reservation_id is null and q.valid_until < ${today}::date)::int as vencida,
                       count(*) filter (where q.reservation_id is not null)::int as reservada
                  from quotes q ${filters ? sql`where ${filters}` : sql``}) c`,
    listRow,
  );
  const rows = row?.rows ? (JSON.parse(row.rows) as (QuoteRow & { created_at?: string })[]) : [];
  for (const quote of rows) delete quote.created_at;
  return { counts: { vigente: row!.vigente, vencida: row!.vencida, reservada: row!.reservada }, rows };
}

/**
 * A suppressed holder's quotes (issue 59): those that became their reservations and those whose
 * prospect is them by RUT or e-mail, their prospect's data replaced. The figures stay.
 */
export async function updateProspectRedacted(
  tx: Executor,
  holder: { reservationIds: readonly string[]; ruts: readonly string[]; emails: readonly string[] },
  userId: string | null,
): Promise<string[]> {
  const byReservation =
    holder.reservationIds.length === 0
      ? sql`false`
      : sql`reservation_id in (${sql.join(
          holder.reservationIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`;
  const byRut =
    holder.ruts.length === 0
      ? sql`false`
      : sql`prospect_rut in (${sql.join(
          holder.ruts.map((rut) => sql`${rut}`),
          sql`, `,
        )})`;
  const byEmail =
    holder.emails.length === 0
      ? sql`false`
      : sql`lower(prospect_email) in (${sql.join(
          holder.emails.map((email) => sql`${email.toLowerCase()}`),
          sql`, `,
        )})`;
  const rows = await queryRows(
    tx,
    sql`update quotes
           set prospect_name = 'Titular suprimido', prospect_email = 'suprimido', prospect_phone = null,
               prospect_rut = null, updated_by = ${userId}, updated_at = now(), version = version + 1
         where ${byReservation} or ${byRut} or ${byEmail}
        returning id`,
    z.object({ id: z.string() }),
  );
  return rows.map((row) => row.id);
}
