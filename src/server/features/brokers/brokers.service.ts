import { lastFour } from '../../../shared/domain/payment-batches';
import { allow, type PolicyUser } from '../../../shared/policies';
import {
  BANK_FIELDS,
  type BankStatus,
  type Broker,
  type BrokerListParams,
  type BrokerPage,
  type BrokerValues,
} from '../../../shared/schemas/brokers';
import type { ReadContext, ServiceContext } from '../../context';
import type { BankChange } from '../../db/bank-verification';
import type { Executor } from '../../db/client';
import { brokers as brokersTable } from '../../db/schema';
import { deleteByIds, lockRows, lockSnapshots, restoreSnapshots } from '../../db/snapshots';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as mail from '../mail/mail.service';
import * as queries from './brokers.queries';

/** The unique index on brokers.rut is the last line of defence when two saves race. */
async function guardRut<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'brokers_rut_unique'))
      throw new AppError('BROKER_RUT_TAKEN', { cause: error });
    throw error;
  }
}

export function list({ db }: ReadContext, query: BrokerListParams): Promise<BrokerPage> {
  return queries.listBrokers(db, query);
}

/** The KAM names the brokers carry, for the list's filter. */
export function listKams({ db }: ReadContext): Promise<string[]> {
  return queries.listKamNames(db);
}

function bankStatusOf(broker: queries.StoredBroker & { bankVerifiedAt: string | null }): BankStatus {
  if (broker.bankName === null) return 'none';
  return broker.bankVerifiedAt === null ? 'unverified' : 'verified';
}

/** The broker as the viewer sees it: its bank data's state and what the viewer may do with it. */
function viewOf(user: PolicyUser, { bankChangedBy, ...broker }: queries.StoredBroker): Broker {
  const bankStatus = bankStatusOf({ bankChangedBy, ...broker });
  return {
    ...broker,
    bankStatus,
    canChangeBank: allow(user, 'bankAccounts.change', { payee: 'broker' }),
    canVerifyBank:
      bankStatus === 'unverified' && allow(user, 'bankAccounts.verify', { changedBy: bankChangedBy }),
  };
}

export async function get({ db, user }: ServiceContext, id: string): Promise<Broker> {
  const broker = await queries.findBroker(db, id);
  if (!broker) throw new AppError('BROKER_NOT_FOUND');
  return viewOf(user, broker);
}

/**
 * Issue 53, decision 0052: may this user write these bank data over those? Any difference in the
 * fields that decide where money goes is a change, which only the payments team and administrators
 * make (the rest may save the broker's other fields); the one place the rule is checked.
 */
function bankChangeOf(
  user: PolicyUser,
  before: Pick<BrokerValues, (typeof BANK_FIELDS)[number]> | null,
  after: BrokerValues,
  now: Date,
): BankChange | null {
  const changed = BANK_FIELDS.some((field) => (before?.[field] ?? null) !== after[field]);
  if (!changed) return null;
  if (!allow(user, 'bankAccounts.change', { payee: 'broker' })) throw new AppError('BANK_DATA_FORBIDDEN');
  return { changedBy: user.id, at: now };
}

/** The broker's finance contact and KAM told of a change or a verification, in its transaction. */
async function noticeIn(
  tx: Executor,
  ctx: ServiceContext,
  broker: queries.StoredBroker,
  action: mail.BankAccountNotice['action'],
): Promise<void> {
  await mail.recordBankAccountNoticesIn(
    tx,
    {
      action,
      payee: 'broker',
      brokerId: broker.id,
      brokerName: broker.name,
      bankName: broker.bankName,
      accountType: broker.bankAccountType,
      accountEnding: broker.bankAccountNumber ? lastFour(broker.bankAccountNumber) : null,
      byName: mail.authorName(ctx.user),
    },
    [broker.financeContactEmail, broker.kamEmail],
    ctx.now,
  );
}

/** created_by / updated_by come from the session, never from the body. */
export async function create(ctx: ServiceContext, values: BrokerValues): Promise<Broker> {
  const { db, user } = ctx;
  const bankChange = bankChangeOf(user, null, values, ctx.now);
  if (await queries.rutTaken(db, values.rut)) throw new AppError('BROKER_RUT_TAKEN');
  const created = await guardRut(() =>
    db.transaction(async (tx) => {
      const broker = await queries.insertBroker(tx, values, user.id, bankChange);
      if (bankChange) await noticeIn(tx, ctx, broker, 'changed');
      return broker;
    }),
  );
  return viewOf(user, created);
}

/**
 * Saves an edit read at `version`; a stale version answers 409 and changes nothing. A change of the
 * bank data (payments team and administrators only) waits for a second person's verification and is
 * told to the broker's finance contact and KAM, in the same transaction.
 */
export async function update(
  ctx: ServiceContext,
  id: string,
  { version, ...values }: BrokerValues & { version: number },
): Promise<Broker> {
  const { db, user } = ctx;
  if (await queries.rutTaken(db, values.rut, id)) {
    if (!(await queries.findBroker(db, id))) throw new AppError('BROKER_NOT_FOUND');
    throw new AppError('BROKER_RUT_TAKEN');
  }
  const updated = await guardRut(() =>
    db.transaction(async (tx) => {
      const before = await queries.lockBroker(tx, id);
      if (!before) throw new AppError('BROKER_NOT_FOUND');
      const bankChange = bankChangeOf(user, before, values, ctx.now);
      const broker = await queries.updateBroker(tx, id, version, values, user.id, bankChange);
      if (!broker) throw new AppError('STALE_VERSION');
      if (bankChange) await noticeIn(tx, ctx, broker, broker.bankName === null ? 'removed' : 'changed');
      return broker;
    }),
  );
  return viewOf(user, updated);
}

/**
 * 'Verificar cuenta' (issue 53): a second person of the payments team or an administrator — never
 * the change's author — confirms the bank data read at `version`; from then on the broker's payments
 * may go into a batch. Audited (the row's trigger) and told to the finance contact and KAM.
 */
export async function verifyBank(ctx: ServiceContext, id: string, version: number): Promise<Broker> {
  const verified = await ctx.db.transaction(async (tx) => {
    const broker = await queries.lockBroker(tx, id);
    if (!broker) throw new AppError('BROKER_NOT_FOUND');
    if (!allow(ctx.user, 'bankAccounts.verify', { changedBy: broker.bankChangedBy })) {
      throw new AppError(
        broker.bankChangedBy === ctx.user.id && allow(ctx.user, 'bankAccounts.change', { payee: 'broker' })
          ? 'BANK_VERIFY_OWN_CHANGE'
          : 'BANK_VERIFY_FORBIDDEN',
      );
    }
    if (broker.version !== version) throw new AppError('STALE_VERSION');
    if (broker.bankName === null || broker.bankVerifiedAt !== null)
      throw new AppError('BANK_NOTHING_TO_VERIFY');
    const saved = await queries.setBankVerified(tx, id, version, { userId: ctx.user.id, at: ctx.now });
    if (!saved) throw new AppError('STALE_VERSION');
    await noticeIn(tx, ctx, saved, 'verified');
    return saved;
  });
  return viewOf(ctx.user, verified);
}

// --- Imports (decision 0056): Configuración → Importar writes brokers only through these -------------

/**
 * Inside an import's chunk: new brokers set-based, updates at the version read (stale → 409) with
 * their rows as they were (for undo).
 */
export async function importIn(
  tx: Executor,
  rows: {
    creates: readonly (BrokerValues & { id: string })[];
    updates: readonly { id: string; version: number; values: BrokerValues }[];
  },
  userId: string,
): Promise<Map<string, Record<string, unknown>>> {
  await queries.insertBrokersAsJson(tx, rows.creates, userId);
  const before = await lockSnapshots(
    tx,
    brokersTable,
    rows.updates.map((row) => row.id),
  );
  for (const row of rows.updates) {
    // The import never carries bank data (its KEPT fields): no bank change to verify.
    if (!(await queries.updateBroker(tx, row.id, row.version, row.values, userId, null)))
      throw new AppError('STALE_VERSION');
  }
  return before;
}

/** An import's undo: its brokers locked, its updates put back as a new version, its creations deleted. */
export const lockImportedIn = (tx: Executor, ids: readonly string[]) => lockRows(tx, brokersTable, ids);
export const restoreImportedIn = (
  tx: Executor,
  rows: readonly { id: string; before: Record<string, unknown> }[],
  userId: string | null,
) => restoreSnapshots(tx, brokersTable, rows, userId);
export const removeImportedIn = (tx: Executor, ids: readonly string[]) => deleteByIds(tx, brokersTable, ids);
