import { randomBytes } from 'node:crypto';
import type { UserType } from '../../shared/permissions';
import type { Database } from '../db/client';
import { profiles } from '../db/schema';
import { hashPassword } from '../features/auth/passwords';

export const TEST_PASSWORD = 'clave-segura-123';
// Hashing costs ~50 ms: computed once per test file, shared by every user it creates.
let testPasswordHash: Promise<string> | undefined;

export interface TestUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: UserType;
}

export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

export async function createUser(
  db: Database,
  overrides: Partial<{
    userType: UserType;
    email: string;
    firstName: string;
    lastName: string;
    position: string;
    isSeller: boolean;
  }> = {},
): Promise<TestUser> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const values = {
    email: overrides.email ?? `usuario.${uniqueSuffix()}@inmoflujo.test`,
    firstName: overrides.firstName ?? 'Ana',
    lastName: overrides.lastName ?? 'Rojas',
    position: overrides.position ?? 'Analista',
    userType: overrides.userType ?? 'Administrador',
    isSeller: overrides.isSeller ?? false,
    passwordHash: await testPasswordHash,
  };
  const [row] = await db.insert(profiles).values(values).returning({ id: profiles.id });
  return {
    id: row!.id,
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    userType: values.userType,
  };
}
