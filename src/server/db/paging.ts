import { type SQL, type SQLWrapper, sql, type Table } from 'drizzle-orm';
import { LIST_COUNT_CAP } from '../../shared/schemas/common';
import { type Executor, queryRows } from './client';

/** What `GET /api/<list>` answers: one page plus a total counted up to a cap (decision 0006). */
export interface Page<Row> {
  rows: Row[];
  total: number;
  totalIsCapped: boolean;
}

/** A page with the sums of `PageSpec.sums` over every matching row; null when the count was capped. */
export interface PageWithSums<Row, Sums extends string> extends Page<Row> {
  sums: Record<Sums, string> | null;
}

export interface PageSpec {
  /**
   * The output columns: alias -> expression. Aliases become the keys of each row, except those
   * starting with '__' (keys a statement carries for its own joins, as the paging's). Timestamps must
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
  /** Joins after the limit, on the page's columns (`pageColumn`), that `pageColumns` read. */
  pageJoins?: SQL;
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
  /**
   * Numeric expressions summed over every matching row, in the same pass as the count (so they speak
   * of `countFrom` when it is given), as decimal strings with two places ('0.00' when none match).
   * Bounded like the count: above the cap no sums are returned (`selectPageWithSums`).
   */
  sums?: Record<string, SQLWrapper>;
}

const NUMBER_ALIAS = '__n';
const TOTAL_ALIAS = '__total';
const SUM_PREFIX = '__sum_';

/** A column of the page, for `pageColumns`: `page."alias"` (the lateral below is named `page`). */
export function pageColumn(alias: string): SQL {
  return sql`page.${sql.identifier(alias)}`;
}

/**
 * ONE statement for a list request: the requested page and the number of matching rows, counted
 * over `select 1 ... limit cap + 1` so a broad filter never counts a whole table.
 *
 *   select counted.__total[, counted.<sums>], page.*[, <pageColumns>]
 *   from (select count(*)[, sum(<sums>)] from (select 1 | <sums> from <from> where <where> limit cap+1) capped) counted
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
  const summed = Object.entries(spec.sums ?? {});
  // Counted rows carry the summed values (or just 1); the count and the sums read them in one pass.
  const cappedColumns =
    summed.length === 0
      ? sql`1`
      : sql.join(
          summed.map(([alias, expression]) => sql`${expression} as ${sql.identifier(SUM_PREFIX + alias)}`),
          sql`, `,
        );
  const sums = summed.map(
    ([alias]) =>
      sql`, coalesce(sum(capped.${sql.identifier(SUM_PREFIX + alias)}), 0)::numeric(20, 2)::text as ${sql.identifier(SUM_PREFIX + alias)}`,
  );
  const sumColumns = summed.map(([alias]) => sql`, counted.${sql.identifier(SUM_PREFIX + alias)}`);
  return sql`select counted.${sql.identifier(TOTAL_ALIAS)}${sql.join(sumColumns)}, page.*${sql.join(pageColumns)}
from (select count(*) as ${sql.identifier(TOTAL_ALIAS)}${sql.join(sums)} from (select ${cappedColumns} from ${spec.countFrom ?? spec.from}${where} limit ${cap + 1}) as capped) as counted
left join lateral (
  select ${columns}, row_number() over (order by ${orderBy}) as ${sql.identifier(NUMBER_ALIAS)}
  from ${spec.from}${where}
  order by ${orderBy}
  limit ${spec.pageSize} offset ${offset}
) as page on true${
    spec.pageJoins
      ? sql`
${spec.pageJoins}`
      : sql``
  }
order by page.${sql.identifier(NUMBER_ALIAS)}`;
}

/** Runs `pageSql(spec)` and shapes its answer. `Row` is the shape of `spec.columns`. */
export async function selectPage<Row>(executor: Executor, spec: PageSpec): Promise<Page<Row>> {
  const { sums: _sums, ...page } = await selectPageWithSums<Row, string>(executor, spec);
  return page;
}

/**
 * `selectPage` with the sums of `spec.sums` (keys `Sums`) over every matching row, or null when more
 * rows match than the cap counts: a total over "more than 1,000" rows would cost what the cap saves.
 */
export async function selectPageWithSums<Row, Sums extends string>(
  executor: Executor,
  spec: PageSpec & { sums?: Record<Sums, SQLWrapper> },
): Promise<PageWithSums<Row, Sums>> {
  const cap = spec.cap ?? LIST_COUNT_CAP;
  const result = await queryRows<Record<string, unknown>>(executor, pageSql(spec));
  const first = result[0] ?? {};
  const counted = Number(first[TOTAL_ALIAS] ?? 0);
  const sumKeys = Object.keys(spec.sums ?? {}) as Sums[];
  const rows: Row[] = [];
  for (const row of result) {
    // An empty page still yields one row (the count) with null page columns.
    if (row[NUMBER_ALIAS] === null || row[NUMBER_ALIAS] === undefined) continue;
    const columns: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      // The count, the sums, the row number and the statement's keys ('__…') are not the row's.
      if (!key.startsWith('__')) columns[key] = value;
    }
    rows.push(columns as Row);
  }
  const isCapped = counted > cap;
  const sums =
    isCapped || sumKeys.length === 0
      ? null
      : (Object.fromEntries(sumKeys.map((key) => [key, String(first[SUM_PREFIX + key])])) as Record<
          Sums,
          string
        >);
  return { rows, total: Math.min(counted, cap), totalIsCapped: isCapped, sums };
}
