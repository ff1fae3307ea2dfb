import { asSystem } from '../src/server/db/actor';
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
  // An operator's script, or test and demo set-up: 'sistema' in the audit trail.
  const id = await asSystem(db, (tx) => insertAccountIn(tx, input));
  return { id, email: input.email };
}
