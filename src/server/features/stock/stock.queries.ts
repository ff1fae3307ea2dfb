import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { UnitKind, UnitStatus } from '../../../shared/domain/stock';
import type { PolicyValues, UnitValues } from '../../../shared/schemas/stock';
import { textArrayParam } from '../../db/arrays';
import { type Executor, isoInstant, queryJsonRows, queryRows } from '../../db/client';
import { priceListItems, priceLists, projectPolicies, reservationUnits, units } from '../../db/schema';
import { containsIgnoringCase } from '../../db/search';

export type UnitRow = typeof units.$inferSelect;

/**
 * The price of a unit on `day`: the newest list in force that names it (price_list_items_unit_date_idx,
 * one index probe per unit). `u` is the unit's alias.
 */
const currentPrice = (day: string) => sql`left join lateral (
    select i.price, i.price_list_id from price_list_items i
     where i.unit_id = u.id and i.effective_date <= ${day}::date
     order by i.effective_date desc limit 1) cp on true`;

export interface GridRow {
  id: string;
  projectId: string;
  kind: UnitKind;
  number: string;
  floor: number | null;
  building: string | null;
  typology: string | null;
  orientation: string | null;
  usableArea: string | null;
  terraceArea: string | null;
  totalArea: string | null;
  blockedReason: string | null;
  price: string | null;
  status: UnitStatus;
  version: number;
  reservationId: string | null;
  reservationNumber: string | null;
  clientName: string | null;
  sellerName: string | null;
  flowId: string | null;
}

/**
 * Unit numbers in natural order: by their letters, then by the number they hold, then as written
 * (E-10, E-12, E-100, not E-10, E-100, E-12). The same on both engines (no ICU collation needed).
 */
function naturalOrder(column: SQL): SQL {
  return sql`regexp_replace(${column}, '[0-9]+', '', 'g'), nullif(regexp_replace(${column}, '[^0-9]', '', 'g'), '')::numeric, ${column}`;
}

/**
 * Every unit of a project with its status (the view `unit_statuses`, the one definition), its price
 * on `day` and, when taken, its reservation, client, seller and sale flow: one statement.
 */
export function listGridRows(
  db: Executor,
  projectId: string,
  day: string,
  unitId?: string,
): Promise<GridRow[]> {
  return queryJsonRows<GridRow>(
    db,
    sql`select u.id, u.project_id as "projectId", u.kind, u.number, u.floor, u.building, u.typology,
               u.orientation, u.usable_area::text as "usableArea", u.terrace_area::text as "terraceArea",
               u.total_area::text as "totalArea", u.blocked_reason as "blockedReason",
               cp.price::text as price, st.status, u.version,
               r.id as "reservationId", r.reservation_number as "reservationNumber",
               c.first_name || ' ' || c.last_name as "clientName",
               s.first_name || ' ' || s.last_name as "sellerName", f.id as "flowId"
          from units u
          -- The project again on the view, so its units are the only ones it derives.
          join unit_statuses st on st.unit_id = u.id and st.project_id = ${projectId}
          ${currentPrice(day)}
          left join reservations r on r.id = st.reservation_id
          left join clients c on c.id = r.client_id
          left join profiles s on s.id = r.seller_id
          left join flows f on f.kind = 'sale' and f.reservation_id = r.id
         where u.project_id = ${projectId} ${unitId ? sql`and u.id = ${unitId}` : sql``}
         order by u.floor nulls first, u.kind, ${naturalOrder(sql`u.number`)}, u.id`,
    sql`q.floor nulls first, q.kind, ${naturalOrder(sql`q.number`)}, q.id`,
  );
}

export interface PickerRow {
  id: string;
  kind: UnitKind;
  number: string;
  floor: number | null;
  typology: string | null;
  orientation: string | null;
  price: string | null;
  priceListId: string | null;
}

/** Available units of one kind, searched by number, typology or floor: at most `limit`. */
export function listPickerRows(
  db: Executor,
  projectId: string,
  kind: UnitKind,
  day: string,
  search: string | undefined,
  limit = 50,
): Promise<PickerRow[]> {
  const term = search?.trim();
  const floorTerm = term && /^-?\d{1,3}$/.test(term) ? Number(term) : null;
  const match = term
    ? sql`and (${containsIgnoringCase(sql`u.number`, term)} or ${containsIgnoringCase(sql`coalesce(u.typology, '')`, term)}
              ${floorTerm !== null ? sql`or u.floor = ${floorTerm}` : sql``})`
    : sql``;
  return queryRows<PickerRow>(
    db,
    sql`select u.id, u.kind, u.number, u.floor, u.typology, u.orientation, cp.price::text as price,
               cp.price_list_id as "priceListId"
          from units u
          join unit_statuses st on st.unit_id = u.id and st.project_id = ${projectId} and st.status = 'Disponible'
          ${currentPrice(day)}
         where u.project_id = ${projectId} and u.kind = ${kind} ${match}
         order by u.floor nulls first, ${naturalOrder(sql`u.number`)}, u.id
         limit ${limit}`,
  );
}

export async function hasProjectInventory(db: Executor, projectId: string): Promise<boolean> {
  const [row] = await db.select({ id: units.id }).from(units).where(eq(units.projectId, projectId)).limit(1);
  return row !== undefined;
}

export async function findProject(db: Executor, projectId: string) {
  const [row] = await queryRows<{ id: string; name: string; stage: string }>(
    db,
    sql`select id, name, stage from projects where id = ${projectId}`,
  );
  return row ?? null;
}

/**
 * The project with its stock version ('' when nothing has changed it yet): what a kept grid is
 * checked against, one primary-key probe each.
 */
export async function findProjectStock(db: Executor, projectId: string) {
  const [row] = await queryRows<{ id: string; name: string; stage: string; stockVersion: string }>(
    db,
    sql`select p.id, p.name, p.stage, coalesce(v.version::text, '') as "stockVersion"
          from projects p left join project_stock_versions v on v.project_id = p.id
         where p.id = ${projectId}`,
  );
  return row ?? null;
}

/** The projects with their number of units (the Disponibilidad selector). */
export function listProjectsWithUnits(db: Executor) {
  return queryRows<{ id: string; name: string; stage: string; units: number }>(
    db,
    sql`select p.id, p.name, p.stage, coalesce(n.units, 0)::int as units
          from projects p
          left join (select project_id, count(*) as units from units group by project_id) n on n.project_id = p.id
         order by p.name, p.stage, p.id`,
  );
}

// --- Units --------------------------------------------------------------------------------------

export async function findUnit(db: Executor, id: string): Promise<UnitRow | null> {
  const [row] = await db.select().from(units).where(eq(units.id, id)).limit(1);
  return row ?? null;
}

export async function lockUnit(db: Executor, id: string): Promise<UnitRow | null> {
  const [row] = await db.select().from(units).where(eq(units.id, id)).for('update').limit(1);
  return row ?? null;
}

/** The units, locked in id order (so that two reservations never wait on each other crosswise). */
export function lockUnits(db: Executor, ids: string[]): Promise<UnitRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(units).where(inArray(units.id, ids)).orderBy(units.id).for('update');
}

export async function unitNumberTaken(
  db: Executor,
  projectId: string,
  kind: UnitKind,
  number: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from units where project_id = ${projectId} and kind = ${kind}
          and lower(number) = lower(${number}) ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`,
  );
  return row !== undefined;
}

export async function insertUnit(
  db: Executor,
  projectId: string,
  values: UnitValues,
  actorId: string | null,
) {
  const [row] = await db
    .insert(units)
    .values({ ...values, projectId, createdBy: actorId, updatedBy: actorId })
    .returning({ id: units.id });
  return row!.id;
}

/** Many units in one statement (the generator's inventories). */
export async function insertUnits(
  db: Executor,
  projectId: string,
  rows: UnitValues[],
  actorId: string | null,
): Promise<{ id: string; kind: string; number: string }[]> {
  if (rows.length === 0) return [];
  return db
    .insert(units)
    .values(rows.map((values) => ({ ...values, projectId, createdBy: actorId, updatedBy: actorId })))
    .returning({ id: units.id, kind: units.kind, number: units.number });
}

export async function updateUnit(
  db: Executor,
  id: string,
  version: number,
  values: Partial<UnitValues> & { blockedReason?: string | null },
  actorId: string,
): Promise<boolean> {
  const rows = await db
    .update(units)
    .set({ ...values, updatedBy: actorId, updatedAt: sql`now()`, version: sql`${units.version} + 1` })
    .where(and(eq(units.id, id), eq(units.version, version)))
    .returning({ id: units.id });
  return rows.length === 1;
}

/** The live reservation holding the unit, if any. */
export async function liveHolderOf(db: Executor, unitId: string) {
  const [row] = await queryRows<{ reservationId: string; reservationNumber: string }>(
    db,
    sql`select r.id as "reservationId", r.reservation_number as "reservationNumber"
          from reservation_units ru join reservations r on r.id = ru.reservation_id
         where ru.unit_id = ${unitId} and ru.is_live`,
  );
  return row ?? null;
}

/** The first of these units held by a live reservation other than `exceptReservationId`. */
export async function findFirstHeld(db: Executor, unitIds: string[], exceptReservationId?: string) {
  if (unitIds.length === 0) return null;
  const [row] = await queryRows<{ unitId: string; reservationNumber: string }>(
    db,
    sql`select ru.unit_id as "unitId", r.reservation_number as "reservationNumber"
          from reservation_units ru join reservations r on r.id = ru.reservation_id
         where ru.is_live and ru.unit_id in (${sql.join(
           unitIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})
           ${exceptReservationId ? sql`and ru.reservation_id <> ${exceptReservationId}` : sql``}
         order by ru.unit_id limit 1`,
  );
  return row ?? null;
}

export async function hasAnyReservation(db: Executor, unitId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: reservationUnits.unitId })
    .from(reservationUnits)
    .where(eq(reservationUnits.unitId, unitId))
    .limit(1);
  return row !== undefined;
}

// --- Prices --------------------------------------------------------------------------------------

/** The price of each unit on `day` (the newest list in force naming it) with its list. */
export function listPricesOn(db: Executor, unitIds: string[], day: string) {
  if (unitIds.length === 0) return Promise.resolve([]);
  return queryRows<{ unitId: string; price: string | null; priceListId: string | null }>(
    db,
    sql`select u.id as "unitId", cp.price::text as price, cp.price_list_id as "priceListId"
          from units u ${currentPrice(day)}
         where u.id in (${sql.join(
           unitIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})`,
  );
}

/** Every unit of a project with its price on `day` (a list's differences). */
export function listProjectUnitsWithPrices(db: Executor, projectId: string, day: string) {
  return queryJsonRows<{ id: string; kind: UnitKind; number: string; price: string | null }>(
    db,
    sql`select u.id, u.kind, u.number, cp.price::text as price
          from units u ${currentPrice(day)}
         where u.project_id = ${projectId}`,
    sql`q.id`,
  );
}

export async function priceListDateTaken(db: Executor, projectId: string, day: string): Promise<boolean> {
  const [row] = await db
    .select({ id: priceLists.id })
    .from(priceLists)
    .where(and(eq(priceLists.projectId, projectId), eq(priceLists.effectiveDate, day)))
    .limit(1);
  return row !== undefined;
}

export async function insertPriceList(
  db: Executor,
  list: { projectId: string; effectiveDate: string; note: string | null; actorId: string | null },
  prices: { unitId: string; price: string }[],
): Promise<string> {
  const [row] = await db
    .insert(priceLists)
    .values({
      projectId: list.projectId,
      effectiveDate: list.effectiveDate,
      note: list.note,
      priceCount: prices.length,
      createdBy: list.actorId,
    })
    .returning({ id: priceLists.id });
  const priceListId = row!.id;
  // In chunks: a statement has at most 65,535 parameters.
  for (let start = 0; start < prices.length; start += 5_000) {
    await db.insert(priceListItems).values(
      prices.slice(start, start + 5_000).map((item) => ({
        priceListId,
        unitId: item.unitId,
        effectiveDate: list.effectiveDate,
        price: item.price,
      })),
    );
  }
  return priceListId;
}

export function priceListsOf(db: Executor, projectId: string) {
  return queryRows<{
    id: string;
    effectiveDate: string;
    priceCount: number;
    note: string | null;
    createdAt: string;
    createdByName: string | null;
  }>(
    db,
    sql`select l.id, l.effective_date as "effectiveDate", l.price_count as "priceCount", l.note,
               ${isoInstant(sql`l.created_at`)} as "createdAt",
               p.first_name || ' ' || p.last_name as "createdByName"
          from price_lists l left join profiles p on p.id = l.created_by
         where l.project_id = ${projectId}
         order by l.effective_date desc`,
  );
}

export async function findCurrentPriceList(db: Executor, projectId: string, day: string) {
  const [row] = await queryRows<{ id: string; effectiveDate: string }>(
    db,
    sql`select id, effective_date as "effectiveDate" from price_lists
         where project_id = ${projectId} and effective_date <= ${day}::date
         order by effective_date desc limit 1`,
  );
  return row ?? null;
}

// --- Reservations' units --------------------------------------------------------------------------

export interface HeldUnit {
  unitId: string;
  kind: UnitKind;
  number: string;
  price: string;
  priceListId: string | null;
  priceListDate: string | null;
}

export function unitsOfReservation(db: Executor, reservationId: string): Promise<HeldUnit[]> {
  return queryRows<HeldUnit>(
    db,
    sql`select ru.unit_id as "unitId", u.kind, u.number, ru.price::text as price,
               ru.price_list_id as "priceListId", l.effective_date as "priceListDate"
          from reservation_units ru
          join units u on u.id = ru.unit_id
          left join price_lists l on l.id = ru.price_list_id
         where ru.reservation_id = ${reservationId}
         order by case u.kind when 'apartment' then 0 when 'parking' then 1 else 2 end, ${naturalOrder(sql`u.number`)}`,
  );
}

/** Replaces the units a reservation holds: those it keeps stay as they were (their price too). */
export async function setReservationUnits(
  db: Executor,
  reservationId: string,
  held: { unitId: string; price: string; priceListId: string | null }[],
): Promise<void> {
  const keep = held.map((unit) => unit.unitId);
  await db.delete(reservationUnits).where(
    and(
      eq(reservationUnits.reservationId, reservationId),
      keep.length > 0
        ? sql`${reservationUnits.unitId} not in (${sql.join(
            keep.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`
        : undefined,
    ),
  );
  if (held.length === 0) return;
  await db
    .insert(reservationUnits)
    .values(held.map((unit) => ({ reservationId, ...unit })))
    .onConflictDoNothing();
}

// --- Policy -------------------------------------------------------------------------------------

export async function findPolicy(db: Executor, projectId: string) {
  const [row] = await db
    .select()
    .from(projectPolicies)
    .where(eq(projectPolicies.projectId, projectId))
    .limit(1);
  return row ?? null;
}

export async function insertPolicy(db: Executor, projectId: string, values: PolicyValues, actorId: string) {
  const rows = await db
    .insert(projectPolicies)
    .values({ projectId, ...values, updatedBy: actorId })
    .onConflictDoNothing()
    .returning({ projectId: projectPolicies.projectId });
  return rows.length === 1;
}

export async function updatePolicy(
  db: Executor,
  projectId: string,
  version: number,
  values: PolicyValues,
  actorId: string,
) {
  const rows = await db
    .update(projectPolicies)
    .set({
      ...values,
      updatedBy: actorId,
      updatedAt: sql`now()`,
      version: sql`${projectPolicies.version} + 1`,
    })
    .where(and(eq(projectPolicies.projectId, projectId), eq(projectPolicies.version, version)))
    .returning({ projectId: projectPolicies.projectId });
  return rows.length === 1;
}

// --- The Excel import (issue 32, decision 0041) ----------------------------------------------------

export interface ImportedUnitRow {
  id: string;
  projectId: string;
  kind: UnitKind;
  number: string;
  floor: number | null;
  building: string | null;
  typology: string | null;
  orientation: string | null;
  usableArea: string | null;
  terraceArea: string | null;
  totalArea: string | null;
  version: number;
  /** The price in force on the day asked (null: no list names it). */
  price: string | null;
}

/** The `numbers` (without case) as a SQL text array. */
function lowerNumbersSql(numbers: readonly string[]) {
  return textArrayParam(numbers.map((number) => number.trim().toLowerCase()));
}

/**
 * The units of the projects numbered `numbers` (any kind, without case) with their price on `day`:
 * what a units import compares its rows with.
 */
export function listUnitsWithPricesOn(
  db: Executor,
  projectIds: readonly string[],
  numbers: readonly string[],
  day: string,
) {
  if (projectIds.length === 0 || numbers.length === 0) return Promise.resolve([] as ImportedUnitRow[]);
  return queryJsonRows<ImportedUnitRow>(
    db,
    sql`select u.id, u.project_id as "projectId", u.kind, u.number, u.floor, u.building, u.typology,
               u.orientation, u.usable_area::text as "usableArea", u.terrace_area::text as "terraceArea",
               u.total_area::text as "totalArea", u.version, cp.price::text as price
          from units u ${currentPrice(day)}
         where u.project_id in (${sql.join(
           projectIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )}) and lower(u.number) = any(${lowerNumbersSql(numbers)})`,
    sql`q.id`,
  );
}

export interface UnitWithHolder {
  id: string;
  projectId: string;
  kind: UnitKind;
  number: string;
  blockedReason: string | null;
  /** The live reservation holding it, if any. */
  holderNumber: string | null;
}

/**
 * The units of the projects numbered `numbers` (any kind, without case) with their live holder: what
 * a reservations import resolves its numbers to.
 */
export function listUnitsWithHolders(
  db: Executor,
  projectIds: readonly string[],
  numbers: readonly string[],
) {
  if (projectIds.length === 0 || numbers.length === 0) return Promise.resolve([] as UnitWithHolder[]);
  return queryJsonRows<UnitWithHolder>(
    db,
    sql`select u.id, u.project_id as "projectId", u.kind, u.number, u.blocked_reason as "blockedReason",
               r.reservation_number as "holderNumber"
          from units u
          left join reservation_units ru on ru.unit_id = u.id and ru.is_live
          left join reservations r on r.id = ru.reservation_id
         where u.project_id in (${sql.join(
           projectIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )}) and lower(u.number) = any(${lowerNumbersSql(numbers)})`,
    sql`q.id`,
  );
}

/** Which of the projects have an inventory (at least one unit). */
export async function listProjectsWithInventory(db: Executor, projectIds: readonly string[]) {
  if (projectIds.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select p.id from unnest(array[${sql.join(
      projectIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}]) as p(id) where exists (select 1 from units u where u.project_id = p.id)`,
  );
  return rows.map((row) => row.id);
}

/** The units each reservation holds (live or not), with the price it copied. */
export function listHeldUnits(db: Executor, reservationIds: readonly string[]) {
  if (reservationIds.length === 0)
    return Promise.resolve([] as { reservationId: string; unitId: string; kind: UnitKind; price: string }[]);
  return queryRows<{ reservationId: string; unitId: string; kind: UnitKind; price: string }>(
    db,
    sql`select ru.reservation_id as "reservationId", ru.unit_id as "unitId", u.kind, ru.price::text as price
          from reservation_units ru join units u on u.id = ru.unit_id
         where ru.reservation_id in (${sql.join(
           reservationIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})`,
  );
}

export async function listPolicies(db: Executor, projectIds: readonly string[]) {
  if (projectIds.length === 0) return [];
  return db
    .select()
    .from(projectPolicies)
    .where(inArray(projectPolicies.projectId, [...projectIds]));
}
