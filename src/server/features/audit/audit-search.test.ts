import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../shared/schemas/audit';
import { asSystem } from '../../db/actor';
import { queryRows } from '../../db/client';
import { loginAs, useTestApp } from '../../test/app';
import { auditFilterSql } from './audit.queries';

/**
 * The Auditoría's text search through its trigram index (issue 61, decision 0076): the same answers
 * on both engines (this file runs on the suite's engine: PGlite, and PostgreSQL with
 * TEST_DATABASE_URL), what the words are folded to (accents, case, JSON escapes, Chilean amounts)
 * and a plan that looks the word up in `audit_log_search_trgm_idx` instead of reading every row.
 */

const NOW = new Date('2026-11-20T15:00:00Z');

/** Changes of clients by 'sistema', each with its values (after only, as an insert's). */
const CHANGES: Record<string, Record<string, unknown>> = {
  nandu: { first_name: 'Ñandú', last_name: 'Pérez Valenzuela', phone: '+56 9 1111 1111' },
  perez: { first_name: 'Ana', last_name: 'PEREZ', email: 'ana@correo.cl' },
  quoted: { notes: 'dijo "ok" y firmó', amount: '135.50' },
  keyOnly: { valenzuela: 'x' },
};

describe("the Auditoría's text search, through its index", () => {
  const ctx = useTestApp({ now: () => NOW });

  /** The changes' records (root ids) by name. */
  async function seed(): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    await asSystem(ctx.db, async (tx) => {
      for (const [name, after] of Object.entries(CHANGES)) {
        const rootId = randomUUID();
        names.set(rootId, name);
        await tx.execute(sql`insert into audit_log (occurred_at, action, table_name, record_id, root_table, root_id, after)
              values (now(), 'insert', 'clients', ${rootId}, 'clients', ${rootId}, ${JSON.stringify(after)}::jsonb)`);
      }
    });
    return names;
  }

  it('finds the values, folded as the words are, the same on either engine', async () => {
    const names = await seed();
    const admin = await loginAs(ctx);
    const found = async (search: string) =>
      (
        (await admin.get(`/api/audit?kind=clients&search=${encodeURIComponent(search)}`)).json() as AuditPage
      ).rows
        .flatMap((row) => names.get(row.record.id ?? '') ?? [])
        .sort();
    expect(await found('nandu')).toEqual(['nandu']);
    expect(await found('ÑANDÚ')).toEqual(['nandu']);
    expect(await found('pérez')).toEqual(['nandu', 'perez']);
    expect(await found('perez ana')).toEqual(['perez']);
    // A column's name is not a value: 'valenzuela' finds the surname, not the key.
    expect(await found('valenzuela')).toEqual(['nandu']);
    // A quote is found as it was typed (the text holds it JSON-escaped), an amount typed the Chilean way.
    expect(await found('"ok"')).toEqual(['quoted']);
    expect(await found('135,50')).toEqual(['quoted']);
    // Wildcards are text: '%' and '_' find nothing here.
    expect(await found('%')).toEqual([]);
    expect(await found('a_a')).toEqual([]);
    // Two letters (no trigram to look up) still search, by reading the window.
    expect(await found('ok')).toEqual(['quoted']);
  });

  it('the folded text is the index expression, and a rare word is looked up in the index', async () => {
    // Enough changes for the planner to prefer the index to reading them.
    await asSystem(ctx.db, (tx) =>
      tx.execute(sql`insert into audit_log (occurred_at, action, table_name, record_id, root_table, root_id, after)
        select now(), 'update', 'clients', g::text, 'clients', gen_random_uuid(),
               jsonb_build_object('phone', '+56 9 ' || g, 'city', 'Santiago')
          from generate_series(1, 20000) g`),
    );
    await seed();
    await ctx.db.execute(sql`analyze audit_log`);
    const [folded] = await queryRows<{ text: string }>(
      ctx.db,
      sql`select audit_search_text(before, after) as text from audit_log where after->>'amount' = '135.50'`,
    );
    expect(folded!.text).toBe('[] ["dijo \\"ok\\" y firmo", "135.50"]');
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      ctx.db,
      sql`explain select id from audit_log where ${auditFilterSql({ search: 'valenzuela' })} order by id desc limit 50`,
    );
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain('audit_log_search_trgm_idx');
  });
});
