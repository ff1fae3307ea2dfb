// UF values and frozen pesos for generated datasets (issue 33): `npm run demo` shows its commissions in
// pesos, and `npm run bench` measures the reports with their CLP columns.
import { sql } from 'drizzle-orm';
import { asSystem } from '../src/server/db/actor';
import type { Database } from '../src/server/db/client';
import { firstPaymentUf } from '../src/server/features/reports/reports.queries';

/**
 * Synthetic UF values from 400 days before `today` to 30 after (values are published ahead; a steady
 * rise from 38,000 on 1 January 2025, not the official series), and the pesos of every dated payment
 * frozen at its day's value (as `commissions.recordPaymentDate` would have; the payment's UF is the
 * reports' SQL of the rule, held equal to shared/domain/uf.ts by their test). Only what is missing is
 * written, so a reused dataset is left as it is and a demo started days later gets the new days.
 * Demo and bench data, loaded with the triggers off (no audit rows, as the generator loads).
 */
export async function preparePesosData(db: Database, today: string): Promise<void> {
  await asSystem(db, async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`insert into uf_values (date, value, source)
      select d::date, round(38000 + (d::date - date '2025-01-01') * 5.5, 2), 'file'
        from generate_series(${today}::date - 400, ${today}::date + 30, interval '1 day') d
      on conflict (date) do nothing`);
    await tx.execute(sql`update broker_commissions bc set
        payment_1_uf_value = u.value, payment_1_clp = round(${firstPaymentUf} * u.value, 0)
      from uf_values u where u.date = bc.payment_1_date and bc.payment_1_clp is null`);
    await tx.execute(sql`update broker_commissions bc set
        payment_2_uf_value = u.value, payment_2_clp = round((bc.commission_amount - ${firstPaymentUf}) * u.value, 0)
      from uf_values u where u.date = bc.payment_2_date and bc.number_of_payments = 2 and bc.payment_2_clp is null`);
  });
  await db.execute(sql`analyze uf_values`);
  await db.execute(sql`analyze broker_commissions`);
}
