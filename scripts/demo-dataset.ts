// The demo dataset in its own data directory: migrated, generated on first use (scripts/demo-data.ts,
// scale 'demo'), reused after. Used by `npm run demo` and `npm run lighthouse`.
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/server/db/client';
import { santiagoDateOf } from '../src/shared/format';
import { DEMO_EMAIL_DOMAIN, generateDataset, isEmpty } from './demo-data';
import { preparePesosData } from './pesos-data';

export interface DemoLoginRow {
  email: string;
  user_type: string;
  name: string;
}

/**
 * Migrates the embedded database in `dataDir`, fills it with the demo dataset when it is empty,
 * and returns the demo accounts (administrators first). The data-directory lock is released on return.
 */
export async function prepareDemoDataset(dataDir: string): Promise<DemoLoginRow[]> {
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    if (await isEmpty(database.db)) {
      console.log(`Generating the demo dataset in ${dataDir}...`);
      const summary = await generateDataset(database.db, { scale: 'demo', log: console.log });
      console.log(`Done in ${(summary.millis / 1000).toFixed(1)} s: ${JSON.stringify(summary.counts)}`);
    } else {
      console.log(`Using the demo dataset in ${dataDir} (delete the folder to generate it again).`);
    }
    // Its commissions in pesos: UF values up to a month ahead of today (synthetic), on every start.
    await preparePesosData(database.db, santiagoDateOf(new Date()));
    return await queryRows<DemoLoginRow>(
      database.db,
      sql`select email, user_type, first_name || ' ' || last_name as name from profiles
          where email like ${`%@${DEMO_EMAIL_DOMAIN}`}
          order by case user_type when 'Administrador' then 1 when 'KAM' then 2 when 'Gestor de Pagos' then 3
                   when 'Supervisor' then 4 else 5 end, is_seller, email`,
    );
  } finally {
    // The server takes the data-directory lock itself: release it first.
    await database.close();
  }
}
