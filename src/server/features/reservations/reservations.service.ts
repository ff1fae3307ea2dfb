import type { z } from 'zod';
import { commissionFigures, reservationFigures } from '../../../shared/domain/pricing';
import { can } from '../../../shared/permissions';
import type { SessionUser } from '../../../shared/schemas/auth';
import type {
  CommissionView,
  commissionFields,
  createReservationBody,
  PromotionView,
  promotionFields,
  ReservationView,
  reservationFields,
  saveCommissionBody,
  updatePromotionBody,
  updateReservationBody,
} from '../../../shared/schemas/reservations';
import type { Database, Executor } from '../../db/client';
import { AppError, fieldError, isUniqueViolation } from '../../http/app-error';
import { reassignSellerTasks, startReservationFlow } from '../reservation-flows/reservation-flows.service';
import * as queries from './reservations.queries';

export interface ServiceContext {
  db: Database;
  user: SessionUser;
}

type ReservationInput = z.output<typeof reservationFields>;
type CommissionInput = z.output<typeof commissionFields>;

const NUMBER_UNIQUE = 'reservations_reservation_number_unique';
const COMMISSION_UNIQUE = 'broker_commissions_reservation_id_unique';

/** The stored reservation columns for a form input: the server computes every derived figure. */
function reservationValues(input: ReservationInput): queries.ReservationValues {
  const figures = reservationFigures(input);
  return {
    reservationNumber: input.reservationNumber,
    clientId: input.clientId,
    projectId: input.projectId,
    sellerId: input.sellerId,
    reservationDate: input.reservationDate,
    apartmentNumber: input.apartmentNumber,
    parkingNumber: input.parkingNumber,
    storageNumber: input.storageNumber,
    apartmentPrice: input.apartmentPrice,
    parkingPrice: input.parkingPrice,
    storagePrice: input.storagePrice,
    columnDiscount: input.columnDiscount,
    additionalDiscount: input.additionalDiscount,
    otherDiscount: input.otherDiscount,
    reservationPayment: input.reservationPayment,
    promisePayment: input.promisePayment,
    downPayment: input.downPayment,
    creditPayment: input.creditPayment,
    subsidyPayment: input.subsidyPayment,
    isWithBroker: input.isWithBroker,
    brokerId: input.isWithBroker ? input.brokerId : null,
    ...figures,
  };
}

/** The stored commission columns: net commission and difference computed from the reservation. */
function commissionValues(
  input: CommissionInput,
  reservation: Pick<
    queries.ReservationRow,
    'minimumPrice' | 'recoveryPayment' | 'parkingPrice' | 'storagePrice'
  >,
  brokerId: string,
): queries.CommissionValues {
  const figures = commissionFigures(input, reservation);
  return {
    brokerId,
    commissionAmount: input.commissionAmount,
    commissionIncludesTax: input.commissionIncludesTax,
    commissionForDiscount: input.commissionForDiscount,
    paysSecondary: input.paysSecondary,
    numberOfPayments: input.numberOfPayments,
    firstPaymentPercentage: input.firstPaymentPercentage,
    purchaseOrder: input.purchaseOrder,
    invoice1: input.invoice1,
    invoice1Date: input.invoice1Date,
    payment1Date: input.payment1Date,
    invoice2: input.invoice2,
    invoice2Date: input.invoice2Date,
    payment2Date: input.payment2Date,
    netCommission: figures.netCommission,
    difference: figures.difference,
  };
}

/** Every reference of the form points at something that exists (a clear message per field). */
async function checkReferences(tx: Executor, input: ReservationInput, unchangedClientId?: string) {
  if (input.clientId !== unchangedClientId && !(await queries.liveClientExists(tx, input.clientId))) {
    throw fieldError('clientId', 'El cliente seleccionado no existe o fue eliminado');
  }
  if (!(await queries.projectExists(tx, input.projectId))) {
    throw fieldError('projectId', 'El proyecto seleccionado no existe');
  }
  if (input.sellerId && !(await queries.activeSellerExists(tx, input.sellerId))) {
    throw fieldError('sellerId', 'El vendedor seleccionado no está disponible');
  }
  if (input.isWithBroker && input.brokerId && !(await queries.brokerExists(tx, input.brokerId))) {
    throw fieldError('brokerId', 'El broker seleccionado no existe');
  }
}

async function checkNumberFree(tx: Executor, number: string, exceptId?: string) {
  if (await queries.reservationNumberTaken(tx, number, exceptId)) {
    throw new AppError('RESERVATION_NUMBER_TAKEN', {
      fields: { reservationNumber: 'Ya existe una reserva con este número' },
    });
  }
}

function mapUniqueViolations(error: unknown): never {
  if (isUniqueViolation(error, NUMBER_UNIQUE)) {
    throw new AppError('RESERVATION_NUMBER_TAKEN', {
      fields: { reservationNumber: 'Ya existe una reserva con este número' },
    });
  }
  throw error;
}

/**
 * Creates a reservation in one transaction (issue 4): the reservation with its computed figures,
 * its broker commission when sold with a broker, its sale flow with all task rows, the COF tasks
 * assigned to the seller and the default task assignments. Nothing is left behind on failure.
 */
export async function createReservation(
  ctx: ServiceContext,
  body: z.output<typeof createReservationBody>,
): Promise<ReservationView> {
  if (body.isWithBroker && !body.commission) throw new AppError('COMMISSION_REQUIRED');
  if (!body.isWithBroker && body.commission) throw new AppError('COMMISSION_NOT_ALLOWED');
  let reservationId: string;
  try {
    reservationId = await ctx.db.transaction(async (tx) => {
      await checkReferences(tx, body);
      await checkNumberFree(tx, body.reservationNumber);
      const reservation = await queries.insertReservation(tx, reservationValues(body), ctx.user.id);
      if (body.commission && reservation.brokerId) {
        await queries.insertCommission(
          tx,
          reservation.id,
          commissionValues(body.commission, reservation, reservation.brokerId),
          ctx.user.id,
        );
      }
      await startReservationFlow(tx, {
        reservationId: reservation.id,
        sellerId: body.sellerId,
        actorId: ctx.user.id,
      });
      return reservation.id;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isUniqueViolation(error, NUMBER_UNIQUE)) mapUniqueViolations(error);
    throw new AppError('RESERVATION_CREATE_FAILED', { cause: error });
  }
  return getReservation(ctx, reservationId);
}

/**
 * Edits a reservation (with the version the user read). Derived figures are recomputed, and so is
 * the commission's difference. Adding a broker needs the commission in the same request; removing
 * or changing the broker is refused once a payment flow has started. A new seller takes over the
 * open COF tasks.
 */
export async function updateReservation(
  ctx: ServiceContext,
  id: string,
  body: z.output<typeof updateReservationBody>,
): Promise<ReservationView> {
  try {
    await ctx.db.transaction(async (tx) => {
      const current = await queries.lockReservation(tx, id);
      if (!current) throw new AppError('RESERVATION_NOT_FOUND');
      if (current.version !== body.version) throw new AppError('STALE_VERSION');
      if (current.isRescinded) throw new AppError('RESERVATION_RESCINDED');
      await checkReferences(tx, body, current.clientId);
      await checkNumberFree(tx, body.reservationNumber, id);

      const existing = await queries.commissionOf(tx, id);
      if (body.isWithBroker && existing && body.commission) {
        throw new AppError('VALIDATION', {
          message: 'La reserva ya tiene una comisión de broker: edítela con «Editar comisión»',
        });
      }
      if (!body.isWithBroker && body.commission) throw new AppError('COMMISSION_NOT_ALLOWED');
      if (body.isWithBroker && !existing && !body.commission) throw new AppError('COMMISSION_REQUIRED');
      const brokerChanges =
        existing && (!body.isWithBroker || existing.commission.brokerId !== body.brokerId);
      if (brokerChanges && (await queries.hasStartedPaymentFlow(tx, existing.commission.id))) {
        throw new AppError('BROKER_CHANGE_LOCKED');
      }

      const updated = await queries.updateReservation(
        tx,
        id,
        body.version,
        reservationValues(body),
        ctx.user.id,
      );
      if (!updated) throw new AppError('STALE_VERSION');

      if (existing && !body.isWithBroker) {
        await queries.deleteCommission(tx, existing.commission.id);
      } else if (existing && updated.brokerId) {
        const figures = commissionFigures(
          {
            ...existing.commission,
            numberOfPayments: existing.commission.numberOfPayments as 1 | 2,
            firstPaymentPercentage: existing.commission.firstPaymentPercentage as 25 | 50 | 100,
          },
          updated,
        );
        await queries.updateCommission(
          tx,
          existing.commission.id,
          null,
          { brokerId: updated.brokerId, difference: figures.difference },
          ctx.user.id,
        );
      } else if (body.commission && updated.brokerId) {
        await queries.insertCommission(
          tx,
          id,
          commissionValues(body.commission, updated, updated.brokerId),
          ctx.user.id,
        );
      }

      if (current.sellerId !== updated.sellerId) {
        await reassignSellerTasks(tx, {
          reservationId: id,
          fromUserId: current.sellerId,
          toUserId: updated.sellerId,
          actorId: ctx.user.id,
        });
      }
    });
  } catch (error) {
    mapUniqueViolations(error);
  }
  return getReservation(ctx, id);
}

/** Administrators only: removes the reservation with everything that hangs off it, in one go. */
export async function deleteReservation(ctx: ServiceContext, id: string): Promise<void> {
  if (!can(ctx.user, 'reservations.delete')) throw new AppError('FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    const current = await queries.lockReservation(tx, id);
    if (!current) throw new AppError('RESERVATION_NOT_FOUND');
    const commission = await queries.commissionOf(tx, id);
    if (commission && (await queries.hasStartedPaymentFlow(tx, commission.commission.id))) {
      throw new AppError('RESERVATION_HAS_PAYMENTS');
    }
    await queries.deleteReservation(tx, id);
  });
}

function toCommissionView(
  row: NonNullable<Awaited<ReturnType<typeof queries.commissionOf>>>,
): CommissionView {
  const { commission } = row;
  return {
    id: commission.id,
    brokerId: commission.brokerId,
    commissionAmount: commission.commissionAmount,
    commissionIncludesTax: commission.commissionIncludesTax,
    netCommission: commission.netCommission,
    commissionForDiscount: commission.commissionForDiscount,
    paysSecondary: commission.paysSecondary,
    numberOfPayments: commission.numberOfPayments as 1 | 2,
    firstPaymentPercentage: commission.firstPaymentPercentage as 25 | 50 | 100,
    purchaseOrder: commission.purchaseOrder,
    invoice1: commission.invoice1,
    invoice1Date: commission.invoice1Date,
    payment1Date: commission.payment1Date,
    invoice2: commission.invoice2,
    invoice2Date: commission.invoice2Date,
    payment2Date: commission.payment2Date,
    difference: commission.difference,
    atRisk: commission.atRisk,
    atRiskReason: commission.atRiskReason,
    penaltyAmount: commission.penaltyAmount,
    version: commission.version,
    hasFirstPaymentFlow: Boolean(row.hasFirstPaymentFlow),
    hasSecondPaymentFlow: Boolean(row.hasSecondPaymentFlow),
  };
}

function toPromotionView(row: Awaited<ReturnType<typeof queries.promotionsOf>>[number]): PromotionView {
  return {
    id: row.id,
    amount: row.amount,
    beneficiary: row.beneficiary,
    rut: row.rut,
    bank: row.bank,
    accountType: row.accountType as PromotionView['accountType'],
    accountNumber: row.accountNumber,
    email: row.email,
    purchaseOrder: row.purchaseOrder,
    documentNumber: row.documentNumber,
    documentDate: row.documentDate,
    paymentDate: row.paymentDate,
    version: row.version,
  };
}

export async function getReservation(ctx: Pick<ServiceContext, 'db'>, id: string): Promise<ReservationView> {
  const found = await queries.findReservation(ctx.db, id);
  if (!found) throw new AppError('RESERVATION_NOT_FOUND');
  const [commission, promotionRows] = await Promise.all([
    queries.commissionOf(ctx.db, id),
    queries.promotionsOf(ctx.db, id),
  ]);
  const { reservation: r } = found;
  return {
    id: r.id,
    reservationNumber: r.reservationNumber,
    clientId: r.clientId,
    projectId: r.projectId,
    sellerId: r.sellerId,
    reservationDate: r.reservationDate,
    apartmentNumber: r.apartmentNumber,
    parkingNumber: r.parkingNumber,
    storageNumber: r.storageNumber,
    apartmentPrice: r.apartmentPrice,
    parkingPrice: r.parkingPrice,
    storagePrice: r.storagePrice,
    totalPrice: r.totalPrice,
    columnDiscount: r.columnDiscount,
    additionalDiscount: r.additionalDiscount,
    otherDiscount: r.otherDiscount,
    minimumPrice: r.minimumPrice,
    reservationPayment: r.reservationPayment,
    promisePayment: r.promisePayment,
    downPayment: r.downPayment,
    creditPayment: r.creditPayment,
    subsidyPayment: r.subsidyPayment,
    totalPayment: r.totalPayment,
    recoveryPayment: r.recoveryPayment,
    isWithBroker: r.isWithBroker,
    brokerId: r.brokerId,
    isRescinded: r.isRescinded,
    version: r.version,
    client: found.client
      ? {
          id: found.client.id,
          rut: found.client.rut,
          firstName: found.client.firstName,
          lastName: found.client.lastName,
        }
      : null,
    broker: found.broker,
    commission: commission ? toCommissionView(commission) : null,
    promotions: promotionRows.map(toPromotionView),
    reservationFlowId: found.reservationFlowId,
  };
}

/**
 * Creates the commission of a reservation sold with a broker (no version) or edits it (with the
 * version read). Payment dates 1 and 2 are read-only once the respective payment flow exists.
 */
export async function saveCommission(
  ctx: ServiceContext,
  reservationId: string,
  body: z.output<typeof saveCommissionBody>,
): Promise<CommissionView> {
  try {
    await ctx.db.transaction(async (tx) => {
      const reservation = await queries.lockReservation(tx, reservationId);
      if (!reservation) throw new AppError('RESERVATION_NOT_FOUND');
      if (reservation.isRescinded) throw new AppError('RESERVATION_RESCINDED');
      if (!reservation.isWithBroker || !reservation.brokerId) throw new AppError('COMMISSION_NOT_ALLOWED');
      const existing = await queries.commissionOf(tx, reservationId);
      const values = commissionValues(body, reservation, reservation.brokerId);
      if (!existing) {
        if (body.version !== undefined) throw new AppError('STALE_VERSION');
        await queries.insertCommission(tx, reservationId, values, ctx.user.id);
        return;
      }
      if (body.version === undefined) throw new AppError('STALE_VERSION');
      if (existing.hasFirstPaymentFlow && body.payment1Date !== existing.commission.payment1Date) {
        throw new AppError('PAYMENT_DATE_LOCKED', {
          fields: { payment1Date: 'La fecha de pago 1 la registra el flujo del primer pago' },
        });
      }
      if (existing.hasSecondPaymentFlow && body.payment2Date !== existing.commission.payment2Date) {
        throw new AppError('PAYMENT_DATE_LOCKED', {
          fields: { payment2Date: 'La fecha de pago 2 la registra el flujo del segundo pago' },
        });
      }
      const updated = await queries.updateCommission(
        tx,
        existing.commission.id,
        body.version,
        values,
        ctx.user.id,
      );
      if (!updated) throw new AppError('STALE_VERSION');
    });
  } catch (error) {
    // Two people creating the same commission at once: the second one read a stale screen.
    if (isUniqueViolation(error, COMMISSION_UNIQUE)) throw new AppError('STALE_VERSION');
    throw error;
  }
  const saved = await queries.commissionOf(ctx.db, reservationId);
  return toCommissionView(saved!);
}

async function requireOpenReservation(tx: Executor, reservationId: string) {
  const reservation = await queries.lockReservation(tx, reservationId);
  if (!reservation) throw new AppError('RESERVATION_NOT_FOUND');
  if (reservation.isRescinded) throw new AppError('RESERVATION_RESCINDED');
  return reservation;
}

export async function addPromotion(
  ctx: ServiceContext,
  reservationId: string,
  body: z.output<typeof promotionFields>,
): Promise<PromotionView> {
  const row = await ctx.db.transaction(async (tx) => {
    await requireOpenReservation(tx, reservationId);
    return queries.insertPromotion(tx, reservationId, body, ctx.user.id);
  });
  return toPromotionView(row);
}

export async function updatePromotion(
  ctx: ServiceContext,
  reservationId: string,
  promotionId: string,
  body: z.output<typeof updatePromotionBody>,
): Promise<PromotionView> {
  const { version, ...values } = body;
  const row = await ctx.db.transaction(async (tx) => {
    await requireOpenReservation(tx, reservationId);
    if (!(await queries.findPromotion(tx, reservationId, promotionId)))
      throw new AppError('PROMOTION_NOT_FOUND');
    const updated = await queries.updatePromotion(tx, promotionId, version, values, ctx.user.id);
    if (!updated) throw new AppError('STALE_VERSION');
    return updated;
  });
  return toPromotionView(row);
}

export async function deletePromotion(
  ctx: ServiceContext,
  reservationId: string,
  promotionId: string,
): Promise<void> {
  if (!can(ctx.user, 'promotions.delete')) throw new AppError('FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    if (!(await queries.findPromotion(tx, reservationId, promotionId)))
      throw new AppError('PROMOTION_NOT_FOUND');
    await queries.deletePromotion(tx, promotionId);
  });
}

export function listReservations(
  ctx: Pick<ServiceContext, 'db'>,
  query: { page: number; pageSize: number; search?: string | undefined },
) {
  return queries.listReservations(ctx.db, { ...query, search: query.search?.trim() || undefined });
}

export function formOptions(ctx: Pick<ServiceContext, 'db'>) {
  return queries.formOptions(ctx.db);
}
