import { lastFour } from '../../../shared/domain/payment-batches';
import { allow, type PolicyUser } from '../../../shared/policies';
import type { PageQuery } from '../../../shared/schemas/common';
import type { Agency, AgencyOption, AgencyPage, AgencyValues } from '../../../shared/schemas/settings';
import type { ReadContext, ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as mail from '../mail/mail.service';
import * as permissions from '../permissions/permissions.service';
import * as queries from './agencies.queries';
import { requireCan } from './settings-access';
import { listActiveEmailsOfTypes } from './users.queries';

/** The unique index on the RUT is the last line of defence when two saves race. */
async function guardRut<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'real_estate_agencies_rut_unique')) throw new AppError('AGENCY_RUT_TAKEN');
    throw error;
  }
}

export function list(ctx: ReadContext, query: PageQuery): Promise<AgencyPage> {
  return queries.listAgencies(ctx.db, query);
}

export function listOptions(ctx: ReadContext): Promise<AgencyOption[]> {
  return queries.listAgencyOptions(ctx.db);
}

/** The account's fields: what decides where money goes (issue 53). */
const ACCOUNT_FIELDS = ['bank', 'accountType', 'accountNumber'] as const;

/** The agency as the viewer sees it: whether the viewer may verify its account. */
function viewOf(user: PolicyUser | undefined, { bankChangedBy, ...agency }: queries.StoredAgency): Agency {
  return {
    ...agency,
    canVerifyAccount:
      agency.accountStatus === 'unverified' &&
      user !== undefined &&
      allow(user, 'bankAccounts.verify', { changedBy: bankChangedBy }),
  };
}

/**
 * An agency's account entered, changed or verified: told by e-mail, in its transaction (decision
 * 0077). The agency has no address of its own, so the notice reaches the people who may verify its
 * account (the holders of 'bankAccounts.verify' under the office's grants), never its author.
 */
async function noticeIn(
  tx: Executor,
  ctx: ServiceContext,
  agency: queries.StoredAgency,
  action: 'changed' | 'verified',
): Promise<void> {
  const verifiers = await permissions.holdersIn(tx, 'bankAccounts.verify');
  await mail.recordBankAccountNoticesIn(
    tx,
    {
      action,
      payee: 'agency',
      agencyName: agency.businessName,
      bankName: agency.bank,
      accountType: agency.accountType,
      accountEnding: lastFour(agency.accountNumber),
      byName: mail.authorName(ctx.user),
    },
    await listActiveEmailsOfTypes(tx, verifiers, ctx.user.id),
    ctx.now,
  );
}

export async function get(ctx: ReadContext, id: string): Promise<Agency> {
  const agency = await queries.findAgency(ctx.db, id);
  if (!agency) throw new AppError('AGENCY_NOT_FOUND');
  return viewOf(ctx.user, agency);
}

/** An account entered (administrators only, agencies.manage) waits for another person's verification. */
export async function create(ctx: ServiceContext, values: AgencyValues): Promise<Agency> {
  requireCan(ctx, 'agencies.manage');
  if (await queries.agencyRutTaken(ctx.db, values.rut)) throw new AppError('AGENCY_RUT_TAKEN');
  const created = await guardRut(() =>
    ctx.db.transaction(async (tx) => {
      const agency = await queries.insertAgency(tx, values, ctx.user.id, {
        changedBy: ctx.user.id,
        at: ctx.now,
      });
      await noticeIn(tx, ctx, agency, 'changed');
      return agency;
    }),
  );
  return viewOf(ctx.user, created);
}

/** Saves an edit read at `version`; a stale version answers 409 and changes nothing. */
export async function update(
  ctx: ServiceContext,
  id: string,
  { version, ...values }: AgencyValues & { version: number },
): Promise<Agency> {
  requireCan(ctx, 'agencies.manage');
  await get(ctx, id);
  if (await queries.agencyRutTaken(ctx.db, values.rut, id)) throw new AppError('AGENCY_RUT_TAKEN');
  const updated = await guardRut(() =>
    ctx.db.transaction(async (tx) => {
      const before = await queries.lockAgency(tx, id);
      if (!before) throw new AppError('AGENCY_NOT_FOUND');
      // A changed account waits for its verification again (decision 0063).
      const changed = ACCOUNT_FIELDS.some((field) => before[field] !== values[field]);
      const change = changed ? { changedBy: ctx.user.id, at: ctx.now } : null;
      const agency = await queries.updateAgency(tx, id, version, values, ctx.user.id, change);
      if (agency && change) await noticeIn(tx, ctx, agency, 'changed');
      return agency;
    }),
  );
  if (updated) return viewOf(ctx.user, updated);
  await get(ctx, id);
  throw new AppError('STALE_VERSION');
}

/**
 * 'Verificar cuenta' of an agency's account (issue 53, decision 0063): as a broker's (0052), by another
 * payments user or an administrator — never the account's author —, at the version read. Audited by
 * the row's trigger.
 */
export async function verifyAccount(ctx: ServiceContext, id: string, version: number): Promise<Agency> {
  const verified = await ctx.db.transaction(async (tx) => {
    const agency = await queries.lockAgency(tx, id);
    if (!agency) throw new AppError('AGENCY_NOT_FOUND');
    if (!allow(ctx.user, 'bankAccounts.verify', { changedBy: agency.bankChangedBy })) {
      throw new AppError(
        agency.bankChangedBy === ctx.user.id && allow(ctx.user, 'bankAccounts.change', { payee: 'agency' })
          ? 'BANK_VERIFY_OWN_CHANGE'
          : 'BANK_VERIFY_FORBIDDEN',
      );
    }
    if (agency.version !== version) throw new AppError('STALE_VERSION');
    if (agency.accountStatus === 'verified') throw new AppError('BANK_NOTHING_TO_VERIFY');
    const saved = await queries.setAccountVerified(tx, id, version, { userId: ctx.user.id, at: ctx.now });
    if (!saved) throw new AppError('STALE_VERSION');
    await noticeIn(tx, ctx, saved, 'verified');
    return saved;
  });
  return viewOf(ctx.user, verified);
}
