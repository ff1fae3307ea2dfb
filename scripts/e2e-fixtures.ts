// Known rows the Playwright journeys rely on (besides the accounts): one agency and two projects.
// Run by scripts/e2e-server.mjs on the fresh e2e database, before the server starts.
import { eq } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { defaultSeller, profiles, projects, realEstateAgencies } from '../src/server/db/schema';
import { loadEnv } from '../src/server/env';

export const E2E_PROJECTS = [
  { name: 'Edificio Los Aromos', stage: 'Etapa 1', commune: 'Ñuñoa', deadline: '2027-03-31', totalUnits: 96 },
  { name: 'Parque Vicuña', stage: 'Etapa 2', commune: 'Providencia', deadline: '2025-12-31', totalUnits: 140 },
];

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  await database.db.transaction(async (tx) => {
    const [agency] = await tx
      .insert(realEstateAgencies)
      .values({
        rut: '76086428-5',
        businessName: 'Inmobiliaria Andes SpA',
        bank: 'Banco de Chile',
        accountType: 'Cuenta Corriente',
        accountNumber: '00-123-45678-9',
      })
      .returning();
    await tx.insert(projects).values(E2E_PROJECTS.map((project) => ({ ...project, realEstateAgencyId: agency!.id })));
    // The administrator is the seller preselected on new reservations.
    const [admin] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'admin@inmoflujo.test'));
    if (admin) await tx.insert(defaultSeller).values({ userId: admin.id });
  });
} finally {
  await database.close();
}
