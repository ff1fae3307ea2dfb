import { and, asc, eq } from 'drizzle-orm';
import type { UserOption } from '../../../shared/schemas/users';
import type { Executor } from '../../db/client';
import { profiles } from '../../db/schema';

/** Every active user, by first then last name (a staff list: tens of rows, not thousands). */
export async function listActiveUserOptions(db: Executor): Promise<UserOption[]> {
  const rows = await db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      position: profiles.position,
      userType: profiles.userType,
      avatarUrl: profiles.avatarUrl,
    })
    .from(profiles)
    .where(eq(profiles.isActive, true))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id));
  return rows as UserOption[];
}

/** The active sellers (the reservation form's seller select, the default seller select). */
export function listActiveSellers(db: Executor) {
  return db
    .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(profiles)
    .where(and(eq(profiles.isSeller, true), eq(profiles.isActive, true)))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.id));
}

export async function activeSellerExists(db: Executor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, id), eq(profiles.isSeller, true), eq(profiles.isActive, true)))
    .limit(1);
  return row !== undefined;
}
