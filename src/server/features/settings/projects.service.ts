import { projectDelivery, projectInstallments } from '../../../shared/domain/projects';
import { santiagoDateOf } from '../../../shared/format';
import type { PageQuery } from '../../../shared/schemas/common';
import type { Project, ProjectPage, ProjectValues } from '../../../shared/schemas/settings';
import type { ServiceContext } from '../../context';
import { AppError } from '../../http/app-error';
import * as files from '../files/files.service';
import * as queries from './projects.queries';
import { requireCan } from './settings-access';

type ClockContext = Pick<ServiceContext, 'db' | 'now'>;

/** Delivery and installments on the request's Santiago day: derived, never stored, never stale. */
function present<T extends { deadline: string }>(
  stored: T,
  now: Date,
): T & Pick<Project, 'delivery' | 'installments'> {
  const today = santiagoDateOf(now);
  return {
    ...stored,
    delivery: projectDelivery(stored.deadline, today),
    installments: projectInstallments(stored.deadline, today),
  };
}

export async function list(ctx: ClockContext, query: PageQuery): Promise<ProjectPage> {
  const page = await queries.listProjects(ctx.db, query);
  return { ...page, rows: page.rows.map((row) => present(row, ctx.now)) };
}

export async function get(ctx: ClockContext, id: string): Promise<Project> {
  const stored = await queries.findProject(ctx.db, id);
  if (!stored) throw new AppError('PROJECT_NOT_FOUND');
  return present(stored, ctx.now);
}

async function requireAgency(ctx: ClockContext, agencyId: string) {
  if (!(await queries.agencyExists(ctx.db, agencyId))) throw new AppError('PROJECT_AGENCY_UNKNOWN');
}

export async function create(ctx: ServiceContext, values: ProjectValues): Promise<Project> {
  requireCan(ctx, 'projects.manage');
  await requireAgency(ctx, values.realEstateAgencyId);
  const id = await ctx.db.transaction((tx) => queries.insertProject(tx, values, ctx.user.id));
  return get(ctx, id);
}

/** Saves an edit read at `version`; a stale version answers 409 and changes nothing. */
export async function update(
  ctx: ServiceContext,
  id: string,
  { version, ...values }: ProjectValues & { version: number },
): Promise<Project> {
  requireCan(ctx, 'projects.manage');
  await get(ctx, id);
  await requireAgency(ctx, values.realEstateAgencyId);
  if (!(await ctx.db.transaction((tx) => queries.updateProject(tx, id, version, values, ctx.user.id)))) {
    await get(ctx, id);
    throw new AppError('STALE_VERSION');
  }
  return get(ctx, id);
}

/**
 * Replaces the logo (null removes it) in one transaction with the project row locked: the new image
 * is stored, the project points to it, the old image is deleted — or nothing changes.
 */
export async function setLogo(ctx: ServiceContext, id: string, image: Buffer | null): Promise<Project> {
  requireCan(ctx, 'projects.manage');
  // Re-encoded before the transaction, so the connection is not held while the image is decoded.
  const prepared = image ? await files.prepareImage(image, 'logo') : null;
  await ctx.db.transaction(async (tx) => {
    const current = await queries.lockProjectLogo(tx, id);
    if (!current) throw new AppError('PROJECT_NOT_FOUND');
    const logoUrl = prepared ? await files.storePreparedImage(tx, prepared, ctx.user.id) : null;
    await queries.updateProjectLogo(tx, id, logoUrl, ctx.user.id);
    await files.deleteStoredFile(tx, current.logoUrl);
  });
  return get(ctx, id);
}
