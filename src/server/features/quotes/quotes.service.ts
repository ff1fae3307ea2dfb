import type { z } from 'zod';
import { dec } from '../../../shared/domain/decimal';
import {
  paymentPlan,
  paymentPlanInClp,
  reservationPaymentsOf,
  splitInstallments,
} from '../../../shared/domain/payment-plan';
import { type UnitKind, unitName } from '../../../shared/domain/stock';
import { dayAfter } from '../../../shared/domain/uf';
import { formatDate, santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import type {
  createQuoteBody,
  QuoteListParams,
  QuoteListResponse,
  QuoteSettingsView,
  QuoteView,
  reserveQuoteBody,
  saveQuoteSettingsBody,
} from '../../../shared/schemas/quotes';
import type { ReadContext, ServiceContext } from '../../context';
import type { Database, Executor } from '../../db/client';
import { AppError } from '../../http/app-error';
import * as clients from '../clients/clients.service';
import * as reservations from '../reservations/reservations.service';
import * as stock from '../stock/stock.service';
import * as ufValues from '../uf-values/uf-values.service';
import * as users from '../users/users.service';
import * as queries from './quotes.queries';

/**
 * Cotizaciones (issue 59, decisions 0071 and 0072): a quote prices units of one project from the
 * list in force, within the project's commercial policy, with the payment plan of
 * `shared/domain/payment-plan.ts`, in UF and in pesos at today's UF; it holds no unit. 'Reservar'
 * turns it into a reservation through the reservations service, in one transaction.
 *
 * Who quoted is recorded as data (seller, and broker when a broker's user quotes): the service takes
 * them from its caller, so the broker portal (issue 58) can call `createIn` with its principal's
 * agency later without a second path.
 */

type CreateQuoteInput = z.output<typeof createQuoteBody>;

function addDays(date: string, days: number): string {
  let day = date;
  for (let i = 0; i < days; i += 1) day = dayAfter(day);
  return day;
}

async function settingsOf(db: Executor, projectId: string) {
  return (
    (await queries.findSettings(db, projectId)) ?? {
      validityDays: queries.DEFAULT_VALIDITY_DAYS,
      maxInstallments: queries.DEFAULT_MAX_INSTALLMENTS,
      version: null,
    }
  );
}

/** Who the quote is by: an office seller (default: the signed-in user), or a broker agency. */
export interface QuoteAuthor {
  sellerId: string | null;
  brokerId: string | null;
}

/**
 * Inside a transaction: prices and stores a quote. The units are checked by the stock service (of the
 * project, of their kind, not blocked, not held) and priced from the list in force today; the
 * discounts, reserva and subsidio must keep within the project's commercial policy (no override on a
 * quote: an administrator approves exceptions on the reservation); the cuotas within the project's
 * maximum; today's UF must be known.
 */
export async function createIn(
  tx: Executor,
  ctx: Pick<ServiceContext, 'now' | 'user'>,
  input: CreateQuoteInput,
  author: QuoteAuthor,
  copiedFromId: string | null = null,
): Promise<string> {
  const today = santiagoDateOf(ctx.now);
  const settings = await settingsOf(tx, input.projectId);
  if (input.installments > settings.maxInstallments) {
    throw new AppError('QUOTE_INSTALLMENTS_EXCEEDED', { params: { max: String(settings.maxInstallments) } });
  }
  const ufValue = await ufValues.valueOn(tx, today);
  if (!ufValue) throw new AppError('QUOTE_UF_MISSING', { params: { date: formatDate(today) } });
  const resolved = await stock.resolveUnitsIn(tx, ctx.now, input.projectId, {
    apartmentUnitId: input.apartmentUnitId,
    parkingUnitIds: input.parkingUnitIds,
    storageUnitIds: input.storageUnitIds,
  });
  if (!resolved) throw new AppError('APARTMENT_UNIT_REQUIRED');
  const prices = {
    apartmentPrice: resolved.apartmentPrice,
    parkingPrice: resolved.parkingPrice,
    storagePrice: resolved.storagePrice,
  };
  const { plan, refusal } = paymentPlan({ ...input, ...prices });
  if (!plan) throw new AppError(`QUOTE_${refusal}`);
  const breaches = await stock.policyBreachesIn(tx, input.projectId, {
    reservationPayment: plan.reservation,
    columnDiscount: input.columnDiscount,
    additionalDiscount: input.additionalDiscount,
    otherDiscount: input.otherDiscount,
    subsidyPayment: plan.subsidy,
    totalPrice: plan.listPrice,
  });
  if (breaches.length > 0)
    throw new AppError('QUOTE_POLICY_EXCEEDED', { params: { breaches: breaches.join('; ') } });
  const priceList = await stock.findCurrentPriceList(tx, input.projectId, today);
  const kinds: UnitKind[] = [
    'apartment',
    ...input.parkingUnitIds.map(() => 'parking' as const),
    ...input.storageUnitIds.map(() => 'storage' as const),
  ];
  const numbers = [
    resolved.apartmentNumber,
    ...(resolved.parkingNumber?.split(', ') ?? []),
    ...(resolved.storageNumber?.split(', ') ?? []),
  ];
  const units = resolved.held.map((held, index) => ({
    unitId: held.unitId,
    kind: kinds[index]!,
    number: numbers[index]!,
    price: held.price,
    priceListId: held.priceListId,
  }));
  return queries.insertQuote(
    tx,
    {
      projectId: input.projectId,
      sellerId: author.sellerId,
      brokerId: author.brokerId,
      prospectName: input.prospectName,
      prospectEmail: input.prospectEmail,
      prospectPhone: input.prospectPhone,
      prospectRut: input.prospectRut,
      quoteDate: today,
      validUntil: addDays(today, settings.validityDays),
      priceListId: priceList?.id ?? null,
      ufDate: today,
      ufValue,
      ...prices,
      columnDiscount: input.columnDiscount,
      additionalDiscount: input.additionalDiscount,
      otherDiscount: input.otherDiscount,
      listPrice: plan.listPrice,
      finalPrice: plan.finalPrice,
      reservationAmount: plan.reservation,
      downPaymentFraction: input.downPaymentFraction,
      downPayment: plan.downPayment,
      installments: input.installments,
      subsidyAmount: plan.subsidy,
      creditAmount: plan.credit,
      copiedFromId,
    },
    units,
    ctx.user.id,
  );
}

/** Staff: a quote by an office seller (the one chosen, or the signed-in user). */
export async function create(ctx: ServiceContext, input: CreateQuoteInput): Promise<QuoteView> {
  const id = await ctx.db.transaction(async (tx) => {
    if (!(await queries.projectExists(tx, input.projectId))) {
      throw new AppError('QUOTE_PROJECT_UNKNOWN');
    }
    if (input.sellerId && !(await users.isActiveSeller(tx, input.sellerId))) {
      throw new AppError('RESERVATION_SELLER_UNAVAILABLE');
    }
    return createIn(tx, ctx, input, { sellerId: input.sellerId ?? ctx.user.id, brokerId: null });
  });
  return get(ctx, id);
}

function presentQuote(row: queries.QuoteDetailRow): QuoteView {
  const balance = dec(row.downPayment).minus(dec(row.reservationAmount)).toFixed(2);
  const installments = splitInstallments(balance, row.installments);
  const clp = paymentPlanInClp(
    {
      listPrice: row.listPrice,
      finalPrice: row.finalPrice,
      discountAmount: '0',
      reservation: row.reservationAmount,
      downPayment: row.downPayment,
      downPaymentBalance: balance,
      installments,
      subsidy: row.subsidyAmount,
      credit: row.creditAmount,
    },
    row.ufValue,
  );
  const {
    projectLogoUrl: _logo,
    agencyName: _agency,
    agencyRut: _rut,
    sellerEmail: _email,
    units,
    ...rest
  } = row;
  return {
    ...rest,
    units: units.map(({ priceListId: _list, ...unit }) => unit),
    installments,
    clp,
  };
}

export async function detailOf(ctx: ReadContext & { now: Date }, id: string) {
  const row = await queries.findQuote(ctx.db, id, santiagoDateOf(ctx.now));
  if (!row) throw new AppError('QUOTE_NOT_FOUND');
  return row;
}

export async function get(ctx: ReadContext & { now: Date }, id: string): Promise<QuoteView> {
  return presentQuote(await detailOf(ctx, id));
}

export async function list(
  ctx: ReadContext & { now: Date },
  params: QuoteListParams,
): Promise<QuoteListResponse> {
  const { counts, rows } = await queries.listQuotes(ctx.db, params, santiagoDateOf(ctx.now));
  const total = params.state ? counts[params.state] : counts.vigente + counts.vencida + counts.reservada;
  return { rows, total, totalIsCapped: false, counts };
}

/** 'Duplicar' and 'Recotizar': the same prospect, units and terms, priced today as a new quote. */
export async function duplicate(ctx: ServiceContext, id: string): Promise<QuoteView> {
  const source = await detailOf(ctx, id);
  const apartment = source.units.find((unit) => unit.kind === 'apartment');
  const newId = await ctx.db.transaction((tx) =>
    createIn(
      tx,
      ctx,
      {
        projectId: source.projectId,
        sellerId: source.sellerId,
        prospectName: source.prospectName,
        prospectEmail: source.prospectEmail,
        prospectPhone: source.prospectPhone,
        prospectRut: source.prospectRut,
        apartmentUnitId: apartment!.unitId,
        parkingUnitIds: source.units.filter((unit) => unit.kind === 'parking').map((unit) => unit.unitId),
        storageUnitIds: source.units.filter((unit) => unit.kind === 'storage').map((unit) => unit.unitId),
        columnDiscount: source.columnDiscount,
        additionalDiscount: source.additionalDiscount,
        otherDiscount: source.otherDiscount,
        reservationAmount: source.reservationAmount,
        downPaymentFraction: source.downPaymentFraction,
        installments: source.installments,
        subsidyAmount: source.subsidyAmount,
      },
      { sellerId: source.sellerId, brokerId: source.brokerId },
      source.id,
    ),
  );
  return get(ctx, newId);
}

/**
 * 'Reservar' (one click): the quote becomes a reservation through the reservations service, with its
 * units, prices, discounts and plan; the prospect is the client of that RUT, or a new client made
 * through the clients service. Refused, changing nothing, when the quote expired, when a unit was
 * taken meanwhile, or when the price list of its units changed since it was made ('Recotizar').
 */
export async function reserve(
  ctx: ServiceContext,
  id: string,
  body: z.output<typeof reserveQuoteBody>,
): Promise<{ reservationId: string; quote: QuoteView }> {
  const today = santiagoDateOf(ctx.now);
  const reservationId = await ctx.db.transaction(async (tx) => {
    const locked = await queries.lockQuote(tx, id);
    if (!locked) throw new AppError('QUOTE_NOT_FOUND');
    const quote = (await queries.findQuote(tx, id, today))!;
    if (locked.reservationId) {
      throw new AppError('QUOTE_ALREADY_RESERVED', {
        params: { reservation: quote.reservationNumber ?? '' },
      });
    }
    if (locked.validUntil < today) {
      throw new AppError('QUOTE_EXPIRED', { params: { date: formatDate(locked.validUntil) } });
    }
    const unitIds = quote.units.map((unit) => unit.unitId);
    // Unit by unit (a quote names a few) so the message names the one taken meanwhile.
    for (const unit of quote.units) {
      try {
        await stock.refuseHeldIn(tx, [unit.unitId]);
      } catch (error) {
        if (error instanceof AppError && error.code === 'UNIT_HELD') {
          throw new AppError('QUOTE_UNIT_TAKEN', { params: { unit: unitName(unit) } });
        }
        throw error;
      }
    }
    const current = new Map((await stock.listPricesOn(tx, unitIds, today)).map((row) => [row.unitId, row]));
    const changed = quote.units.filter((unit) => {
      const now = current.get(unit.unitId);
      return !now?.price || !dec(now.price).eq(dec(unit.price)) || now.priceListId !== unit.priceListId;
    });
    if (changed.length > 0) {
      throw new AppError('QUOTE_PRICES_CHANGED', {
        params: { units: changed.map((unit) => unitName(unit)).join(', ') },
      });
    }
    const scoped = { ...ctx, db: tx as Database };
    const clientId = await clientFor(scoped, quote, body.client);
    const plan = paymentPlan({
      apartmentPrice: quote.apartmentPrice,
      parkingPrice: quote.parkingPrice,
      storagePrice: quote.storagePrice,
      columnDiscount: quote.columnDiscount,
      additionalDiscount: quote.additionalDiscount,
      otherDiscount: quote.otherDiscount,
      reservationAmount: quote.reservationAmount,
      downPaymentFraction: quote.downPaymentFraction,
      installments: quote.installments,
      subsidyAmount: quote.subsidyAmount,
    }).plan!;
    // Staff who are not sellers (an administrator, a KAM) may quote; the reservation then has no
    // seller, as the reservation form allows, rather than being refused for it.
    const sellerId =
      quote.sellerId && (await users.isActiveSeller(tx, quote.sellerId)) ? quote.sellerId : null;
    const reservation = await reservations.create(scoped, {
      reservationNumber: body.reservationNumber,
      clientId,
      projectId: quote.projectId,
      sellerId,
      reservationDate: body.reservationDate ?? today,
      apartmentNumber: quote.units.find((unit) => unit.kind === 'apartment')!.number,
      parkingNumber: null,
      storageNumber: null,
      apartmentPrice: quote.apartmentPrice,
      parkingPrice: quote.parkingPrice,
      storagePrice: quote.storagePrice,
      columnDiscount: quote.columnDiscount,
      additionalDiscount: quote.additionalDiscount,
      otherDiscount: quote.otherDiscount,
      ...reservationPaymentsOf(plan),
      isWithBroker: false,
      brokerId: null,
      apartmentUnitId: quote.units.find((unit) => unit.kind === 'apartment')!.unitId,
      parkingUnitIds: quote.units.filter((unit) => unit.kind === 'parking').map((unit) => unit.unitId),
      storageUnitIds: quote.units.filter((unit) => unit.kind === 'storage').map((unit) => unit.unitId),
      policyOverrideReason: null,
    } as Parameters<typeof reservations.create>[1]);
    await queries.updateReserved(tx, id, reservation.id, ctx.now, ctx.user.id);
    return reservation.id;
  });
  return { reservationId, quote: await get(ctx, id) };
}

/** The prospect's client: the live client of the RUT given (or the quote's), else a new one. */
async function clientFor(
  ctx: ServiceContext,
  quote: queries.QuoteDetailRow,
  given: z.output<typeof reserveQuoteBody>['client'],
): Promise<string> {
  const rut = given?.rut ?? quote.prospectRut;
  if (rut) {
    const found = await clients.list(ctx, {
      page: 1,
      pageSize: 1,
      search: rut,
      sort: 'createdAt',
      direction: 'desc',
    });
    const match = found.rows.find((row) => row.rut === rut);
    if (match) return match.id;
  }
  if (!given) throw new AppError('QUOTE_CLIENT_REQUIRED');
  return (await clients.create(ctx, given)).id;
}

// --- Per-project settings ------------------------------------------------------------------------

export async function settings(ctx: ReadContext, projectId: string): Promise<QuoteSettingsView> {
  const found = await settingsOf(ctx.db, projectId);
  return {
    projectId,
    validityDays: found.validityDays,
    maxInstallments: found.maxInstallments,
    version: found.version,
  };
}

export async function saveSettings(
  ctx: ServiceContext,
  projectId: string,
  { version, ...values }: z.output<typeof saveQuoteSettingsBody>,
): Promise<QuoteSettingsView> {
  if (!can(ctx.user, 'quotes.configure')) throw new AppError('FORBIDDEN');
  await ctx.db.transaction(async (tx) => {
    if (!(await queries.projectExists(tx, projectId))) throw new AppError('QUOTE_PROJECT_UNKNOWN');
    const saved =
      version === undefined
        ? await queries.insertSettings(tx, projectId, values, ctx.user.id)
        : await queries.updateSettings(tx, projectId, version, values, ctx.user.id);
    if (!saved) throw new AppError('STALE_VERSION');
  });
  return settings(ctx, projectId);
}

/**
 * Suppression of a holder's data (Ley 21.719; issue 59), in the suppression's transaction: the quotes
 * that became their reservations, or whose prospect is them by RUT or e-mail (now or before), lose
 * the prospect's name, e-mail, phone and RUT. The quoted figures stay. Returns their ids (the audit
 * trail's roots the suppression redacts too).
 */
export function redactHolderProspectsIn(
  tx: Executor,
  holder: { reservationIds: readonly string[]; ruts: readonly string[]; emails: readonly string[] },
  userId: string | null,
): Promise<string[]> {
  return queries.updateProspectRedacted(tx, holder, userId);
}
