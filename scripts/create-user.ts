// Creates a staff account from the command line (for REGISTRATION=closed, or any user type):
//   npm run user:create -- --email ana@empresa.cl --password 'clave-larga' --first Ana --last Rojas \
//     --position 'Jefa de Pagos' --type 'Gestor de Pagos' [--seller]
// Uses DATABASE_URL / DATA_DIR like the server (stop the server first when on the embedded database).
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openDatabase } from '../src/server/db/client';
import { loadEnv } from '../src/server/env';
import { USER_TYPES } from '../src/shared/permissions';
import { registerBody } from '../src/shared/schemas/auth';
import { createStaffAccount } from './accounts';

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
  const user = await createStaffAccount(database.db, {
    ...input.data,
    userType: userType.data,
    isSeller: values.seller ?? false,
  });
  console.log(`Usuario creado: ${user.email} (${userType.data})`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
