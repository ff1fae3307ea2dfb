// Creates a staff account from the command line (for REGISTRATION=closed, or any user type):
//   npm run user:create -- --email ana@empresa.cl --password 'clave-larga' --first Ana --last Rojas \
//     --position 'Jefa de Pagos' --type 'Gestor de Pagos' [--seller]
// Uses DATABASE_URL / DATA_DIR like the server (stop the server first when on the embedded database).
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { openDatabase } from '../src/server/db/client';
import { profiles, roles, userRoles } from '../src/server/db/schema';
import { loadEnv } from '../src/server/env';
import { hashPassword } from '../src/server/features/auth/passwords';
import { USER_TYPES } from '../src/shared/permissions';
import { registerBody } from '../src/shared/schemas/auth';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    first: { type: 'string' },
    last: { type: 'string' },
    position: { type: 'string' },
    type: { type: 'string', default: 'Administrador' },
    seller: { type: 'boolean', default: false },
  },
});

const input = registerBody.safeParse({
  email: values.email,
  password: values.password,
  firstName: values.first,
  lastName: values.last,
  position: values.position,
});
const userType = z.enum(USER_TYPES).safeParse(values.type);
if (!input.success || !userType.success) {
  for (const issue of input.error?.issues ?? []) console.error(`${issue.path.join('.')}: ${issue.message}`);
  if (!userType.success) console.error(`--type debe ser uno de: ${USER_TYPES.join(', ')}`);
  process.exit(2);
}

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  const passwordHash = await hashPassword(input.data.password);
  const user = await database.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(profiles)
      .values({ ...input.data, passwordHash, userType: userType.data, isSeller: values.seller })
      .returning({ id: profiles.id, email: profiles.email });
    if (userType.data === 'Administrador') {
      // An administrator also gets the admin role entry (spec part 2 §6), creating the role if needed.
      await tx
        .insert(roles)
        .values({ name: 'admin', description: 'Administrador del sistema con acceso total' })
        .onConflictDoNothing();
      const [admin] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, 'admin'));
      await tx.insert(userRoles).values({ userId: created!.id, roleId: admin!.id });
    }
    return created!;
  });
  console.log(`Usuario creado: ${user.email} (${userType.data})`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
