import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { permissionGrants } from '../../db/schema';

export interface GrantRow {
  action: string;
  userType: string;
  granted: boolean;
}

/** Every change the office made to the catalogue's defaults. */
export function findGrants(db: Executor): Promise<GrantRow[]> {
  return db
    .select({
      action: permissionGrants.action,
      userType: permissionGrants.userType,
      granted: permissionGrants.granted,
    })
    .from(permissionGrants);
}

/** Records that a user type holds (or not) an action against the default. */
export async function upsertGrant(
  tx: Executor,
  values: GrantRow & { changedBy: string; changedAt: Date },
): Promise<void> {
  await tx
    .insert(permissionGrants)
    .values(values)
    .onConflictDoUpdate({
      target: [permissionGrants.action, permissionGrants.userType],
      set: { granted: values.granted, changedBy: values.changedBy, changedAt: values.changedAt },
    });
}

/** Back to the catalogue's default: no row. */
export async function deleteGrant(tx: Executor, action: string, userType: string): Promise<void> {
  await tx
    .delete(permissionGrants)
    .where(and(eq(permissionGrants.action, action), eq(permissionGrants.userType, userType)));
}
