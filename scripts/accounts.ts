import { eq } from 'drizzle-orm';
import type { Database } from '../src/server/db/client';
import { profiles, roles, userRoles } from '../src/server/db/schema';
import { hashPassword } from '../src/server/features/auth/passwords';
import type { UserType } from '../src/shared/permissions';
import type { RegisterBody } from '../src/shared/schemas/auth';

/**
 * Creates a staff account of any user type in one transaction. An Administrador also gets the
 * admin role entry (spec part 2 §6), creating the role when it does not exist yet.
 */
export async function createStaffAccount(
  db: Database,
  input: RegisterBody & { userType: UserType; isSeller: boolean },
): Promise<{ id: string; email: string }> {
  const passwordHash = await hashPassword(input.password);
  const { password: _password, ...profile } = input;
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(profiles)
      .values({ ...profile, passwordHash })
      .returning({ id: profiles.id, email: profiles.email });
    if (input.userType === 'Administrador') {
      await tx
        .insert(roles)
        .values({ name: 'admin', description: 'Administrador del sistema con acceso total' })
        .onConflictDoNothing();
      const [admin] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, 'admin'));
      await tx.insert(userRoles).values({ userId: created!.id, roleId: admin!.id });
    }
    return created!;
  });
}
