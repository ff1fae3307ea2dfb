import { dec, money } from '../../../shared/domain/decimal';
import {
  type CommercialPolicy,
  policyBreaches,
  UNIT_STATUSES,
  type UnitKind,
  type UnitStatus,
  unitKindLabels,
  unitName,
} from '../../../shared/domain/stock';
import { formatDate, formatInteger, santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import {
  type PickerUnit,
  type PolicyValues,
  type PolicyView,
  type PriceListDiff,
  type PriceListView,
  type UnitGrid,
  type UnitGridQuery,
  type UnitValues,
  type UnitView,
  unitGrid,
} from '../../../shared/schemas/stock';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { priceLists as priceListsTable, units as unitsTable } from '../../db/schema';
import { deleteByIds, lockRows, restoreSnapshots } from '../../db/snapshots';
import { AppError, isUniqueViolation } from '../../http/app-error';
import type { GridCache } from './grid-cache';
import { readPriceFile } from './price-file';
import * as queries from './stock.queries';

type ClockContext = Pick<ServiceContext, 'db' | 'now'>;

const UNIT_NUMBER_UNIQUE = 'units_project_kind_number_key';
const LIVE_UNIT_UNIQUE = 'reservation_units_live_key';

/** After the commit: every open Disponibilidad and picker of the project refreshes (live). */
function publishStockChanged(ctx: Pick<ServiceContext, 'events'>, projectId: string) {
  ctx.events.publish({ type: 'stock-changed', projectId });
}

function requireManage(ctx: Pick<ServiceContext, 'user'>) {
  if (!can(ctx.user, 'stock.manage')) throw new AppError('FORBIDDEN');
}

const today = (ctx: { now: Date }) => santiagoDateOf(ctx.now);

function presentUnit(row: queries.GridRow): UnitView {
  const { reservationId, reservationNumber, clientName, sellerName, flowId, ...unit } = row;
  return {
    ...unit,
    reservation:
      reservationId && reservationNumber
        ? { id: reservationId, reservationNumber, clientName: clientName ?? '', sellerName, flowId }
        : null,
  };
}

async function requireProject(db: Executor, projectId: string) {
  const project = await queries.findProject(db, projectId);
  if (!project) throw new AppError('PROJECT_NOT_FOUND');
  return project;
}

// --- Reading: the grid and the picker -----------------------------------------------------------

/** The projects of the Disponibilidad selector, each with its number of units. */
export async function projects(ctx: ReadContext) {
  return { projects: await queries.listProjectsWithUnits(ctx.db) };
}

/**
 * 'Disponibilidad' of one project (every user): its units with status, price and holder, filtered
 * by kind, typology and status; the counts are the whole project's. One statement reads the units.
 */
export async function grid(ctx: ClockContext, projectId: string, filters: UnitGridQuery): Promise<UnitGrid> {
  const project = await requireProject(ctx.db, projectId);
  return buildGrid(ctx.db, project, today(ctx), filters);
}

/**
 * `grid` as the JSON bytes the route sends. A whole project's grid is ~0.9 MB at 1,728 units and
 * took ~100–200 ms to read and ~15 ms to check and write: this instance keeps the bytes per project
 * and filters and answers it again while the project's stock version (bumped by triggers, migration
 * 0035), name, stage and day are the ones it was built under (grid-cache.ts). The version is read
 * before the grid: a change committed in between only makes the kept answer newer than its stamp.
 */
export async function gridJson(
  ctx: ClockContext,
  grids: GridCache,
  projectId: string,
  filters: UnitGridQuery,
): Promise<Buffer> {
  const head = await queries.findProjectStock(ctx.db, projectId);
  if (!head) throw new AppError('PROJECT_NOT_FOUND');
  const day = today(ctx);
  const key = JSON.stringify([
    projectId,
    filters.kind ?? null,
    filters.status ?? null,
    filters.typology?.toLowerCase() ?? null,
  ]);
  const stamp = JSON.stringify([head.stockVersion, head.name, head.stage, day]);
  const kept = grids.kept(key, stamp);
  if (kept !== null) return kept;
  const built = await buildGrid(ctx.db, { id: head.id, name: head.name, stage: head.stage }, day, filters);
  // Checked against the answer's schema as every answer is (parsed: zod's encode is ~7× slower here).
  const json = Buffer.from(JSON.stringify(unitGrid.parse(built)));
  grids.keep(key, stamp, json);
  return json;
}

async function buildGrid(
  db: Executor,
  project: UnitGrid['project'],
  day: string,
  filters: UnitGridQuery,
): Promise<UnitGrid> {
  const [rows, currentList] = await Promise.all([
    queries.listGridRows(db, project.id, day),
    queries.findCurrentPriceList(db, project.id, day),
  ]);
  const byStatus = Object.fromEntries(UNIT_STATUSES.map((status) => [status, 0])) as Record<
    UnitStatus,
    number
  >;
  const typologies = new Map<string | null, { total: number; available: number }>();
  for (const row of rows) {
    byStatus[row.status] += 1;
    if (row.kind !== 'apartment') continue;
    const counts = typologies.get(row.typology) ?? { total: 0, available: 0 };
    counts.total += 1;
    if (row.status === 'Disponible') counts.available += 1;
    typologies.set(row.typology, counts);
  }
  const typology = filters.typology?.toLowerCase();
  const kept = rows.filter(
    (row) =>
      (!filters.kind || row.kind === filters.kind) &&
      (!filters.status || row.status === filters.status) &&
      (!typology || (row.typology ?? '').toLowerCase() === typology),
  );
  return {
    project,
    units: kept.map(presentUnit),
    counts: {
      total: rows.length,
      byStatus,
      byTypology: [...typologies.entries()]
        .map(([name, counts]) => ({ typology: name, ...counts }))
        .sort((a, b) => (a.typology ?? '').localeCompare(b.typology ?? '', 'es')),
    },
    typologies: [...typologies.keys()]
      .filter((name): name is string => name !== null)
      .sort((a, b) => a.localeCompare(b, 'es')),
    currentPriceList: currentList,
  };
}

/** One unit as the grid shows it. */
export async function getUnit(ctx: ClockContext, id: string): Promise<UnitView> {
  const unit = await queries.findUnit(ctx.db, id);
  if (!unit) throw new AppError('UNIT_NOT_FOUND');
  const [row] = await queries.listGridRows(ctx.db, unit.projectId, today(ctx), id);
  if (!row) throw new AppError('UNIT_NOT_FOUND');
  return presentUnit(row);
}

/** The reservation form's picker: available units of one kind, searched by number, typology, floor. */
export async function picker(
  ctx: ClockContext,
  projectId: string,
  kind: UnitKind,
  search: string | undefined,
): Promise<{ rows: PickerUnit[]; hasInventory: boolean }> {
  const [rows, hasInventory] = await Promise.all([
    queries.listPickerRows(ctx.db, projectId, kind, today(ctx), search),
    queries.hasProjectInventory(ctx.db, projectId),
  ]);
  return { rows, hasInventory };
}

// --- Units ---------------------------------------------------------------------------------------

async function refuseTakenNumber(
  db: Executor,
  projectId: string,
  values: Pick<UnitValues, 'kind' | 'number'>,
  exceptId?: string,
) {
  if (await queries.unitNumberTaken(db, projectId, values.kind, values.number, exceptId)) {
    throw new AppError('UNIT_NUMBER_TAKEN', { params: { unit: unitName(values) } });
  }
}

export async function createUnit(
  ctx: ServiceContext,
  projectId: string,
  values: UnitValues,
): Promise<UnitView> {
  requireManage(ctx);
  await requireProject(ctx.db, projectId);
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      await refuseTakenNumber(tx, projectId, values);
      return queries.insertUnit(tx, projectId, values, ctx.user.id);
    });
  } catch (error) {
    if (isUniqueViolation(error, UNIT_NUMBER_UNIQUE)) {
      throw new AppError('UNIT_NUMBER_TAKEN', { params: { unit: unitName(values) } });
    }
    throw error;
  }
  publishStockChanged(ctx, projectId);
  return getUnit(ctx, id);
}

/** Edits a unit read at `version`; its kind changes only while no reservation ever held it. */
export async function updateUnit(
  ctx: ServiceContext,
  id: string,
  { version, ...values }: UnitValues & { version: number },
): Promise<UnitView> {
  requireManage(ctx);
  let projectId: string;
  try {
    projectId = await ctx.db.transaction(async (tx) => {
      const current = await queries.lockUnit(tx, id);
      if (!current) throw new AppError('UNIT_NOT_FOUND');
      if (current.version !== version) throw new AppError('STALE_VERSION');
      await refuseTakenNumber(tx, current.projectId, values, id);
      if (values.kind !== current.kind && (await queries.hasAnyReservation(tx, id))) {
        throw new AppError('UNIT_KIND_LOCKED', {
          params: { unit: unitName({ kind: current.kind as UnitKind, number: current.number }) },
        });
      }
      if (!(await queries.updateUnit(tx, id, version, values, ctx.user.id)))
        throw new AppError('STALE_VERSION');
      return current.projectId;
    });
  } catch (error) {
    if (isUniqueViolation(error, UNIT_NUMBER_UNIQUE)) {
      throw new AppError('UNIT_NUMBER_TAKEN', { params: { unit: unitName(values) } });
    }
    throw error;
  }
  publishStockChanged(ctx, projectId);
  return getUnit(ctx, id);
}

/** An administrator takes an available unit off sale, saying why ('Bloqueada'). */
export async function blockUnit(ctx: ServiceContext, id: string, reason: string, version: number) {
  requireManage(ctx);
  const projectId = await ctx.db.transaction(async (tx) => {
    const current = await queries.lockUnit(tx, id);
    if (!current) throw new AppError('UNIT_NOT_FOUND');
    if (current.version !== version) throw new AppError('STALE_VERSION');
    const holder = await queries.liveHolderOf(tx, id);
    if (holder) {
      throw new AppError('UNIT_BLOCK_TAKEN', {
        params: {
          unit: unitName({ kind: current.kind as UnitKind, number: current.number }),
          reservation: holder.reservationNumber,
        },
      });
    }
    if (!(await queries.updateUnit(tx, id, version, { blockedReason: reason }, ctx.user.id))) {
      throw new AppError('STALE_VERSION');
    }
    return current.projectId;
  });
  publishStockChanged(ctx, projectId);
  return getUnit(ctx, id);
}

export async function unblockUnit(ctx: ServiceContext, id: string, version: number) {
  requireManage(ctx);
  const projectId = await ctx.db.transaction(async (tx) => {
    const current = await queries.lockUnit(tx, id);
    if (!current) throw new AppError('UNIT_NOT_FOUND');
    if (!(await queries.updateUnit(tx, id, version, { blockedReason: null }, ctx.user.id))) {
      throw new AppError('STALE_VERSION');
    }
    return current.projectId;
  });
  publishStockChanged(ctx, projectId);
  return getUnit(ctx, id);
}

/** Inside the generator's transaction: a whole inventory at once (the bench's 100,000 apartments). */
export function insertUnitsIn(tx: Executor, projectId: string, rows: UnitValues[], actorId: string | null) {
  return queries.insertUnits(tx, projectId, rows, actorId);
}

// --- Price lists ---------------------------------------------------------------------------------

export interface PriceInput {
  kind: UnitKind;
  number: string;
  price: string;
}

const unitKey = (kind: string, number: string) => `${kind}:${number.trim().toLowerCase()}`;

/**
 * What a list of prices would change on its effective date, against the prices in force then: the
 * prices that change, the units priced for the first time, the unchanged ones, and the rows naming
 * units the project does not have or naming one twice. Takes rows (not a request), so the Excel
 * import (issue 32) reuses it. Reads only.
 */
export async function diffPriceList(
  db: Executor,
  projectId: string,
  effectiveDate: string,
  rows: readonly PriceInput[],
): Promise<PriceListDiff & { prices: { unitId: string; price: string }[] }> {
  const existing = await queries.listProjectUnitsWithPrices(db, projectId, effectiveDate);
  const byKey = new Map(existing.map((unit) => [unitKey(unit.kind, unit.number), unit]));
  const seen = new Set<string>();
  const diff: PriceListDiff & { prices: { unitId: string; price: string }[] } = {
    changes: [],
    newlyPriced: [],
    unchanged: 0,
    unknown: [],
    repeated: [],
    summary: '',
    prices: [],
  };
  for (const row of rows) {
    const key = unitKey(row.kind, row.number);
    const unit = byKey.get(key);
    if (!unit) {
      diff.unknown.push({ kind: row.kind, number: row.number.trim() });
      continue;
    }
    if (seen.has(key)) {
      diff.repeated.push({ kind: row.kind, number: unit.number });
      continue;
    }
    seen.add(key);
    const to = money(dec(row.price));
    diff.prices.push({ unitId: unit.id, price: to });
    if (unit.price === null)
      diff.newlyPriced.push({ unitId: unit.id, kind: unit.kind, number: unit.number, to });
    else if (dec(unit.price).eq(dec(to))) diff.unchanged += 1;
    else diff.changes.push({ unitId: unit.id, kind: unit.kind, number: unit.number, from: unit.price, to });
  }
  diff.summary = summaryOf(diff);
  return diff;
}

function plural(count: number, one: string, many: string) {
  return `${formatInteger(count)} ${count === 1 ? one : many}`;
}

function summaryOf(diff: PriceListDiff): string {
  const down = diff.changes.filter((change) => dec(change.to).lt(dec(change.from))).length;
  const directions =
    diff.changes.length === 0
      ? ''
      : ` (${[
          diff.changes.length - down > 0 ? plural(diff.changes.length - down, 'sube', 'suben') : null,
          down > 0 ? plural(down, 'baja', 'bajan') : null,
        ]
          .filter(Boolean)
          .join(', ')})`;
  const parts = [
    `${plural(diff.changes.length, 'precio cambia', 'precios cambian')}${directions}`,
    plural(diff.newlyPriced.length, 'unidad nueva', 'unidades nuevas'),
    plural(diff.unchanged, 'sin cambio', 'sin cambio'),
  ];
  if (diff.unknown.length > 0)
    parts.push(plural(diff.unknown.length, 'unidad desconocida', 'unidades desconocidas'));
  if (diff.repeated.length > 0)
    parts.push(plural(diff.repeated.length, 'unidad repetida', 'unidades repetidas'));
  return parts.join(', ');
}

const listed = (units: { kind: UnitKind; number: string }[]) =>
  units
    .slice(0, 20)
    .map((unit) => `${unitKindLabels[unit.kind]} ${unit.number}`)
    .join(', ') + (units.length > 20 ? ` y ${formatInteger(units.length - 20)} más` : '');

/** Administrators: a CSV or XLSX price list read into rows (with the lines it could not read). */
export async function readPriceListFile(ctx: ServiceContext, projectId: string, contentBase64: string) {
  requireManage(ctx);
  await requireProject(ctx.db, projectId);
  return readPriceFile(Buffer.from(contentBase64, 'base64'));
}

/** Administrators: the differences of a list before it is applied (nothing is written). */
export async function previewPriceList(
  ctx: ServiceContext,
  projectId: string,
  body: { effectiveDate: string; rows: PriceInput[] },
): Promise<PriceListDiff> {
  requireManage(ctx);
  await requireProject(ctx.db, projectId);
  const { prices: _prices, ...diff } = await diffPriceList(ctx.db, projectId, body.effectiveDate, body.rows);
  return diff;
}

/**
 * Administrators: applies a list as a new version from its effective date (history kept: earlier
 * lists stay, reservations keep the prices they copied). A list naming a unit the project does not
 * have, or one unit twice, applies nothing.
 */
export async function applyPriceListIn(
  tx: Executor,
  projectId: string,
  body: { effectiveDate: string; note?: string | null; rows: readonly PriceInput[] },
  actorId: string | null,
): Promise<{ priceListId: string; diff: PriceListDiff }> {
  const { prices, ...diff } = await diffPriceList(tx, projectId, body.effectiveDate, body.rows);
  if (diff.unknown.length > 0) {
    throw new AppError('PRICE_LIST_UNKNOWN_UNITS', { params: { units: listed(diff.unknown) } });
  }
  if (diff.repeated.length > 0) {
    throw new AppError('PRICE_LIST_REPEATED_UNITS', { params: { units: listed(diff.repeated) } });
  }
  if (await queries.priceListDateTaken(tx, projectId, body.effectiveDate)) {
    throw new AppError('PRICE_LIST_DATE_TAKEN', { params: { date: formatDate(body.effectiveDate) } });
  }
  const priceListId = await queries.insertPriceList(
    tx,
    { projectId, effectiveDate: body.effectiveDate, note: body.note ?? null, actorId },
    prices,
  );
  return { priceListId, diff };
}

export async function applyPriceList(
  ctx: ServiceContext,
  projectId: string,
  body: { effectiveDate: string; note?: string | null; rows: PriceInput[] },
): Promise<{ priceList: PriceListView; diff: PriceListDiff }> {
  requireManage(ctx);
  await requireProject(ctx.db, projectId);
  let result: { priceListId: string; diff: PriceListDiff };
  try {
    result = await ctx.db.transaction((tx) => applyPriceListIn(tx, projectId, body, ctx.user.id));
  } catch (error) {
    if (isUniqueViolation(error, 'price_lists_project_date_key')) {
      throw new AppError('PRICE_LIST_DATE_TAKEN', { params: { date: formatDate(body.effectiveDate) } });
    }
    throw error;
  }
  publishStockChanged(ctx, projectId);
  const history = await priceLists(ctx, projectId);
  const priceList = history.rows.find((row) => row.id === result.priceListId)!;
  return { priceList, diff: result.diff };
}

/** The project's price lists, newest first, the one in force today marked (every user). */
export async function priceLists(ctx: ClockContext, projectId: string): Promise<{ rows: PriceListView[] }> {
  await requireProject(ctx.db, projectId);
  const day = today(ctx);
  const rows = await queries.priceListsOf(ctx.db, projectId);
  const current = rows.find((row) => row.effectiveDate <= day)?.id;
  return {
    rows: rows.map((row) => ({
      ...row,
      isCurrent: row.id === current,
      isScheduled: row.effectiveDate > day,
    })),
  };
}

// --- Commercial policy ---------------------------------------------------------------------------

const NO_POLICY: CommercialPolicy = {
  reservationAmount: null,
  maxColumnDiscount: null,
  maxAdditionalDiscount: null,
  maxOtherDiscount: null,
  maxSubsidyFraction: null,
};

export async function policy(ctx: ReadContext, projectId: string): Promise<PolicyView> {
  await requireProject(ctx.db, projectId);
  const stored = await queries.findPolicy(ctx.db, projectId);
  if (!stored) return { ...NO_POLICY, version: null };
  const { projectId: _project, updatedAt: _at, updatedBy: _by, ...view } = stored;
  return view;
}

/** Administrators: saves the policy (the first save creates it; then with the version read). */
export async function savePolicy(
  ctx: ServiceContext,
  projectId: string,
  { version, ...values }: PolicyValues & { version?: number },
): Promise<PolicyView> {
  requireManage(ctx);
  await requireProject(ctx.db, projectId);
  const saved = await ctx.db.transaction((tx) =>
    version === undefined
      ? queries.insertPolicy(tx, projectId, values, ctx.user.id)
      : queries.updatePolicy(tx, projectId, version, values, ctx.user.id),
  );
  if (!saved) throw new AppError('STALE_VERSION');
  return policy(ctx, projectId);
}

// --- Reservations (called by the reservations service inside its transaction) --------------------

export interface UnitChoice {
  apartmentUnitId: string | null;
  parkingUnitIds: string[];
  storageUnitIds: string[];
}

export interface ResolvedUnits {
  /** What the reservation stores as text and price, from its units. */
  apartmentNumber: string;
  parkingNumber: string | null;
  storageNumber: string | null;
  apartmentPrice: string;
  parkingPrice: string;
  storagePrice: string;
  held: { unitId: string; price: string; priceListId: string | null }[];
}

const EXPECTED: Record<UnitKind, string> = {
  apartment: 'un departamento',
  parking: 'un estacionamiento',
  storage: 'una bodega',
};

/**
 * Inside a reservation's transaction: the chosen units, locked, checked (of the project, of the
 * right kind, not blocked, not held by another live reservation) and priced — the units the
 * reservation already holds keep the price it copied; the others take the price in force today.
 * Null when the project has no inventory (the free text stays); refused when it has one and no
 * apartment is chosen.
 */
export async function resolveUnitsIn(
  tx: Executor,
  now: Date,
  projectId: string,
  choice: UnitChoice,
  current?: { reservationId: string; held: queries.HeldUnit[] },
): Promise<ResolvedUnits | null> {
  const chosen = [
    ...(choice.apartmentUnitId ? [{ id: choice.apartmentUnitId, kind: 'apartment' as const }] : []),
    ...choice.parkingUnitIds.map((id) => ({ id, kind: 'parking' as const })),
    ...choice.storageUnitIds.map((id) => ({ id, kind: 'storage' as const })),
  ];
  if (!choice.apartmentUnitId) {
    if (chosen.length > 0 || (await queries.hasProjectInventory(tx, projectId))) {
      throw new AppError('APARTMENT_UNIT_REQUIRED');
    }
    return null;
  }
  const ids = [...new Set(chosen.map((unit) => unit.id))];
  const locked = new Map((await queries.lockUnits(tx, ids)).map((unit) => [unit.id, unit]));
  for (const { id, kind } of chosen) {
    const unit = locked.get(id);
    if (!unit || unit.projectId !== projectId) throw new AppError('UNIT_NOT_IN_PROJECT');
    const name = unitName({ kind: unit.kind as UnitKind, number: unit.number });
    if (unit.kind !== kind)
      throw new AppError('UNIT_WRONG_KIND', { params: { unit: name, expected: EXPECTED[kind] } });
    const alreadyHeld = current?.held.some((held) => held.unitId === id);
    if (unit.blockedReason && !alreadyHeld) {
      throw new AppError('UNIT_BLOCKED', { params: { unit: name, reason: unit.blockedReason } });
    }
  }
  await refuseHeldIn(tx, ids, current?.reservationId);
  const prices = new Map(
    (await queries.listPricesOn(tx, ids, santiagoDateOf(now))).map((row) => [row.unitId, row]),
  );
  const held = chosen.map(({ id }) => {
    const kept = current?.held.find((unit) => unit.unitId === id);
    if (kept) return { unitId: id, price: kept.price, priceListId: kept.priceListId };
    const priced = prices.get(id);
    if (!priced?.price) {
      const unit = locked.get(id)!;
      throw new AppError('UNIT_UNPRICED', {
        params: { unit: unitName({ kind: unit.kind as UnitKind, number: unit.number }) },
      });
    }
    return { unitId: id, price: priced.price, priceListId: priced.priceListId };
  });
  const sumOf = (kind: UnitKind) =>
    money(
      chosen
        .map((unit, index) => (unit.kind === kind ? dec(held[index]!.price) : dec(0)))
        .reduce((total, price) => total.plus(price), dec(0)),
    );
  const numbersOf = (kind: UnitKind) =>
    chosen
      .filter((unit) => unit.kind === kind)
      .map((unit) => locked.get(unit.id)!.number)
      .join(', ') || null;
  return {
    apartmentNumber: locked.get(choice.apartmentUnitId)!.number,
    parkingNumber: numbersOf('parking'),
    storageNumber: numbersOf('storage'),
    apartmentPrice: sumOf('apartment'),
    parkingPrice: sumOf('parking'),
    storagePrice: sumOf('storage'),
    held,
  };
}

/** Refuses, naming the unit, when a live reservation other than `exceptReservationId` holds one of them. */
export async function refuseHeldIn(tx: Executor, unitIds: string[], exceptReservationId?: string) {
  const taken = await queries.findFirstHeld(tx, unitIds, exceptReservationId);
  if (!taken) return;
  const unit = await queries.findUnit(tx, taken.unitId);
  throw new AppError('UNIT_HELD', {
    params: {
      unit: unit ? unitName({ kind: unit.kind as UnitKind, number: unit.number }) : 'La unidad',
      reservation: taken.reservationNumber,
    },
  });
}

/** Whether an error is the database refusing a second live reservation of a unit. */
export function isUnitHeldViolation(error: unknown): boolean {
  return isUniqueViolation(error, LIVE_UNIT_UNIQUE);
}

/** Inside a reservation's transaction: it holds exactly these units (changing one frees the old). */
export function holdUnitsIn(tx: Executor, reservationId: string, held: ResolvedUnits['held']) {
  return queries.setReservationUnits(tx, reservationId, held);
}

export function unitsOfReservation(db: Executor, reservationId: string) {
  return queries.unitsOfReservation(db, reservationId);
}

/**
 * Inside a reservation's transaction: what its figures give beyond the project's policy, in words
 * (empty when nothing, or when the project has no policy).
 */
export async function policyBreachesIn(
  tx: Executor,
  projectId: string,
  input: Parameters<typeof policyBreaches>[1],
): Promise<string[]> {
  const stored = await queries.findPolicy(tx, projectId);
  return stored ? policyBreaches(stored, input) : [];
}

// --- The Excel import (issue 32, decision 0041): its kinds call these inside their transactions ----

/** The reads the import's kinds make, as the stock's queries answer them. */
export {
  findCurrentPriceList,
  type ImportedUnitRow,
  listHeldUnits,
  listPricesOn,
  listProjectsWithInventory,
  listUnitsWithHolders,
  listUnitsWithPricesOn,
  priceListDateTaken,
  type UnitWithHolder,
} from './stock.queries';

/** Inside an import's transaction: a unit's fields, with the version read (false: changed since). */
export function updateUnitIn(
  tx: Executor,
  id: string,
  version: number,
  values: UnitValues,
  actorId: string,
): Promise<boolean> {
  return queries.updateUnit(tx, id, version, values, actorId);
}

/** The commercial policies of the projects, by project (a project without one is absent). */
export async function policiesOf(
  db: Executor,
  projectIds: readonly string[],
): Promise<Map<string, CommercialPolicy>> {
  const rows = await queries.listPolicies(db, projectIds);
  return new Map(rows.map((row) => [row.projectId, row]));
}

// --- An import's undo (decision 0056): units and price lists are written only by stock ---------------

const IMPORTED_TABLES = { units: unitsTable, price_lists: priceListsTable } as const;

/** The units or price lists an import wrote, locked for its undo. */
export const lockImportedIn = (tx: Executor, table: keyof typeof IMPORTED_TABLES, ids: readonly string[]) =>
  lockRows(tx, IMPORTED_TABLES[table], ids);

/** An import's updates of units put back, as a new version. */
export const restoreImportedIn = (
  tx: Executor,
  table: keyof typeof IMPORTED_TABLES,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  userId: string | null,
) => restoreSnapshots(tx, IMPORTED_TABLES[table], rows, userId);

/** An import's new units or price lists deleted (a price list's items cascade). */
export const removeImportedIn = (tx: Executor, table: keyof typeof IMPORTED_TABLES, ids: readonly string[]) =>
  deleteByIds(tx, IMPORTED_TABLES[table], ids);
