// Fills the fresh database the Playwright journeys run on, in one process before the server starts:
// the two fixture accounts of e2e/fixtures.ts, the small 'e2e' dataset of scripts/demo-data.ts (so the
// journeys see a living app) and a few known rows the journeys name: an agency, two projects, and the
// administrator as the default seller.
import { openDatabase } from '../src/server/db/client';
import { defaultSeller, projects, realEstateAgencies } from '../src/server/db/schema';
import { loadEnv } from '../src/server/env';
import { createStaffAccount } from './accounts';
import { generateDataset } from './demo-data';

const PASSWORD = 'clave-e2e-segura';
export const E2E_PROJECTS = [
  { name: 'Edificio Los Aromos', stage: 'Etapa 1', commune: 'Ñuñoa', deadline: '2027-03-31', totalUnits: 96 },
  {
    name: 'Parque Vicuña',
    stage: 'Etapa 2',
    commune: 'Providencia',
    deadline: '2025-12-31',
    totalUnits: 140,
  },
];

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  const { db } = database;
  const admin = await createStaffAccount(db, {
    email: 'admin@inmoflujo.test',
    password: PASSWORD,
    firstName: 'Alicia',
    lastName: 'Administradora',
    position: 'Gerenta Comercial',
    userType: 'Administrador',
    isSeller: true,
  });
  await createStaffAccount(db, {
    email: 'kam@inmoflujo.test',
    password: PASSWORD,
    firstName: 'Karla',
    lastName: 'Mendoza',
    position: 'KAM',
    userType: 'KAM',
    isSeller: false,
  });
  await generateDataset(db, { scale: 'e2e' });
  await db.transaction(async (tx) => {
    const [agency] = await tx
      .insert(realEstateAgencies)
      .values({
        rut: '96512340-7',
        businessName: 'Inmobiliaria Andes E2E SpA',
        bank: 'Banco de Chile',
        accountType: 'Cuenta Corriente',
        accountNumber: '00-123-45678-9',
      })
      .returning();
    await tx
      .insert(projects)
      .values(E2E_PROJECTS.map((project) => ({ ...project, realEstateAgencyId: agency!.id })));
    await tx
      .insert(defaultSeller)
      .values({ userId: admin.id })
      .onConflictDoUpdate({ target: defaultSeller.singleton, set: { userId: admin.id } });
  });
} finally {
  await database.close();
}
