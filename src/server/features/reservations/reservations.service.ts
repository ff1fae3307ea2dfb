import type { z } from 'zod';
import { dec } from '../../../shared/domain/decimal';
import { RESERVATION_FIGURE_FIELDS, reservationFigures } from '../../../shared/domain/pricing';
import { projectDelivery } from '../../../shared/domain/projects';
import { SALE_WORKFLOW } from '../../../shared/domain/workflow/names';
import { santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { pick } from '../../../shared/pick';
import {
  type createReservationBody,
  type ReservationListParams,
  type ReservationView,
  type reservationFields,
  STORED_RESERVATION_FIELDS,
  type updateReservationBody,
} from '../../../shared/schemas/reservations';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { reservations as reservationsTable } from '../../db/schema';
import { deleteByIds, lockRows, lockSnapshots, restoreSnapshots } from '../../db/snapshots';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as clients from '../clients/clients.service';
import * as commissions from '../commissions/commissions.service';
import * as promotions from '../promotions/promotions.service';
import * as stock from '../stock/stock.service';
import * as users from '../users/users.service';
import * as workflows from '../workflows/workflows.service';
import * as queries from './reservations.queries';

type ReservationInput = z.output<typeof reservationFields>;

const NUMBER_UNIQUE = 'reservations_reservation_number_unique';
const UNIT_UNIQUE = [
  'reservations_live_apartment_key',
  'reservations_live_parking_key',
  'reservations_live_storage_key',
];

/** The form fields stored as given; every derived figure is computed by the server. */
const STORED_INPUT_FIELDS = STORED_RESERVATION_FIELDS satisfies readonly (keyof ReservationInput &
  keyof queries.ReservationValues)[];

function reservationValues(input: ReservationInput): queries.ReservationValues {
  return {
    ...pick(input, STORED_INPUT_FIELDS),
    brokerId: input.isWithBroker ? input.brokerId : null,
    ...reservationFigures(input),
  };
}

/** Every reference of the form points at something that exists (a clear message per field). */
async function checkReferences(tx: Executor, input: ReservationInput, unchangedClientId?: string) {
  if (input.clientId !== unchangedClientId) {
    if (!(await queries.liveClientExists(tx, input.clientId)))
      throw new AppError('RESERVATION_CLIENT_UNAVAILABLE');
    // A holder who blocked the processing of their data gets no new sale until it is lifted (decision 0027).
    if (await clients.isBlockedIn(tx, input.clientId)) throw new AppError('CLIENT_BLOCKED');
  }
  if (!(await queries.projectExists(tx, input.projectId))) {
    throw new AppError('RESERVATION_PROJECT_UNKNOWN');
  }
  if (input.sellerId && !(await users.isActiveSeller(tx, input.sellerId))) {
    throw new AppError('RESERVATION_SELLER_UNAVAILABLE');
  }
  if (input.isWithBroker && input.brokerId && !(await queries.brokerExists(tx, input.brokerId))) {
    throw new AppError('RESERVATION_BROKER_UNKNOWN');
  }
}

function numberTaken(): AppError {
  return new AppError('RESERVATION_NUMBER_TAKEN');
}

const UNIT_FIELDS = {
  apartment: 'apartmentNumber',
  parking: 'parkingNumber',
  storage: 'storageNumber',
} as const;
const UNIT_TAKEN = {
  apartment: 'APARTMENT_TAKEN',
  parking: 'PARKING_TAKEN',
  storage: 'STORAGE_TAKEN',
} as const;

/**
 * No apartment, parking or storage is sold twice (issue 10): refused with the reservation that holds
 * it. The partial unique indexes are the last line of defence when two saves race.
 */
async function checkUnitsFree(db: Executor, input: ReservationInput, exceptId?: string) {
  const holder = await queries.findLiveReservationHoldingUnit(db, input, exceptId);
  if (!holder) return;
  throw new AppError(UNIT_TAKEN[holder.unit], {
    params: { number: input[UNIT_FIELDS[holder.unit]] ?? '', reservation: holder.reservationNumber },
  });
}

/**
 * Rethrows a refusal, or a unique violation raised by a race as the message the user would have got
 * first; returns for any other failure (the caller decides what it says).
 */
async function rethrowRefusal(ctx: ReadContext, error: unknown, input: ReservationInput, exceptId?: string) {
  if (error instanceof AppError) throw error;
  if (isUniqueViolation(error, NUMBER_UNIQUE)) throw numberTaken();
  if (UNIT_UNIQUE.some((constraint) => isUniqueViolation(error, constraint))) {
    await checkUnitsFree(ctx.db, input, exceptId);
    throw new AppError('UNIT_TAKEN');
  }
  if (stock.isUnitHeldViolation(error)) {
    const unitIds = [
      ...(input.apartmentUnitId ? [input.apartmentUnitId] : []),
      ...input.parkingUnitIds,
      ...input.storageUnitIds,
    ];
    await stock.refuseHeldIn(ctx.db, unitIds, exceptId);
    throw new AppError('UNIT_TAKEN');
  }
}

/**
 * The units of the reservation (decision 0032): with an inventory, its numbers and prices are its
 * units' (locked, checked, priced from the list in force; kept units keep the price they copied).
 * Without one, the free text as typed. Null when there is nothing to hold.
 */
async function withUnits(
  tx: Executor,
  now: Date,
  input: ReservationInput,
  current?: { reservationId: string },
): Promise<{ input: ReservationInput; held: stock.ResolvedUnits['held'] | null }> {
  const heldBefore = current ? await stock.unitsOfReservation(tx, current.reservationId) : [];
  // A reservation typed before its project had an inventory keeps its free text until a unit is chosen.
  if (current && heldBefore.length === 0 && !input.apartmentUnitId) return { input, held: null };
  const resolved = await stock.resolveUnitsIn(
    tx,
    now,
    input.projectId,
    input,
    current ? { reservationId: current.reservationId, held: heldBefore } : undefined,
  );
  if (!resolved) return { input, held: null };
  const { held, ...fromUnits } = resolved;
  return { input: { ...input, ...fromUnits }, held };
}

const POLICY_TERMS = [
  'reservationPayment',
  'columnDiscount',
  'additionalDiscount',
  'otherDiscount',
  'subsidyPayment',
  'totalPrice',
] as const;

/**
 * The project's commercial policy (decision 0032): a reservation beyond it is refused, unless an
 * administrator gives a reason (stored on the reservation, so the audit trail shows it). An edit
 * that leaves the terms of an overridden reservation as they were keeps its reason.
 */
async function policyOverride(
  tx: Executor,
  ctx: ServiceContext,
  input: ReservationInput,
  current?: queries.ReservationRow,
): Promise<string | null> {
  const totalPrice = reservationFigures(input).totalPrice;
  const terms = { ...input, totalPrice };
  const breaches = await stock.policyBreachesIn(tx, input.projectId, terms);
  if (breaches.length === 0) return null;
  const unchanged =
    current?.policyOverrideReason &&
    current.projectId === input.projectId &&
    POLICY_TERMS.every((term) => dec(current[term]).eq(dec(terms[term])));
  if (unchanged && !input.policyOverrideReason) return current.policyOverrideReason;
  if (!input.policyOverrideReason) {
    throw new AppError('POLICY_EXCEEDED', { params: { breaches: breaches.join('; ') } });
  }
  if (!can(ctx.user, 'reservations.overridePolicy')) throw new AppError('POLICY_OVERRIDE_FORBIDDEN');
  return input.policyOverrideReason;
}

/**
 * Creates a reservation in one transaction (spec part 1 §4): the reservation with its computed
 * figures, its broker commission when sold with a broker, and its sale flow through the workflow
 * engine (task rows, the seller's tasks, the default assignees). Nothing is left behind on failure.
 */
export async function create(
  ctx: ServiceContext,
  body: z.output<typeof createReservationBody>,
): Promise<ReservationView> {
  if (body.isWithBroker && !body.commission) throw new AppError('COMMISSION_REQUIRED');
  if (!body.isWithBroker && body.commission) throw new AppError('COMMISSION_NOT_ALLOWED');
  let created: { reservationId: string; saleFlow: workflows.CreatedFlow };
  try {
    created = await ctx.db.transaction(async (tx) => {
      await checkReferences(tx, body);
      if (await queries.reservationNumberTaken(tx, body.reservationNumber)) throw numberTaken();
      const { input, held } = await withUnits(tx, ctx.now, body);
      await checkUnitsFree(tx, input);
      const policyOverrideReason = await policyOverride(tx, ctx, input);
      const reservation = await queries.insertReservation(
        tx,
        { ...reservationValues(input), policyOverrideReason },
        ctx.user.id,
      );
      if (held) await stock.holdUnitsIn(tx, reservation.id, held);
      if (body.commission && reservation.brokerId) {
        await commissions.createForReservation(
          tx,
          { ...reservation, brokerId: reservation.brokerId },
          body.commission,
          ctx.user,
        );
      }
      const saleFlow = await workflows.createFlow(tx, {
        workflowName: SALE_WORKFLOW,
        reservationId: reservation.id,
        sellerId: body.sellerId,
        actorId: ctx.user.id,
        now: ctx.now,
      });
      return { reservationId: reservation.id, saleFlow };
    });
  } catch (error) {
    await rethrowRefusal(ctx, error, body);
    throw new AppError('RESERVATION_CREATE_FAILED', { cause: error });
  }
  workflows.publishOutcome(ctx.events, created.saleFlow);
  return get(ctx, created.reservationId);
}

/**
 * Edits a reservation (with the version the user read). Derived figures are recomputed, and so is
 * the commission's difference. Adding a broker needs the commission in the same request; removing
 * or changing the broker is refused once a payment flow has started. A new seller takes over the
 * open seller tasks of the sale flow.
 */
export async function update(
  ctx: ServiceContext,
  id: string,
  body: z.output<typeof updateReservationBody>,
): Promise<ReservationView> {
  const outcomes: workflows.CommandOutcome[] = [];
  let unitsChanged = false;
  try {
    await ctx.db.transaction(async (tx) => {
      const current = await queries.lockReservation(tx, id);
      if (!current) throw new AppError('RESERVATION_NOT_FOUND');
      if (current.version !== body.version) throw new AppError('STALE_VERSION');
      if (current.isRescinded) throw new AppError('RESERVATION_RESCINDED');
      await checkReferences(tx, body, current.clientId);
      if (await queries.reservationNumberTaken(tx, body.reservationNumber, id)) throw numberTaken();
      const { input, held } = await withUnits(tx, ctx.now, body, { reservationId: id });
      await checkUnitsFree(tx, input, id);
      const policyOverrideReason = await policyOverride(tx, ctx, input, current);

      const existing = await commissions.commissionOf(tx, id);
      if (body.isWithBroker && existing && body.commission) {
        throw new AppError('COMMISSION_EXISTS');
      }
      if (!body.isWithBroker && body.commission) throw new AppError('COMMISSION_NOT_ALLOWED');
      if (body.isWithBroker && !existing && !body.commission) throw new AppError('COMMISSION_REQUIRED');
      const brokerChanges = existing && (!body.isWithBroker || existing.brokerId !== body.brokerId);
      if (brokerChanges && (await commissions.hasStartedPaymentFlow(tx, existing.id))) {
        throw new AppError('BROKER_CHANGE_LOCKED');
      }

      const updated = await queries.updateReservation(
        tx,
        id,
        body.version,
        { ...reservationValues(input), policyOverrideReason },
        ctx.user.id,
      );
      if (!updated) throw new AppError('STALE_VERSION');
      if (held) await stock.holdUnitsIn(tx, id, held);
      if (held) unitsChanged = true;

      if (existing && !updated.brokerId) {
        await commissions.removeForReservation(tx, existing.id);
      } else if (existing && updated.brokerId) {
        await commissions.followReservation(tx, { ...updated, brokerId: updated.brokerId }, ctx.user.id);
      } else if (body.commission && updated.brokerId) {
        await commissions.createForReservation(
          tx,
          { ...updated, brokerId: updated.brokerId },
          body.commission,
          ctx.user,
        );
      }

      if (current.sellerId !== updated.sellerId) {
        const outcome = await workflows.handOverSellerTasks(
          tx,
          ctx.user,
          ctx.now,
          id,
          current.sellerId,
          updated.sellerId,
        );
        if (outcome) outcomes.push(outcome);
      }
    });
  } catch (error) {
    await rethrowRefusal(ctx, error, body, id);
    throw error;
  }
  for (const outcome of outcomes) workflows.publishOutcome(ctx.events, outcome);
  const view = await get(ctx, id);
  // Disponibilidad follows flow changes live: a reservation's units changing is one for its grid.
  if (unitsChanged && view.reservationFlowId) {
    ctx.events.publish({
      type: 'flow-changed',
      flowId: view.reservationFlowId,
      reservationId: id,
      userIds: [],
    });
  }
  return view;
}

/** The sale-process fields of a reservation the sale flow screen edits; a missing one stays as it is. */
export interface SaleDetails {
  promiseDate?: string | null;
  deedDate?: string | null;
  /** First day of the month. */
  commissionPaymentMonth?: string | null;
  commissionProjectionMonth?: string | null;
  bankName?: string | null;
  bankExecutive?: string | null;
  bankExecutiveEmail?: string | null;
  bankExecutivePhone?: string | null;
}

const BANK_DETAILS = ['bankName', 'bankExecutive', 'bankExecutiveEmail', 'bankExecutivePhone'] as const;

/**
 * Edits the sale-process fields of a reservation (spec part 2 §2, the sale flow detail): promise and
 * deed dates, the commission's payment and projection months, and the deed bank ('Banco
 * Escrituración') once the project's deadline has passed — with the version the user read. A
 * rescinded reservation is not edited.
 */
export async function updateSaleDetails(
  ctx: ServiceContext,
  id: string,
  version: number,
  changes: SaleDetails,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await queries.lockReservation(tx, id);
    if (!current) throw new AppError('RESERVATION_NOT_FOUND');
    if (current.version !== version) throw new AppError('STALE_VERSION');
    if (current.isRescinded) throw new AppError('RESERVATION_RESCINDED');
    if (BANK_DETAILS.some((field) => changes[field] !== undefined)) {
      const deadline = await queries.findProjectDeadline(tx, current.projectId);
      if (!deadline || projectDelivery(deadline, santiagoDateOf(ctx.now)) !== 'Inmediata') {
        throw new AppError('BANK_DETAILS_BEFORE_DEADLINE');
      }
    }
    const values = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined),
    ) as Partial<queries.ReservationValues>;
    const updated = await queries.updateReservation(tx, id, version, values, ctx.user.id);
    if (!updated) throw new AppError('STALE_VERSION');
  });
}

/** Administrators only: removes the reservation with everything that hangs off it, in one go. */
export async function remove(ctx: ServiceContext, id: string): Promise<void> {
  if (!can(ctx.user, 'reservations.delete')) throw new AppError('FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    const current = await queries.lockReservation(tx, id);
    if (!current) throw new AppError('RESERVATION_NOT_FOUND');
    const commission = await commissions.commissionOf(tx, id);
    if (commission && (await commissions.hasStartedPaymentFlow(tx, commission.id))) {
      throw new AppError('RESERVATION_HAS_PAYMENTS');
    }
    await queries.deleteReservation(tx, id);
  });
}

export async function get(ctx: ReadContext, id: string): Promise<ReservationView> {
  const found = await queries.findReservation(ctx.db, id);
  if (!found) throw new AppError('RESERVATION_NOT_FOUND');
  const [commission, promotionRows, units] = await Promise.all([
    commissions.commissionFor(ctx.db, ctx.user, id),
    promotions.promotionsOf(ctx, id),
    stock.unitsOfReservation(ctx.db, id),
  ]);
  const { reservation } = found;
  return {
    ...pick(reservation, [
      'id',
      ...STORED_RESERVATION_FIELDS,
      ...RESERVATION_FIGURE_FIELDS,
      'brokerId',
      'isRescinded',
      'version',
      'policyOverrideReason',
    ]),
    units,
    client: found.client
      ? {
          ...pick(found.client, ['id', 'rut', 'firstName', 'lastName']),
          isDeleted: found.client.deletedAt !== null,
        }
      : null,
    broker: found.broker,
    commission,
    promotions: promotionRows,
    reservationFlowId: found.reservationFlowId,
  };
}

export function list(ctx: ReadContext, query: ReservationListParams) {
  return queries.listReservations(ctx.db, query);
}

export async function formOptions(ctx: ReadContext) {
  const [options, sellers] = await Promise.all([queries.listFormOptions(ctx.db), users.listSellers(ctx.db)]);
  return { projects: options.projects, sellers, defaultSellerId: options.defaultSellerId };
}

/** The reservation, locked for a rescission's transaction (null when it does not exist). */
export function lockForRescissionIn(tx: Executor, id: string) {
  return queries.lockReservation(tx, id);
}

/**
 * Inside a rescission's transaction, on the locked reservation read at `version`: rescinded, with
 * when, why and by whom (irreversible; the live-unit constraints release its apartment, parking and
 * storage).
 */
export async function markRescindedIn(
  tx: Executor,
  id: string,
  version: number,
  rescission: { at: Date; reason: string; actorId: string },
): Promise<void> {
  const updated = await queries.updateReservation(
    tx,
    id,
    version,
    {
      isRescinded: true,
      rescindedAt: rescission.at,
      rescindedReason: rescission.reason,
      rescindedBy: rescission.actorId,
    },
    rescission.actorId,
  );
  if (!updated) throw new AppError('STALE_VERSION');
}

// --- Imports (decision 0056): Configuración → Importar writes reservations only through these --------

export interface ImportedReservation {
  id: string;
  values: queries.ReservationValues;
  commission: (commissions.ImportedCommissionValues & { id: string }) | null;
}

/**
 * Inside an import's chunk: new reservations set-based, with their commissions (the payments
 * imported as paid keep their pesos). A client whose processing is blocked gets no reservation
 * (CLIENT_BLOCKED, as on the form: decision 0027). Their units and flows follow through stock and
 * workflows, as the form's path does.
 */
export async function importIn(
  tx: Executor,
  rows: readonly ImportedReservation[],
  actorId: string,
): Promise<void> {
  const blocked = await clients.blockedAmongIn(tx, [
    ...new Set(rows.map((row) => row.values.clientId as string)),
  ]);
  if (blocked.size > 0) throw new AppError('CLIENT_BLOCKED');
  await queries.insertReservationsAsJson(
    tx,
    rows.map((row) => ({ ...row.values, id: row.id })),
    actorId,
  );
  await commissions.importForReservationsIn(
    tx,
    rows.flatMap((row) => (row.commission ? [{ ...row.commission, reservationId: row.id }] : [])),
    actorId,
  );
}

/**
 * Inside an import's chunk: existing reservations (and their commissions) at the version read
 * (stale → 409); answers the rows as they were, for undo. Their units, broker and flows are changed on
 * their screens (the import refuses those changes before this).
 */
export async function importUpdatesIn(
  tx: Executor,
  rows: readonly {
    id: string;
    version: number;
    values: Partial<queries.ReservationValues>;
    commission: { id: string; version: number; values: Partial<commissions.ImportedCommissionValues> } | null;
  }[],
  actorId: string,
): Promise<{
  reservations: Map<string, Record<string, unknown>>;
  commissions: Map<string, Record<string, unknown>>;
}> {
  const before = await lockSnapshots(
    tx,
    reservationsTable,
    rows.map((row) => row.id),
  );
  // A reservation moved to another client is a new sale for that client (as `checkReferences`).
  const newClients = rows
    .map((row) => row.values.clientId)
    .filter(
      (id, index): id is string => typeof id === 'string' && before.get(rows[index]!.id)?.client_id !== id,
    );
  if ((await clients.blockedAmongIn(tx, [...new Set(newClients)])).size > 0)
    throw new AppError('CLIENT_BLOCKED');
  const commissionsBefore = await commissions.lockSnapshotsIn(
    tx,
    rows.flatMap((row) => (row.commission ? [row.commission.id] : [])),
  );
  for (const row of rows) {
    if (!(await queries.updateReservation(tx, row.id, row.version, row.values, actorId)))
      throw new AppError('STALE_VERSION');
    if (row.commission)
      await commissions.importUpdateIn(
        tx,
        row.commission.id,
        row.commission.version,
        row.commission.values,
        actorId,
      );
  }
  return { reservations: before, commissions: commissionsBefore };
}

/** An import's undo: its reservations locked, updates put back as a new version, creations deleted (flows cascade). */
export const lockImportedIn = (tx: Executor, ids: readonly string[]) => lockRows(tx, reservationsTable, ids);
export const restoreImportedIn = (
  tx: Executor,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  userId: string | null,
) => restoreSnapshots(tx, reservationsTable, rows, userId);
export const removeImportedIn = (tx: Executor, ids: readonly string[]) =>
  deleteByIds(tx, reservationsTable, ids);
