import { and, asc, eq, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../shared/schemas/common';
import type { Project, ProjectRow, ProjectValues } from '../../../shared/schemas/settings';
import type { Executor } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';
import { projects, realEstateAgencies, units } from '../../db/schema';
import { foldedText, matchesEveryWord } from '../../db/search';

/** Delivery and installments are derived by the service on the request's day, never stored. */
type Derived = 'delivery' | 'installments';
export type StoredProjectRow = Omit<ProjectRow, Derived>;
export type StoredProject = Omit<Project, Derived>;

const rowColumns = {
  id: projects.id,
  name: projects.name,
  stage: projects.stage,
  commune: projects.commune,
  deadline: projects.deadline,
  agencyName: realEstateAgencies.businessName,
  logoUrl: projects.logoUrl,
  totalUnits: projects.totalUnits,
} satisfies Record<keyof StoredProjectRow, unknown>;

const columns = {
  ...rowColumns,
  realEstateAgencyId: projects.realEstateAgencyId,
  version: projects.version,
  inventoryUnits: sql<number>`(select count(*)::int from ${units} where ${units.projectId} = ${projects.id})`,
} satisfies Record<keyof StoredProject, unknown>;

const withAgency = sql`${projects} join ${realEstateAgencies} on ${realEstateAgencies.id} = ${projects.realEstateAgencyId}`;

/** Proyectos: by name then stage (spec part 2 §7), searched by name or commune. */
export function listProjects(db: Executor, query: PageQuery): Promise<Page<StoredProjectRow>> {
  return selectPage<StoredProjectRow>(db, {
    columns: rowColumns,
    from: withAgency,
    // The join is on a NOT NULL foreign key: it never drops nor repeats a project.
    countFrom: projects,
    where: matchesEveryWord(foldedText(projects.name, projects.commune), query.search),
    orderBy: [asc(projects.name), asc(projects.stage), asc(projects.id)],
    page: query.page,
    pageSize: query.pageSize,
  });
}

export async function findProject(db: Executor, id: string): Promise<StoredProject | null> {
  const [row] = await db
    .select(columns)
    .from(projects)
    .innerJoin(realEstateAgencies, eq(realEstateAgencies.id, projects.realEstateAgencyId))
    .where(eq(projects.id, id));
  return row ?? null;
}

/** Locks the project row for a change of its logo; its current logo URL, or undefined when gone. */
export async function lockProjectLogo(
  db: Executor,
  id: string,
): Promise<{ logoUrl: string | null } | undefined> {
  const [row] = await db
    .select({ logoUrl: projects.logoUrl })
    .from(projects)
    .where(eq(projects.id, id))
    .for('update');
  return row;
}

export async function agencyExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: realEstateAgencies.id })
    .from(realEstateAgencies)
    .where(eq(realEstateAgencies.id, id))
    .limit(1);
  return row !== undefined;
}

export async function insertProject(db: Executor, values: ProjectValues, userId: string): Promise<string> {
  const [row] = await db
    .insert(projects)
    .values({ ...values, createdBy: userId, updatedBy: userId })
    .returning({ id: projects.id });
  return row!.id;
}

/** Optimistic update: false when the row is gone or no longer at `version`. */
export async function updateProject(
  db: Executor,
  id: string,
  version: number,
  values: ProjectValues,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .update(projects)
    .set({ ...values, updatedBy: userId, updatedAt: sql`now()`, version: sql`${projects.version} + 1` })
    .where(and(eq(projects.id, id), eq(projects.version, version)))
    .returning({ id: projects.id });
  return rows.length > 0;
}

export async function updateProjectLogo(db: Executor, id: string, logoUrl: string | null, userId: string) {
  await db
    .update(projects)
    .set({ logoUrl, updatedBy: userId, updatedAt: sql`now()`, version: sql`${projects.version} + 1` })
    .where(eq(projects.id, id));
}
