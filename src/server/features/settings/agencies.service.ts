import type { PageQuery } from '../../../shared/schemas/common';
import type { Agency, AgencyOption, AgencyPage, AgencyValues } from '../../../shared/schemas/settings';
import type { ReadContext, ServiceContext } from '../../context';
import { AppError, isUniqueViolation } from '../../http/app-error';
import * as queries from './agencies.queries';
import { requireCan } from './settings-access';

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

export async function get(ctx: ReadContext, id: string): Promise<Agency> {
  const agency = await queries.findAgency(ctx.db, id);
  if (!agency) throw new AppError('AGENCY_NOT_FOUND');
  return agency;
}

export async function create(ctx: ServiceContext, values: AgencyValues): Promise<Agency> {
  requireCan(ctx, 'agencies.manage');
  if (await queries.agencyRutTaken(ctx.db, values.rut)) throw new AppError('AGENCY_RUT_TAKEN');
  return guardRut(() => ctx.db.transaction((tx) => queries.insertAgency(tx, values, ctx.user.id)));
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
    ctx.db.transaction((tx) => queries.updateAgency(tx, id, version, values, ctx.user.id)),
  );
  if (updated) return updated;
  await get(ctx, id);
  throw new AppError('STALE_VERSION');
}
