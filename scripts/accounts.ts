import type { Database } from '../src/server/db/client';
import { insertAccountIn } from '../src/server/features/settings/users.service';
import type { UserType } from '../src/shared/permissions';
import type { RegisterBody } from '../src/shared/schemas/auth';

/**
 * Creates a staff account of any user type in one transaction, through the same code as
 * Configuración → Usuarios: an Administrador also gets the admin role entry (spec part 2 §6).
 */
export async function createStaffAccount(
  db: Database,
  input: RegisterBody & { userType: UserType; isSeller: boolean },
): Promise<{ id: string; email: string }> {
  const id = await db.transaction((tx) => insertAccountIn(tx, input));
  return { id, email: input.email };
}
