import type { z } from 'zod';
import { riskRefusal } from '../../../shared/domain/payments';
import { commissionFigures } from '../../../shared/domain/pricing';
import { paymentUf, ufToClp } from '../../../shared/domain/uf';
import type { FlowStatus } from '../../../shared/domain/workflow/statuses';
import { allow, type PolicyUser } from '../../../shared/policies';
import type {
  CommissionView,
  commissionFields,
  saveCommissionBody,
} from '../../../shared/schemas/reservations';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { brokerCommissions as brokerCommissionsTable } from '../../db/schema';
import { deleteByIds, lockRows, lockSnapshots, restoreSnapshots } from '../../db/snapshots';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as queries from './commissions.queries';

/**
 * The broker commission of a reservation (spec part 1 §5, part 2 "Commission edit"): its stored
 * figures are computed here from the reservation, and its payment dates come from the payment flows.
 */

type CommissionInput = z.output<typeof commissionFields>;
type ReservationFigures = Parameters<typeof commissionFigures>[1];

const COMMISSION_UNIQUE = 'broker_commissions_reservation_id_unique';

/** The stored commission columns: the input as given, net commission and difference computed. */
function commissionValues(
  input: CommissionInput,
  reservation: ReservationFigures,
  brokerId: string,
): queries.CommissionValues {
  const { netCommission, difference } = commissionFigures(input, reservation);
  const { version: _version, ...fields } = input as CommissionInput & { version?: number };
  return { ...fields, brokerId, netCommission, difference };
}

/** The commission as stored, every folio included (the server's own checks; never sent as it is). */
export function commissionOf(db: Executor, reservationId: string): Promise<queries.StoredCommission | null> {
  return queries.commissionViewOf(db, reservationId);
}

/**
 * The purchase order's and the broker's invoices' folios are the facts of the restricted document
 * types 'Orden de compra' and 'Factura del broker' (decision 0060): whoever may not read those
 * documents does not see the folios either (decision 0076), as the commission's PDF already refuses.
 */
export function mayReadFolios(user: PolicyUser | undefined): boolean {
  return user !== undefined && allow(user, 'documents.read', { isRestricted: true });
}

/** The commission as this user may see it: the folios null when they may not, and saying so. */
export function viewFor(user: PolicyUser | undefined, stored: queries.StoredCommission): CommissionView {
  if (mayReadFolios(user)) return { ...stored, foliosShown: true };
  return { ...stored, purchaseOrder: null, invoice1: null, invoice2: null, foliosShown: false };
}

/** The commission of a reservation as this user may see it (its answer and the reservation's). */
export async function commissionFor(
  db: Executor,
  user: PolicyUser | undefined,
  reservationId: string,
): Promise<CommissionView | null> {
  const stored = await queries.commissionViewOf(db, reservationId);
  return stored && viewFor(user, stored);
}

const FOLIO_FIELDS = ['purchaseOrder', 'invoice1', 'invoice2'] as const;

/**
 * A save by someone who may not see the folios: typing one is refused (they could not read it back),
 * and the folios stored stay as they are (the form sends none: it never showed them).
 */
function withFoliosOf<T extends Partial<Record<(typeof FOLIO_FIELDS)[number], string | null | undefined>>>(
  user: PolicyUser,
  input: T,
  stored: Pick<queries.StoredCommission, (typeof FOLIO_FIELDS)[number]> | null,
): T {
  if (mayReadFolios(user)) return input;
  if (FOLIO_FIELDS.some((field) => input[field] != null)) throw new AppError('COMMISSION_FOLIOS_FORBIDDEN');
  return {
    ...input,
    purchaseOrder: stored?.purchaseOrder ?? null,
    invoice1: stored?.invoice1 ?? null,
    invoice2: stored?.invoice2 ?? null,
  };
}

export function hasStartedPaymentFlow(db: Executor, commissionId: string): Promise<boolean> {
  return queries.hasStartedPaymentFlow(db, commissionId);
}

/** Inside the reservation's transaction: the commission of a reservation sold with a broker. */
export async function createForReservation(
  tx: Executor,
  reservation: ReservationFigures & { id: string; brokerId: string },
  input: CommissionInput,
  actor: PolicyUser,
): Promise<void> {
  await queries.insertCommission(
    tx,
    reservation.id,
    commissionValues(withFoliosOf(actor, input, null), reservation, reservation.brokerId),
    actor.id,
  );
}

/**
 * Inside the reservation's transaction, after the reservation changed: the commission follows its
 * broker, and its difference is recomputed from the new prices and payments.
 */
export async function followReservation(
  tx: Executor,
  reservation: ReservationFigures & { id: string; brokerId: string },
  actorId: string,
): Promise<void> {
  const current = await queries.commissionRowOf(tx, reservation.id);
  if (!current) return;
  const { difference } = commissionFigures(
    {
      ...current,
      numberOfPayments: current.numberOfPayments as 1 | 2,
      firstPaymentPercentage: current.firstPaymentPercentage as 25 | 50 | 100,
    },
    reservation,
  );
  await queries.updateCommission(
    tx,
    current.id,
    null,
    { brokerId: reservation.brokerId, difference },
    actorId,
  );
}

export async function removeForReservation(tx: Executor, commissionId: string): Promise<void> {
  await queries.deleteCommission(tx, commissionId);
}

/**
 * PUT /api/reservations/:id/commission: creates the commission (no version) or edits it (with the
 * version read). Payment dates 1 and 2 are read-only once the respective payment flow exists.
 */
export async function save(
  ctx: ServiceContext,
  reservationId: string,
  body: z.output<typeof saveCommissionBody>,
): Promise<CommissionView> {
  try {
    await ctx.db.transaction(async (tx) => {
      const reservation = await queries.lockReservationOf(tx, reservationId);
      if (!reservation) throw new AppError('RESERVATION_NOT_FOUND');
      if (reservation.isRescinded) throw new AppError('RESERVATION_RESCINDED');
      if (!reservation.isWithBroker || !reservation.brokerId) throw new AppError('COMMISSION_NOT_ALLOWED');
      const existing = await queries.commissionViewOf(tx, reservationId);
      const { version, ...typed } = body;
      const input = withFoliosOf(ctx.user, typed, existing);
      const values = commissionValues(input, reservation, reservation.brokerId);
      if (!existing) {
        if (version !== undefined) throw new AppError('STALE_VERSION');
        const inserted = await queries.insertCommission(tx, reservationId, values, ctx.user.id);
        await freezeTypedDates(
          tx,
          inserted.id,
          { payment1Date: null, payment2Date: null },
          input,
          ctx.user.id,
        );
        return;
      }
      if (version === undefined) throw new AppError('STALE_VERSION');
      if (existing.hasFirstPaymentFlow && input.payment1Date !== existing.payment1Date) {
        throw new AppError('PAYMENT_1_DATE_LOCKED');
      }
      if (existing.hasSecondPaymentFlow && input.payment2Date !== existing.payment2Date) {
        throw new AppError('PAYMENT_2_DATE_LOCKED');
      }
      const updated = await queries.updateCommission(tx, existing.id, version, values, ctx.user.id);
      if (!updated) throw new AppError('STALE_VERSION');
      await freezeTypedDates(tx, existing.id, existing, input, ctx.user.id);
    });
  } catch (error) {
    // Two people creating the same commission at once: the second one read a stale screen.
    if (isUniqueViolation(error, COMMISSION_UNIQUE)) throw new AppError('STALE_VERSION');
    throw error;
  }
  return (await commissionFor(ctx.db, ctx.user, reservationId))!;
}

/**
 * Inside the workflow engine's transaction: a payment flow completed (or its completion date was
 * corrected), so the commission's payment date is that day (workflows.md §3); or the flow stopped
 * being complete (a task reopened), so the payment has no date any more (null, issue 26).
 */
export async function recordPaymentDate(
  tx: Executor,
  commissionId: string,
  payment: 1 | 2,
  date: string | null,
  actorId: string,
): Promise<void> {
  const figures = await queries.findPaymentFigures(tx, commissionId);
  const pesos = figures ? await frozenPesos(tx, figures, payment, date) : { clp: null, ufValue: null };
  await queries.updateCommission(
    tx,
    commissionId,
    null,
    payment === 1
      ? { payment1Date: date, payment1Clp: pesos.clp, payment1UfValue: pesos.ufValue }
      : { payment2Date: date, payment2Clp: pesos.clp, payment2UfValue: pesos.ufValue },
    actorId,
  );
}

/**
 * Inside the transaction that records or corrects a payment's broker invoice (issue 53): the invoice
 * is the record — its folio and issue date become the commission's 'Factura 1/2' and its date, which
 * every PDF cites.
 */
export async function recordInvoiceIn(
  tx: Executor,
  commissionId: string,
  payment: 1 | 2,
  invoice: { folio: string; issueDate: string },
  actorId: string,
): Promise<void> {
  await queries.updateCommission(
    tx,
    commissionId,
    null,
    payment === 1
      ? { invoice1: invoice.folio, invoice1Date: invoice.issueDate }
      : { invoice2: invoice.folio, invoice2Date: invoice.issueDate },
    actorId,
  );
}

/** Payment dates typed in the commission's form (no flow yet): their pesos are frozen as a flow's are. */
async function freezeTypedDates(
  tx: Executor,
  commissionId: string,
  before: { payment1Date: string | null; payment2Date: string | null },
  after: { payment1Date?: string | null; payment2Date?: string | null },
  actorId: string,
) {
  const first = after.payment1Date ?? null;
  const second = after.payment2Date ?? null;
  if (first !== before.payment1Date) await recordPaymentDate(tx, commissionId, 1, first, actorId);
  if (second !== before.payment2Date) await recordPaymentDate(tx, commissionId, 2, second, actorId);
}

/**
 * A payment's pesos at its date (decision 0034): the UF value of that day and the payment's UF in
 * whole pesos. Both null without a date, or when the day has no value ('Valor UF no disponible').
 */
async function frozenPesos(
  tx: Executor,
  figures: Parameters<typeof paymentUf>[0],
  payment: 1 | 2,
  date: string | null,
): Promise<{ clp: string | null; ufValue: string | null }> {
  if (date === null) return { clp: null, ufValue: null };
  const ufValue = await queries.findUfValueOn(tx, date);
  if (ufValue === null) return { clp: null, ufValue: null };
  return { clp: ufToClp(paymentUf(figures, payment), ufValue), ufValue };
}

// --- Imports (decision 0056): Configuración → Importar writes commissions only through these --------

export type ImportedCommissionValues = queries.CommissionValues;
type ImportedCommission = queries.CommissionValues & { id: string; reservationId: string };

/**
 * Inside an import's chunk: the commissions of new reservations, set-based. A payment imported as
 * paid (its date given) keeps its pesos frozen at that day's UF value, as a payment flow's completion
 * freezes them (decision 0034); a day without a value leaves them to be frozen when it is loaded
 * (`freezeMissingPesosIn`).
 */
export async function importForReservationsIn(
  tx: Executor,
  rows: readonly ImportedCommission[],
  actorId: string,
): Promise<void> {
  const days = new Set<string>();
  for (const row of rows) {
    if (row.payment1Date) days.add(row.payment1Date);
    if (row.payment2Date) days.add(row.payment2Date);
  }
  const ufValues = await queries.listUfValuesOn(tx, [...days]);
  const pesosOf = (row: ImportedCommission, payment: 1 | 2) => {
    const date = payment === 1 ? row.payment1Date : row.payment2Date;
    const ufValue = date ? (ufValues.get(date) ?? null) : null;
    if (ufValue === null) return { clp: null, ufValue: null };
    const figures = {
      commissionAmount: String(row.commissionAmount),
      numberOfPayments: Number(row.numberOfPayments),
      firstPaymentPercentage: Number(row.firstPaymentPercentage),
    };
    return { clp: ufToClp(paymentUf(figures, payment), ufValue), ufValue };
  };
  await queries.insertCommissionsAsJson(
    tx,
    rows.map((row) => {
      const first = pesosOf(row, 1);
      const second = pesosOf(row, 2);
      return {
        ...row,
        payment1Clp: first.clp,
        payment1UfValue: first.ufValue,
        payment2Clp: second.clp,
        payment2UfValue: second.ufValue,
      };
    }),
    actorId,
  );
}

/**
 * Inside an import's chunk: an existing reservation's commission at the version read (stale → 409);
 * its payment dates are its payment flows' (not changed here).
 */
export async function importUpdateIn(
  tx: Executor,
  id: string,
  version: number,
  values: Partial<queries.CommissionValues>,
  actorId: string,
): Promise<void> {
  const { payment1Date: _p1, payment2Date: _p2, ...rest } = values;
  if (!(await queries.updateCommission(tx, id, version, rest, actorId))) throw new AppError('STALE_VERSION');
}

/** Commissions locked with their rows as they were (an import's update, for undo). */
export const lockSnapshotsIn = (tx: Executor, ids: readonly string[]) =>
  lockSnapshots(tx, brokerCommissionsTable, ids);

/** An import's undo: its commissions locked, its updates put back as a new version, its creations deleted. */
export const lockImportedIn = (tx: Executor, ids: readonly string[]) =>
  lockRows(tx, brokerCommissionsTable, ids);
export const restoreImportedIn = (
  tx: Executor,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  userId: string | null,
) => restoreSnapshots(tx, brokerCommissionsTable, rows, userId);
export const removeImportedIn = (tx: Executor, ids: readonly string[]) =>
  deleteByIds(tx, brokerCommissionsTable, ids);

/**
 * Inside the transaction that stores UF values: payments dated on those days while their value was
 * missing get their pesos now (once; a stored amount never changes with a later correction).
 */
export async function freezeMissingPesosIn(tx: Executor, dates: readonly string[], actorId: string | null) {
  if (dates.length === 0) return;
  const waiting = await queries.listPaymentsWithoutPesos(tx, dates);
  for (const row of waiting) {
    const payment = row.payment === 1 ? 1 : 2;
    const pesos = await frozenPesos(tx, row, payment, row.date);
    if (pesos.clp === null) continue;
    await queries.updateCommission(
      tx,
      row.id,
      null,
      payment === 1
        ? { payment1Clp: pesos.clp, payment1UfValue: pesos.ufValue }
        : { payment2Clp: pesos.clp, payment2UfValue: pesos.ufValue },
      actorId,
    );
  }
}

/**
 * 'Marcar En Riesgo' / 'Editar Riesgo' inside the caller's transaction, from a payment flow (with its
 * status) or the consolidated view: under the reservation's lock, as a rescission takes it, so the
 * two never interleave; refused by `riskRefusal` (one rule for both); on with its reason, or off with
 * the reason cleared; with the version the user read (stale → 409).
 */
export async function setRiskOfReservationIn(
  tx: Executor,
  reservationId: string,
  change: { version: number; atRisk: boolean; reason: string | null },
  actorId: string,
  flowStatus?: FlowStatus,
): Promise<{ atRisk: boolean; atRiskReason: string | null; version: number }> {
  const subject = await queries.lockRiskSubject(tx, reservationId);
  if (!subject) throw new AppError('RESERVATION_NOT_FOUND');
  const refusal = riskRefusal({
    hasCommission: subject.commissionId !== null,
    isRescinded: subject.isRescinded,
    flowStatus,
  });
  if (refusal) throw new AppError(refusal);
  const updated = await queries.updateCommission(
    tx,
    subject.commissionId!,
    change.version,
    { atRisk: change.atRisk, atRiskReason: change.atRisk ? change.reason : null },
    actorId,
  );
  if (!updated) throw new AppError('STALE_VERSION');
  return { atRisk: updated.atRisk, atRiskReason: updated.atRiskReason, version: updated.version };
}

/**
 * A rescission, inside its transaction (workflows.md §5): the at-risk flag and reason are cleared and,
 * when a penalty was chosen, its amount is recorded.
 */
export async function recordRescissionIn(
  tx: Executor,
  commissionId: string,
  penaltyAmount: string | null,
  actorId: string,
): Promise<void> {
  await queries.updateCommission(
    tx,
    commissionId,
    null,
    { atRisk: false, atRiskReason: null, ...(penaltyAmount === null ? {} : { penaltyAmount }) },
    actorId,
  );
}
