import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../shared/schemas/common';
import type { SettingsUser, UserRow } from '../../../shared/schemas/settings';
import type { Executor } from '../../db/client';
import { type Page, selectPage } from '../../db/paging';
import { profiles } from '../../db/schema';
import { foldedText, matchesEveryWord } from '../../db/search';

const rowColumns = {
  id: profiles.id,
  email: profiles.email,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  position: profiles.position,
  userType: profiles.userType,
  isSeller: profiles.isSeller,
  avatarUrl: profiles.avatarUrl,
  isActive: profiles.isActive,
} satisfies Record<keyof UserRow, unknown>;

const detailColumns = { ...rowColumns, version: profiles.version } satisfies Record<
  keyof SettingsUser,
  unknown
>;

/** Usuarios: by first then last name, searched over names, position and e-mail; inactive ones too. */
export function listUsers(db: Executor, query: PageQuery): Promise<Page<UserRow>> {
  return selectPage<UserRow>(db, {
    columns: rowColumns,
    from: profiles,
    where: matchesEveryWord(
      foldedText(profiles.firstName, profiles.lastName, profiles.position, profiles.email),
      query.search,
    ),
    orderBy: [asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id)],
    page: query.page,
    pageSize: query.pageSize,
  });
}

export async function findUser(db: Executor, id: string): Promise<SettingsUser | null> {
  const [row] = await db.select(detailColumns).from(profiles).where(eq(profiles.id, id));
  return (row as SettingsUser | undefined) ?? null;
}

export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(sql`lower(${profiles.email})`, email.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

/** Locks a user's row for a change; what the rules need, or undefined when the user does not exist. */
export async function lockUser(db: Executor, id: string) {
  const [row] = await db
    .select({ userType: profiles.userType, isActive: profiles.isActive, avatarUrl: profiles.avatarUrl })
    .from(profiles)
    .where(eq(profiles.id, id))
    .for('update');
  return row;
}

/**
 * The active administrators other than `exceptId`, their rows locked: two administrators demoting or
 * deactivating each other at once cannot both succeed and leave nobody in charge.
 */
export async function lockOtherActiveAdmins(db: Executor, exceptId: string): Promise<number> {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      and(eq(profiles.userType, 'Administrador'), eq(profiles.isActive, true), ne(profiles.id, exceptId)),
    )
    .orderBy(asc(profiles.id))
    .for('update');
  return rows.length;
}

/** The addresses of the active users of these types other than `exceptId` (whom a notice reaches). */
export async function listActiveEmailsOfTypes(
  db: Executor,
  userTypes: readonly string[],
  exceptId: string,
): Promise<string[]> {
  if (userTypes.length === 0) return [];
  const rows = await db
    .select({ email: profiles.email })
    .from(profiles)
    .where(
      and(inArray(profiles.userType, [...userTypes]), eq(profiles.isActive, true), ne(profiles.id, exceptId)),
    )
    .orderBy(asc(profiles.email));
  return rows.map((row) => row.email);
}
