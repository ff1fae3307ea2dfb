import { and, eq, isNull, sql } from 'drizzle-orm';
import { dec, money } from '../../../../shared/domain/decimal';
import { foldText } from '../../../../shared/domain/import-cells';
import {
  commissionFigures,
  RESERVATION_FIGURE_FIELDS,
  reservationFigures,
} from '../../../../shared/domain/pricing';
import {
  type CommercialPolicy,
  policyBreaches,
  type UnitKind,
  unitKindNouns,
  unitName,
} from '../../../../shared/domain/stock';
import {
  FIRST_PAYMENT_WORKFLOW,
  SALE_WORKFLOW,
  SECOND_PAYMENT_WORKFLOW,
} from '../../../../shared/domain/workflow/names';
import { errorMessage } from '../../../../shared/errors';
import { formatUF, santiagoDateOf, santiagoInstant } from '../../../../shared/format';
import { IMPORT_FIELDS, IMPORT_STAGES, type ImportStage } from '../../../../shared/schemas/imports';
import { createReservationBody, STORED_RESERVATION_FIELDS } from '../../../../shared/schemas/reservations';
import { textArrayParam, uuidArrayParam } from '../../../db/arrays';
import type { Executor } from '../../../db/client';
import { queryRows } from '../../../db/client';
import { newRowId } from '../../../db/ids';
import { brokerCommissions, brokers, clients, profiles, projects, reservations } from '../../../db/schema';
import * as brokerInvoices from '../../broker-invoices/broker-invoices.service';
import type * as commissionsService from '../../commissions/commissions.service';
import * as reservationsService from '../../reservations/reservations.service';
import * as stock from '../../stock/stock.service';
import * as workflows from '../../workflows/workflows.service';
import {
  type ApplyContext,
  allSame,
  type ChangedRecord,
  fieldError,
  insertedRecord,
  type KindModule,
  type PlannedRow,
  type ReadRow,
  sameValue,
  schemaErrors,
} from './kind';

/**
 * Reservas by number, with their broker commission and, for a new reservation, where its sale is:
 * the stage reached (or the promise and deed dates that imply it) and the commission's payment dates.
 * References resolved: client and broker by RUT, project by name, seller by e-mail or name. The
 * reservation and commission figures are computed by the same domain functions as the forms'.
 */

const FIELDS = IMPORT_FIELDS.reservations;

/** The reservation columns an import writes (figures computed), compared for 'sin cambios'. */
const RESERVATION_COLUMNS = [
  ...STORED_RESERVATION_FIELDS,
  'brokerId',
  ...RESERVATION_FIGURE_FIELDS,
  'promiseDate',
  'deedDate',
  'policyOverrideReason',
] as const;

/** The terms compared for 'sin cambios' before the policy is judged (the reason follows them). */
const TERM_COLUMNS = RESERVATION_COLUMNS.filter((column) => column !== 'policyOverrideReason');

const COMMISSION_COLUMNS = [
  'commissionAmount',
  'commissionIncludesTax',
  'commissionForDiscount',
  'paysSecondary',
  'numberOfPayments',
  'firstPaymentPercentage',
  'purchaseOrder',
  'invoice1',
  'invoice1Date',
  'payment1Date',
  'invoice2',
  'invoice2Date',
  'payment2Date',
  'netCommission',
  'difference',
] as const;

type ReservationColumns = Record<(typeof RESERVATION_COLUMNS)[number], unknown>;
type CommissionColumns = Record<(typeof COMMISSION_COLUMNS)[number], unknown> & { brokerId: string };

interface ReservationPlan {
  id: string | null;
  version: number | null;
  commissionId: string | null;
  commissionVersion: number | null;
  reservation: ReservationColumns;
  commission: CommissionColumns | null;
  /** New reservations: where the sale is. */
  stage: ImportStage;
  /** New reservations of a project with an inventory: the units they hold, at the file's prices. */
  units: { unitId: string; price: string }[];
}

/** Schema paths to the columns a user sees (the form's ids are the file's RUTs and names). */
function columnOf(path: string): string {
  if (path === 'clientId') return 'clientRut';
  if (path === 'projectId') return 'projectName';
  if (path === 'sellerId') return 'seller';
  if (path === 'brokerId') return 'brokerRut';
  if (path.startsWith('commission.')) return path.slice('commission.'.length);
  return path;
}

const stageIndex = (stage: ImportStage) => IMPORT_STAGES.indexOf(stage);

/** The stage a row says, or the one its dates imply: a deed signed is Reparos, a promise Escrituración. */
function stageOf(values: Record<string, unknown>): ImportStage {
  if (typeof values.stage === 'string') return values.stage as ImportStage;
  if (values.deedDate) return 'Reparos';
  if (values.promiseDate) return 'Escrituración';
  return 'Reserva';
}

/** Noon in Santiago of an imported day: the instant its completions carry. */
const noonOf = (day: string) => santiagoInstant(day, '12:00')!;

interface Lookups {
  clientIds: Map<string, string>;
  /** The clients whose processing is blocked (Ley 21.719): no new sale for them (decision 0027). */
  blockedClients: Set<string>;
  brokerIds: Map<string, string>;
  projectIds: Map<string, string[]>;
  sellers: { id: string; email: string; name: string }[];
  existing: Map<string, ExistingReservation>;
  unitHolders: Map<string, string>;
  /** The units of the batch's projects that have an inventory, by project + kind + number. */
  inventory: Map<string, stock.UnitWithHolder>;
  projectsWithInventory: Set<string>;
  policies: Map<string, CommercialPolicy>;
}

interface ExistingReservation {
  row: Record<string, unknown> & { id: string; version: number; isRescinded: boolean };
  commission: (Record<string, unknown> & { id: string; version: number; brokerId: string }) | null;
  hasPaymentFlow: [boolean, boolean];
  saleStage: string | null;
  /** The units it holds (none: typed before its project had an inventory, or without one). */
  held: { unitId: string; kind: UnitKind; price: string }[];
}

const unitKey = (projectId: string, kind: string, number: string) =>
  `${projectId}|${kind}|${number.toLowerCase()}`;

/** The projects and active sellers: read once per dry run or apply (`memo`), not per batch. */
interface ReferenceRows {
  projectRows: { id: string; name: string }[];
  sellerRows: { id: string; email: string; firstName: string; lastName: string }[];
}

async function referenceRows(db: Executor, memo: Record<string, unknown>): Promise<ReferenceRows> {
  if (memo.references) return memo.references as ReferenceRows;
  const [projectRows, sellerRows] = await Promise.all([
    db.select({ id: projects.id, name: projects.name }).from(projects),
    db
      .select({
        id: profiles.id,
        email: profiles.email,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
      })
      .from(profiles)
      .where(and(eq(profiles.isSeller, true), eq(profiles.isActive, true))),
  ]);
  memo.references = { projectRows, sellerRows };
  return memo.references as ReferenceRows;
}

interface ProjectStock {
  withInventory: Set<string>;
  policies: Map<string, CommercialPolicy>;
  read: Set<string>;
}

/**
 * Which of the projects have an inventory, and their commercial policies: read once per project per
 * dry run or apply (`memo`), like the projects and sellers — an import is an administrator's, who
 * would not change a project's policy or add its first units while importing its reservations.
 */
async function projectStock(
  db: Executor,
  projectIds: readonly string[],
  memo: Record<string, unknown>,
): Promise<ProjectStock> {
  memo.projectStock ??= { withInventory: new Set(), policies: new Map(), read: new Set() };
  const known = memo.projectStock as ProjectStock;
  const unread = projectIds.filter((id) => !known.read.has(id));
  if (unread.length > 0) {
    const [withInventory, policies] = await Promise.all([
      stock.listProjectsWithInventory(db, unread),
      stock.policiesOf(db, unread),
    ]);
    for (const id of withInventory) known.withInventory.add(id);
    for (const [id, policy] of policies) known.policies.set(id, policy);
    for (const id of unread) known.read.add(id);
  }
  return known;
}

async function lookups(
  db: Executor,
  rows: readonly ReadRow[],
  memo: Record<string, unknown>,
): Promise<Lookups> {
  const strings = (key: string) => [
    ...new Set(
      rows.map((row) => row.values[key]).filter((value): value is string => typeof value === 'string'),
    ),
  ];
  const clientRuts = strings('clientRut');
  const brokerRuts = strings('brokerRut');
  const numbers = strings('reservationNumber');
  const { projectRows, sellerRows } = await referenceRows(db, memo);
  const [clientRows, brokerRows, existingRows] = await Promise.all([
    clientRuts.length === 0
      ? []
      : db
          .select({ id: clients.id, rut: clients.rut, restriction: clients.restriction })
          .from(clients)
          .where(and(sql`${clients.rut} = any(${textArrayParam(clientRuts)})`, isNull(clients.deletedAt))),
    brokerRuts.length === 0
      ? []
      : db
          .select({ id: brokers.id, rut: brokers.rut })
          .from(brokers)
          .where(sql`${brokers.rut} = any(${textArrayParam(brokerRuts)})`),
    numbers.length === 0
      ? []
      : db
          .select()
          .from(reservations)
          .where(sql`${reservations.reservationNumber} = any(${textArrayParam(numbers)})`),
  ]);
  const existingIds = existingRows.map((row) => row.id);
  const [commissionRows, flowRows, heldRows] = await Promise.all([
    existingIds.length === 0
      ? []
      : db
          .select()
          .from(brokerCommissions)
          .where(sql`${brokerCommissions.reservationId} = any(${uuidArrayParam(existingIds)})`),
    existingIds.length === 0
      ? []
      : queryRows<{
          reservation_id: string;
          kind: string;
          is_second_payment: boolean;
          stage: string | null;
          status: string;
        }>(
          db,
          sql`select f.reservation_id, f.kind, f.is_second_payment, s.name as stage, f.status
              from flows f left join workflow_stages s on s.id = f.current_stage_id
              where f.reservation_id = any(${uuidArrayParam(existingIds)})`,
        ),
    stock.listHeldUnits(db, existingIds),
  ]);
  const existing = new Map<string, ExistingReservation>();
  for (const row of existingRows) {
    const commission = commissionRows.find((candidate) => candidate.reservationId === row.id) ?? null;
    const flows = flowRows.filter((flow) => flow.reservation_id === row.id);
    const sale = flows.find((flow) => flow.kind === 'sale');
    existing.set(row.reservationNumber, {
      row: row as unknown as ExistingReservation['row'],
      commission: commission as unknown as ExistingReservation['commission'],
      hasPaymentFlow: [
        flows.some((flow) => flow.kind === 'payment' && !flow.is_second_payment),
        flows.some((flow) => flow.kind === 'payment' && flow.is_second_payment),
      ],
      saleStage: sale ? (sale.status === 'completed' ? 'Completada' : sale.stage) : null,
      held: heldRows.filter((held) => held.reservationId === row.id),
    });
  }
  const projectIds = new Map<string, string[]>();
  for (const project of projectRows) {
    const key = foldText(project.name);
    projectIds.set(key, [...(projectIds.get(key) ?? []), project.id]);
  }
  // Live reservations holding the units the batch names, in the batch's projects (one query, off the
  // live-unit keys: a scan of every reservation per chunk made a large import quadratic).
  const apartments = strings('apartmentNumber').map((n) => n.toLowerCase());
  const others = [...strings('parkingNumber'), ...strings('storageNumber')].map((n) => n.toLowerCase());
  const batchProjects = [
    ...new Set(strings('projectName').flatMap((name) => projectIds.get(foldText(name)) ?? [])),
  ];
  const inBatchProjects = sql`project_id = any(${uuidArrayParam(batchProjects)})`;
  const held =
    apartments.length + others.length === 0 || batchProjects.length === 0
      ? []
      : await queryRows<{ project_id: string; kind: string; number: string; reservation_number: string }>(
          db,
          sql`select project_id, 'apartment' as kind, lower(apartment_number) as number, reservation_number from reservations
                where not is_rescinded and ${inBatchProjects} and lower(apartment_number) = any(${textArrayParam(apartments)})
              union all
              select project_id, 'parking', lower(parking_number), reservation_number from reservations
                where not is_rescinded and parking_number is not null and ${inBatchProjects}
                  and lower(parking_number) = any(${textArrayParam(others)})
              union all
              select project_id, 'storage', lower(storage_number), reservation_number from reservations
                where not is_rescinded and storage_number is not null and ${inBatchProjects}
                  and lower(storage_number) = any(${textArrayParam(others)})`,
        );
  const { withInventory, policies } = await projectStock(db, batchProjects, memo);
  const inventoried = batchProjects.filter((id) => withInventory.has(id));
  const inventoryRows =
    inventoried.length === 0
      ? []
      : await stock.listUnitsWithHolders(db, inventoried, [...apartments, ...others]);
  return {
    inventory: new Map(inventoryRows.map((unit) => [unitKey(unit.projectId, unit.kind, unit.number), unit])),
    projectsWithInventory: withInventory,
    policies,
    clientIds: new Map(clientRows.map((row) => [row.rut, row.id])),
    blockedClients: new Set(clientRows.filter((row) => row.restriction === 'blocking').map((row) => row.id)),
    brokerIds: new Map(brokerRows.map((row) => [row.rut, row.id])),
    projectIds,
    sellers: sellerRows.map((row) => ({
      id: row.id,
      email: row.email.toLowerCase(),
      name: foldText(`${row.firstName} ${row.lastName}`),
    })),
    existing,
    unitHolders: new Map(
      held.map((row) => [unitKey(row.project_id, row.kind, row.number), row.reservation_number]),
    ),
  };
}

/** One row planned: references, the form's schema, the in-flight dates, the comparison. */
function planRow(row: ReadRow, found: Lookups, today: string): PlannedRow<ReservationPlan> {
  const error = (errors: PlannedRow['errors']): PlannedRow<ReservationPlan> => ({
    rowNumber: row.rowNumber,
    action: 'error',
    errors,
  });
  if (row.errors.length > 0) return error(row.errors);
  const v = row.values;
  const errors: PlannedRow['errors'] = [];
  const say = (key: string, reason: string) => errors.push(fieldError(row, FIELDS, key, reason));

  const clientId = typeof v.clientRut === 'string' ? found.clientIds.get(v.clientRut) : undefined;
  if (typeof v.clientRut === 'string' && !clientId)
    say('clientRut', 'No hay un cliente con este RUT: impórtelo primero en Clientes');
  let projectId: string | undefined;
  if (typeof v.projectName === 'string') {
    const candidates = found.projectIds.get(foldText(v.projectName)) ?? [];
    if (candidates.length === 0) say('projectName', 'No hay un proyecto con este nombre');
    else if (candidates.length > 1) say('projectName', 'Hay más de un proyecto con este nombre');
    else projectId = candidates[0];
  }
  let sellerId: string | null = null;
  if (typeof v.seller === 'string' && v.seller !== '') {
    const wanted = v.seller.toLowerCase();
    const matches = found.sellers.filter(
      (seller) => seller.email === wanted || seller.name === foldText(v.seller as string),
    );
    if (matches.length === 1) sellerId = matches[0]!.id;
    else
      say(
        'seller',
        matches.length === 0
          ? 'No hay un vendedor activo con este correo o nombre'
          : 'Hay más de un vendedor con este nombre: use su correo',
      );
  }
  const brokerId = typeof v.brokerRut === 'string' ? found.brokerIds.get(v.brokerRut) : undefined;
  if (typeof v.brokerRut === 'string' && !brokerId)
    say('brokerRut', 'No hay un broker con este RUT: impórtelo primero en Brokers');
  if (errors.length > 0) return error(errors);

  const isWithBroker = brokerId !== undefined;
  const numberOfPayments = v.numberOfPayments === undefined ? 1 : Number(v.numberOfPayments);
  const body = {
    reservationNumber: v.reservationNumber,
    clientId,
    projectId,
    sellerId,
    reservationDate: v.reservationDate,
    apartmentNumber: v.apartmentNumber,
    parkingNumber: v.parkingNumber ?? null,
    storageNumber: v.storageNumber ?? null,
    apartmentPrice: v.apartmentPrice,
    parkingPrice: v.parkingPrice,
    storagePrice: v.storagePrice,
    columnDiscount: v.columnDiscount ?? '0',
    additionalDiscount: v.additionalDiscount ?? '0',
    otherDiscount: v.otherDiscount ?? '0',
    reservationPayment: v.reservationPayment,
    promisePayment: v.promisePayment,
    downPayment: v.downPayment,
    creditPayment: v.creditPayment,
    subsidyPayment: v.subsidyPayment,
    isWithBroker,
    brokerId: brokerId ?? null,
    policyOverrideReason: v.policyOverrideReason ?? null,
    commission: isWithBroker
      ? {
          commissionAmount: v.commissionAmount,
          commissionIncludesTax: v.commissionIncludesTax ?? true,
          commissionForDiscount: v.commissionForDiscount ?? true,
          paysSecondary: v.paysSecondary ?? false,
          numberOfPayments,
          firstPaymentPercentage:
            v.firstPaymentPercentage === undefined
              ? numberOfPayments === 1
                ? 100
                : undefined
              : Number(v.firstPaymentPercentage),
          purchaseOrder: v.purchaseOrder ?? null,
          invoice1: v.invoice1 ?? null,
          invoice1Date: v.invoice1Date ?? null,
          payment1Date: v.payment1Date ?? null,
          invoice2: v.invoice2 ?? null,
          invoice2Date: v.invoice2Date ?? null,
          payment2Date: v.payment2Date ?? null,
        }
      : undefined,
  };
  const parsed = createReservationBody.safeParse(body);
  if (!parsed.success) {
    const issues = schemaErrors(row, FIELDS, parsed.error, columnOf);
    // A commission without a broker: name the columns that need one.
    return error(issues.length > 0 ? issues : [fieldError(row, FIELDS, 'brokerRut', 'Revise la comisión')]);
  }
  const input = parsed.data;
  if (!isWithBroker) {
    for (const key of ['commissionAmount', 'payment1Date', 'payment2Date'] as const) {
      if (v[key] !== undefined) say(key, 'Una reserva sin broker no tiene comisión: indique el RUT Broker');
    }
  }

  // Where the sale is: dates in order, none in the future, the stage consistent with them.
  const reservationDate = input.reservationDate;
  const promiseDate = (v.promiseDate as string | undefined) ?? null;
  const deedDate = (v.deedDate as string | undefined) ?? null;
  const payment1Date = input.commission?.payment1Date ?? null;
  const payment2Date = input.commission?.payment2Date ?? null;
  const stage = stageOf(v);
  if (promiseDate && promiseDate < reservationDate)
    say('promiseDate', 'La fecha de promesa no puede ser anterior a la fecha de reserva');
  if (deedDate && deedDate < (promiseDate ?? reservationDate))
    say('deedDate', 'La fecha de escritura no puede ser anterior a la fecha de promesa ni a la de reserva');
  if (stageIndex(stage) >= stageIndex('Escrituración') && !promiseDate)
    say('promiseDate', `Con la etapa ${stage}, indique la fecha de promesa`);
  if (stageIndex(stage) >= stageIndex('Reparos') && !deedDate)
    say('deedDate', `Con la etapa ${stage}, indique la fecha de escritura`);
  for (const [key, day] of [
    ['reservationDate', reservationDate],
    ['promiseDate', stageIndex(stage) >= stageIndex('Escrituración') ? promiseDate : null],
    ['deedDate', stageIndex(stage) >= stageIndex('Reparos') ? deedDate : null],
    ['payment1Date', payment1Date],
    ['payment2Date', payment2Date],
  ] as const) {
    if (day && day > today) say(key, 'La fecha no puede ser posterior a hoy');
  }
  if (payment1Date && payment1Date < reservationDate)
    say('payment1Date', 'El pago 1 no puede ser anterior a la fecha de reserva');
  if (payment2Date && !payment1Date) say('payment2Date', 'Indique primero la fecha del pago 1');
  if (payment2Date && numberOfPayments !== 2)
    say('payment2Date', 'Solo una comisión en dos pagos tiene pago 2');
  if (payment2Date && payment1Date && payment2Date < payment1Date)
    say('payment2Date', 'El pago 2 no puede ser anterior al pago 1');

  const figures = reservationFigures(input);
  const reservation: ReservationColumns = {
    ...Object.fromEntries(
      RESERVATION_COLUMNS.map((key) => [key, (input as Record<string, unknown>)[key] ?? null]),
    ),
    brokerId: brokerId ?? null,
    ...figures,
    promiseDate,
    deedDate,
    policyOverrideReason: null,
  } as ReservationColumns;
  let commission: CommissionColumns | null = null;
  if (input.commission && brokerId) {
    const { netCommission, difference } = commissionFigures(input.commission, { ...input, ...figures });
    commission = {
      ...Object.fromEntries(
        COMMISSION_COLUMNS.map((key) => [key, (input.commission as Record<string, unknown>)[key] ?? null]),
      ),
      netCommission,
      difference,
      brokerId,
    } as CommissionColumns;
  }

  const current = found.existing.get(input.reservationNumber);
  // A blocked holder gets no new sale, as the form answers (CLIENT_BLOCKED): a new reservation, or an
  // existing one moved to them.
  if (clientId && found.blockedClients.has(clientId) && current?.row.clientId !== clientId)
    say('clientRut', errorMessage('CLIENT_BLOCKED'));
  // No unit sold twice: by another live reservation (its text or, with an inventory, its units), or by
  // another row of this file (the pipeline refuses both rows of a claim).
  const claims: NonNullable<PlannedRow['claims']> = [];
  // A project with an inventory: the numbers name its units, held as the form holds them. An existing
  // reservation typed before the inventory (holding none) keeps its free text, as on its form.
  const withUnits =
    projectId !== undefined &&
    found.projectsWithInventory.has(projectId) &&
    !(current && current.held.length === 0);
  const units: ReservationPlan['units'] = [];
  for (const [kind, key, priceKey] of [
    ['apartment', 'apartmentNumber', 'apartmentPrice'],
    ['parking', 'parkingNumber', 'parkingPrice'],
    ['storage', 'storageNumber', 'storagePrice'],
  ] as const) {
    const number = input[key];
    if (!number || !projectId) continue;
    const claimed = unitKey(projectId, kind, number);
    claims.push({ key: claimed, column: fieldLabel(key), value: row.texts[key] ?? number });
    // A live reservation whose text names the number (typed before the inventory, or without one).
    const holder = found.unitHolders.get(claimed);
    const textHeld = holder !== undefined && holder !== input.reservationNumber;
    if (!withUnits) {
      if (textHeld) say(key, `Ya está vendido en la reserva ${holder}`);
      continue;
    }
    const unit = found.inventory.get(claimed);
    const name = unitName({ kind, number });
    if (!unit) {
      say(
        key,
        `El proyecto no tiene ${unitKindNouns[kind]} ${number}: impórtelo primero en Unidades y precios`,
      );
      continue;
    }
    if (unit.holderNumber && unit.holderNumber !== input.reservationNumber)
      say(key, errorMessage('UNIT_HELD', { unit: unitName(unit), reservation: unit.holderNumber }));
    else if (textHeld) say(key, `Ya está vendido en la reserva ${holder}`);
    else if (unit.blockedReason && !unit.holderNumber)
      say(key, errorMessage('UNIT_BLOCKED', { unit: name, reason: unit.blockedReason }));
    units.push({
      unitId: unit.id,
      price: money(dec(String((input as Record<string, unknown>)[priceKey] ?? '0'))),
    });
  }
  if (current && withUnits) {
    // Its units and their prices are changed on its form (the form keeps the price each was reserved at).
    const held = new Set(current.held.map((unit) => unit.unitId));
    const sameUnits = units.length === held.size && units.every((unit) => held.has(unit.unitId));
    if (!sameUnits) say('apartmentNumber', 'Las unidades de una reserva existente se cambian en su ficha');
    else {
      for (const [kind, priceKey] of [
        ['apartment', 'apartmentPrice'],
        ['parking', 'parkingPrice'],
        ['storage', 'storagePrice'],
      ] as const) {
        const reserved = current.held
          .filter((unit) => unit.kind === kind)
          .reduce((total, unit) => total.plus(dec(unit.price)), dec(0));
        if (!reserved.eq(dec(String((input as Record<string, unknown>)[priceKey] ?? '0'))))
          say(
            priceKey,
            `La reserva tiene sus unidades a ${formatUF(money(reserved))}: los precios de sus unidades se cambian en su ficha`,
          );
      }
    }
  }

  if (current) {
    // An existing reservation: its fields and commission follow the file; its flows are moved on their
    // screens, so the file must agree with where its sale and payments are.
    if (current.row.isRescinded) say('reservationNumber', 'La reserva está resciliada y no se modifica');
    if ((current.commission?.brokerId ?? null) !== (brokerId ?? null))
      say('brokerRut', 'El broker de una reserva existente se cambia en su ficha');
    if (typeof v.stage === 'string' && current.saleStage !== v.stage)
      say(
        'stage',
        `La reserva está en la etapa ${current.saleStage ?? 'sin flujo'}: la etapa se cambia en Flujo Reservas`,
      );
    if (current.commission && commission) {
      for (const [index, key] of [
        [0, 'payment1Date'],
        [1, 'payment2Date'],
      ] as const) {
        if ((current.commission[key] ?? null) !== (commission[key] ?? null)) {
          say(
            key,
            current.hasPaymentFlow[index]
              ? 'La fecha de pago la registra su flujo de pago'
              : 'Los pagos de una reserva existente se registran en Pagos',
          );
        }
      }
    }
  }
  if (errors.length > 0) return { ...error(errors), claims };

  // The project's commercial policy, as the form's: beyond it, refused unless the row gives the
  // administrator's reason (imports are administrators'), which the reservation keeps (audited).
  const policy = projectId ? found.policies.get(projectId) : undefined;
  const breaches = policy ? policyBreaches(policy, { ...input, totalPrice: figures.totalPrice }) : [];
  const givenReason = input.policyOverrideReason ?? null;
  const currentReason = (current?.row.policyOverrideReason as string | null | undefined) ?? null;
  const sameTerms =
    current !== undefined &&
    allSame(reservation, current.row, TERM_COLUMNS) &&
    (commission === null || allSame(commission, current.commission ?? {}, COMMISSION_COLUMNS));
  if (breaches.length > 0) {
    // An overridden reservation whose terms stay keeps its reason (as an edit on its form does).
    const reason = givenReason ?? (sameTerms && current?.row.projectId === projectId ? currentReason : null);
    if (!reason)
      return {
        ...error([
          fieldError(
            row,
            FIELDS,
            'policyOverrideReason',
            errorMessage('POLICY_EXCEEDED', { breaches: breaches.join('; ') }),
          ),
        ]),
        claims,
      };
    reservation.policyOverrideReason = reason;
  }

  if (current) {
    if (sameTerms && sameValue(reservation.policyOverrideReason, currentReason))
      return { rowNumber: row.rowNumber, action: 'unchanged', errors: [], claims };
    return {
      rowNumber: row.rowNumber,
      action: 'update',
      errors: [],
      claims,
      plan: {
        id: current.row.id,
        version: current.row.version,
        commissionId: current.commission?.id ?? null,
        commissionVersion: current.commission?.version ?? null,
        reservation,
        commission,
        stage,
        units: [],
      },
    };
  }
  return {
    rowNumber: row.rowNumber,
    action: 'create',
    errors: [],
    claims,
    plan: {
      id: null,
      version: null,
      commissionId: null,
      commissionVersion: null,
      reservation,
      commission,
      stage,
      units,
    },
  };
}

/** The sale flow's completions for a stage reached: each stage's tasks done when the next began. */
function saleCompletions(
  definition: Awaited<ReturnType<typeof workflows.definitionNamed>>,
  plan: ReservationPlan,
): { taskId: string; at: Date }[] {
  const reached = stageIndex(plan.stage);
  const r = plan.reservation;
  // When each stage of the definition ended (by name): Reserva on the reservation's day, Promesa on the
  // promise's, Escrituración and Reparos on the deed's.
  const endOf: Record<string, string | null> = {
    Reserva: r.reservationDate as string,
    Promesa: (r.promiseDate as string | null) ?? null,
    Escrituración: (r.deedDate as string | null) ?? null,
    Reparos: (r.deedDate as string | null) ?? null,
  };
  const completions: { taskId: string; at: Date }[] = [];
  for (const stage of definition.stages) {
    const index = IMPORT_STAGES.indexOf(stage.name as ImportStage);
    if (index < 0 || index >= reached) continue;
    const day = endOf[stage.name];
    if (!day) continue;
    // Once per stage: the time zone's arithmetic (Intl), per task, was ~5 % of a reservations apply.
    const noon = noonOf(day).getTime();
    for (const task of definition.tasks.filter((candidate) => candidate.stageId === stage.id)) {
      completions.push({ taskId: task.id, at: new Date(noon) });
    }
  }
  return completions;
}

const fieldLabel = (key: string) => FIELDS.find((field) => field.key === key)?.label ?? key;

/**
 * The new reservations hold their units through the stock service, as the form's path does (one live
 * reservation per unit, by the database): each at the file's price, the list in force on the
 * reservation's day named when its price is that list's.
 */
async function holdUnits(tx: Executor, plans: readonly ReservationPlan[], ctx: ApplyContext) {
  const holding = plans.filter((plan) => plan.units.length > 0);
  const byDay = new Map<string, string[]>();
  for (const plan of holding) {
    const day = plan.reservation.reservationDate as string;
    byDay.set(day, [...(byDay.get(day) ?? []), ...plan.units.map((unit) => unit.unitId)]);
  }
  const listed = new Map<string, { price: string | null; priceListId: string | null }>();
  for (const [day, unitIds] of byDay) {
    for (const price of await stock.listPricesOn(tx, unitIds, day))
      listed.set(`${day}|${price.unitId}`, price);
  }
  for (const plan of holding) {
    const day = plan.reservation.reservationDate as string;
    const unitIds = plan.units.map((unit) => unit.unitId);
    await stock.refuseHeldIn(tx, unitIds, plan.id!);
    await stock.holdUnitsIn(
      tx,
      plan.id!,
      plan.units.map((unit) => {
        const list = listed.get(`${day}|${unit.unitId}`);
        const fromList = list?.price != null && dec(list.price).eq(dec(unit.price));
        return { unitId: unit.unitId, price: unit.price, priceListId: fromList ? list!.priceListId : null };
      }),
    );
    ctx.stockChanged.add(plan.reservation.projectId as string);
  }
}

export const reservationsKind: KindModule<ReservationPlan> = {
  kind: 'reservations',
  fields: FIELDS,
  keyField: 'reservationNumber',
  chunkSize: { embedded: 10, postgres: 50 },

  async planBatch(db, rows, now, memo) {
    const found = await lookups(db, rows, memo);
    const today = santiagoDateOf(now);
    return rows.map((row) => planRow(row, found, today));
  },

  async applyBatch(tx, rows, ctx) {
    const records: ChangedRecord[] = [];
    const creates = rows.filter((row) => row.action === 'create' && row.plan);
    if (creates.length > 0) {
      // Ids made here: the rows are written set-based (`insertRowsAsJson`), which answers nothing.
      for (const row of creates) row.plan!.id = newRowId();
      const withCommission = creates.filter((row) => row.plan!.commission);
      for (const row of withCommission) row.plan!.commissionId = newRowId();
      // Written by their owners (decision 0056): the reservations feature refuses a blocked client's
      // reservation; the commissions feature freezes the pesos of the payments imported as paid.
      await reservationsService.importIn(
        tx,
        creates.map((row) => ({
          id: row.plan!.id!,
          values: {
            ...(row.plan!.reservation as unknown as reservationsService.ImportedReservation['values']),
          },
          commission: row.plan!.commission
            ? {
                ...(row.plan!.commission as unknown as commissionsService.ImportedCommissionValues),
                id: row.plan!.commissionId!,
              }
            : null,
        })),
        ctx.actorId,
      );
      records.push(
        ...creates.map((row) => insertedRecord('reservations', row.plan!.id!, row.rowNumber)),
        ...withCommission.map((row) =>
          insertedRecord('broker_commissions', row.plan!.commissionId!, row.rowNumber),
        ),
      );
      await holdUnits(
        tx,
        creates.map((row) => row.plan!),
        ctx,
      );
      // Their flows, by the workflow engine: the sale flow at its stage, the payments made.
      // The definitions are read once per apply (the flows of every chunk follow the same ones).
      ctx.memo.definitions ??= new Map();
      const definitions = ctx.memo.definitions as workflows.DefinitionCache;
      const sale = await workflows.definitionNamed(tx, SALE_WORKFLOW, definitions);
      const specs: workflows.ImportedFlowSpec[] = [];
      // The invoice number of each payment imported as paid, by its flow's place in `specs`.
      const invoiceOfSpec = new Map<number, { folio: string; issueDate: string | null }>();
      for (const row of creates) {
        const plan = row.plan!;
        const r = plan.reservation;
        specs.push({
          workflowName: SALE_WORKFLOW,
          reservationId: plan.id!,
          sellerId: (r.sellerId as string | null) ?? null,
          createdAt: noonOf(r.reservationDate as string),
          completions: saleCompletions(sale, plan),
        });
        const commission = plan.commission;
        if (commission && plan.commissionId) {
          for (const [second, day] of [
            [false, commission.payment1Date],
            [true, commission.payment2Date],
          ] as const) {
            if (!day) continue;
            const definition = await workflows.definitionNamed(
              tx,
              second ? SECOND_PAYMENT_WORKFLOW : FIRST_PAYMENT_WORKFLOW,
              definitions,
            );
            const at = noonOf(day as string);
            const folio = (second ? commission.invoice2 : commission.invoice1) as string | null | undefined;
            if (folio) {
              const issueDate = (second ? commission.invoice2Date : commission.invoice1Date) as string | null;
              invoiceOfSpec.set(specs.length, { folio, issueDate: issueDate ?? null });
            }
            specs.push({
              workflowName: definition.name,
              reservationId: plan.id!,
              brokerCommissionId: plan.commissionId,
              isSecondPayment: second,
              createdAt: at,
              startedAt: at,
              completions: definition.tasks.map((task) => ({ taskId: task.id, at })),
            });
          }
        }
      }
      const flowIds = await workflows.importFlowsIn(tx, { id: ctx.actorId }, specs, definitions);
      // Their invoice numbers become the payments' invoices, by the invoices' owner (decision 0063).
      await brokerInvoices.importForPaidPaymentsIn(
        tx,
        [...invoiceOfSpec].map(([index, invoice]) => ({ flowId: flowIds[index]!, ...invoice })),
        ctx.actorId,
      );
    }

    const updates = rows.filter((row) => row.action === 'update' && row.plan?.id);
    const before = await reservationsService.importUpdatesIn(
      tx,
      updates.map((row) => {
        const plan = row.plan!;
        return {
          id: plan.id!,
          version: plan.version!,
          values: plan.reservation as Partial<reservationsService.ImportedReservation['values']>,
          commission:
            plan.commission && plan.commissionId
              ? {
                  id: plan.commissionId,
                  version: plan.commissionVersion!,
                  values: plan.commission as Partial<commissionsService.ImportedCommissionValues>,
                }
              : null,
        };
      }),
      ctx.actorId,
    );
    for (const row of updates) {
      const plan = row.plan!;
      records.push({
        tableName: 'reservations',
        recordId: plan.id!,
        action: 'update',
        before: before.reservations.get(plan.id!) ?? null,
        rowNumber: row.rowNumber,
      });
      if (plan.commission && plan.commissionId)
        records.push({
          tableName: 'broker_commissions',
          recordId: plan.commissionId,
          action: 'update',
          before: before.commissions.get(plan.commissionId) ?? null,
          rowNumber: row.rowNumber,
        });
    }
    return records;
  },
};
