import { describe, expect, it } from 'vitest';
import { castCounts, castSources, castsIn, castViolations, codeOnly, readBaseline } from './raw-row-casts';

/** Source text that interpolates ('$' + '{inner}'), written so the lint reads no placeholder here. */
const interpolated = (inner: string) => `$${'{'}${inner}}`;

describe('raw SQL rows checked, not cast (decision 0036, issue 62)', () => {
  it('holds every file at or below its baseline, and the baseline at the count', () => {
    const { more, fewer } = castViolations(castCounts(castSources()), readBaseline());
    expect(more, 'new raw row casts: give each read its zod row schema').toEqual([]);
    expect(
      fewer,
      'casts removed: lower the baseline with `npx tsx scripts/raw-row-casts.ts --update`',
    ).toEqual([]);
  });

  it('refuses a planted cast in a file the baseline holds, and one in a new file', () => {
    const sources = castSources();
    const stock = sources.find((file) => file.path === 'src/server/features/stock/stock.queries.ts');
    expect(stock).toBeDefined();
    const planted = [
      ...sources.filter((file) => file !== stock),
      {
        path: 'src/server/features/stock/stock.queries.ts',
        text: `${stock?.text}\nexport const planted = (db: Executor) =>\n  queryRows<{ id: string }>(db, sql\`select id from units\`);\n`,
      },
      {
        path: 'src/server/features/stock/new.queries.ts',
        text: 'export const two = (db: Executor) => queryJsonRows<{ id: string }>(db, sql`select 1`, sql`1`);',
      },
    ];
    const { more } = castViolations(castCounts(planted), readBaseline());
    expect(more).toEqual([
      expect.stringMatching(/^src\/server\/features\/stock\/new\.queries\.ts: 1 raw row casts, 0 allowed/),
      expect.stringMatching(
        /^src\/server\/features\/stock\/stock\.queries\.ts: \d+ raw row casts, \d+ allowed/,
      ),
    ]);
  });

  it('counts a read without its row schema, and not one with it', () => {
    const text = [
      `const a = await queryRows<{ n: number }>(db, sql\`select count(*)::int as n where x = ${interpolated('fn(1, 2)')}\`);`,
      'const b = await queryRows(db, sql`select 1 as n`, z.object({ n: z.number() }));',
      'const c = await queryRows<Row>(',
      '  tx,',
      `  sql\`select ${interpolated(`\`nested, ${interpolated('"(" + ")"')}\``)} from t\`, // a comment, with commas, queryRows<X>(a, b)`,
      ');',
      "const d = await queryJsonRows<Row>(db, sql`select ')' as x`, sql`q.x`);",
      'const e = await queryJsonRows(db, query, sql`q.x`, rowSchema);',
      "const f = 'queryRows<T>(db, q)';",
      'export async function queryRows<T>(executor: Executor, query: SQL) {}',
    ].join('\n');
    expect(castsIn(text)).toEqual([
      { reader: 'queryRows', line: 1 },
      { reader: 'queryRows', line: 3 },
      { reader: 'queryJsonRows', line: 7 },
    ]);
  });

  it('reads code only: comments, strings and template text blanked, lines kept', () => {
    const text = `a(/* b, c */ "d, e", \`f ${interpolated('g(h, i)')} j\`) // k\nl`;
    expect(codeOnly(text)).toBe(`a(${' '.repeat(11)}"    ", \`  ${interpolated('g(h, i)')}  \`)     \nl`);
  });
});
