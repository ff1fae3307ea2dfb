import { type SQL, type SQLWrapper, sql, type Table } from 'drizzle-orm';
import { LIST_COUNT_CAP } from '../../shared/schemas/common';
import { type Executor, queryRows } from './client';

/** What `GET /api/<list>` answers: one page plus a total counted up to a cap (decision 0006). */
export interface Page<Row> {
  rows: Row[];
  total: number;
  totalIsCapped: boolean;
}

export interface PageSpec {
  /**
   * The output columns: alias -> expression. Aliases become the keys of each row. Timestamps must
   * go through `isoInstant()` (raw SQL: the two drivers return them differently); DATE and NUMERIC
   * columns come back as strings on both engines.
   */
  columns: Record<string, SQLWrapper>;
  /**
   * Columns computed for the page's rows only, after the limit (per-row subqueries: a flow's
   * assignees), never for every row a sort had to read. They see the page's columns as
   * `page."alias"` (`pageColumn('alias')`).
   */
  pageColumns?: Record<string, SQLWrapper>;
  /** The FROM clause: a table, or a table with its joins as SQL. */
  from: Table | SQL;
  /** The filter shared by the page and the count (undefined: every row). */
  where?: SQL | undefined;
  /**
   * What the count reads when `from` has joins that can never drop or repeat a row (inner joins on
   * a NOT NULL foreign key): the base table alone, so counting does not pay for the joins. `where`
   * must then speak only of this table.
   */
  countFrom?: Table | SQL;
  /** The order of the page; end with a unique column so pages never overlap. */
  orderBy: SQL[];
  page: number;
  pageSize: number;
  /** Count at most this many rows; above it the total is reported as capped. */
  cap?: number;
}

const NUMBER_ALIAS = '__n';
const TOTAL_ALIAS = '__total';

/** A column of the page, for `pageColumns`: `page."alias"` (the lateral below is named `page`). */
export function pageColumn(alias: string): SQL {
  return sql`page.${sql.identifier(alias)}`;
}

/**
 * ONE statement for a list request: the requested page and the number of matching rows, counted
 * over `select 1 ... limit cap + 1` so a broad filter never counts a whole table.
 *
 *   select counted.__total, page.*[, <pageColumns>]
 *   from (select count(*) from (select 1 from <from> where <where> limit cap+1) capped) counted
 *   left join lateral (select <columns>, row_number() over (order by …) __n
 *                      from <from> where <where> order by … limit size offset …) page on true
 *   order by page.__n
 *
 * The left join keeps the total when the page is empty. Exported so a test can EXPLAIN the exact
 * SQL a list runs.
 */
export function pageSql(spec: PageSpec): SQL {
  const cap = spec.cap ?? LIST_COUNT_CAP;
  const where = spec.where ? sql` where ${spec.where}` : sql``;
  const orderBy = sql.join(spec.orderBy, sql`, `);
  const columns = sql.join(
    Object.entries(spec.columns).map(([alias, expression]) => sql`${expression} as ${sql.identifier(alias)}`),
    sql`, `,
  );
  const pageColumns = Object.entries(spec.pageColumns ?? {}).map(
    ([alias, expression]) => sql`, ${expression} as ${sql.identifier(alias)}`,
  );
  const offset = (spec.page - 1) * spec.pageSize;
  return sql`select counted.${sql.identifier(TOTAL_ALIAS)}, page.*${sql.join(pageColumns)}
from (select count(*) as ${sql.identifier(TOTAL_ALIAS)} from (select 1 from ${spec.countFrom ?? spec.from}${where} limit ${cap + 1}) as capped) as counted
left join lateral (
  select ${columns}, row_number() over (order by ${orderBy}) as ${sql.identifier(NUMBER_ALIAS)}
  from ${spec.from}${where}
  order by ${orderBy}
  limit ${spec.pageSize} offset ${offset}
) as page on true
order by page.${sql.identifier(NUMBER_ALIAS)}`;
}

/** Runs `pageSql(spec)` and shapes its answer. `Row` is the shape of `spec.columns`. */
export async function selectPage<Row>(executor: Executor, spec: PageSpec): Promise<Page<Row>> {
  const cap = spec.cap ?? LIST_COUNT_CAP;
  const result = await queryRows<Record<string, unknown>>(executor, pageSql(spec));
  const counted = Number(result[0]?.[TOTAL_ALIAS] ?? 0);
  const rows: Row[] = [];
  for (const row of result) {
    // An empty page still yields one row (the count) with null page columns.
    if (row[NUMBER_ALIAS] === null || row[NUMBER_ALIAS] === undefined) continue;
    const { [TOTAL_ALIAS]: _total, [NUMBER_ALIAS]: _number, ...columns } = row;
    rows.push(columns as Row);
  }
  return { rows, total: Math.min(counted, cap), totalIsCapped: counted > cap };
}
