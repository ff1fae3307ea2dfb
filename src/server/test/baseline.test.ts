import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { useTestApp } from './app';
import { createClient, createProject } from './builders';

// The reset between tests (baseline.ts), on the engine the suite runs on: what one test leaves —
// rows, a changed seeded row, the audit log, a sequence, an injected trigger — the next never sees.
describe('the database between tests', () => {
  const ctx = useTestApp();
  let seeded: { name: string; rows: number; auditRows: number; sequence: string } | undefined;

  const stateOf = async () => {
    const [row] = await queryRows<{ name: string; rows: number; auditRows: number; sequence: string }>(
      ctx.db,
      sql`select (select name from workflow_stages order by id limit 1) as name,
                 (select count(*)::int from clients) + (select count(*)::int from projects) as rows,
                 (select count(*)::int from audit_log) as "auditRows",
                 (select coalesce(last_value, 0)::text from audit_log_id_seq) as sequence`,
    );
    return row!;
  };

  it('a test changes rows, a seeded row, the audit log and a sequence, and adds a trigger', async () => {
    seeded = await stateOf();
    await createProject(ctx.db);
    await createClient(ctx.db);
    await ctx.db.execute(sql`update workflow_stages set name = 'Cambiada por una prueba'`);
    await ctx.db.execute(sql`create function zz_refuse() returns trigger language plpgsql as
      $$ begin raise exception 'inyectado'; end $$`);
    await ctx.db.execute(sql`create trigger zz_refuse before insert on clients
      for each row execute function zz_refuse()`);
    const changed = await stateOf();
    expect(changed.rows).toBeGreaterThan(seeded.rows);
    expect(changed.auditRows).toBeGreaterThan(seeded.auditRows);
    expect(changed.name).toBe('Cambiada por una prueba');
  });

  it('the next test finds the database as the migrations left it', async () => {
    expect(await stateOf()).toEqual(seeded);
    // The injected trigger is gone: a client can be created again.
    await createClient(ctx.db);
  });
});
