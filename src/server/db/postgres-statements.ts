import type pg from 'pg';
import { isKeptStatement, MAX_STATEMENTS } from './pglite-statements';
import { isPlannedPerRun } from './planned-per-run';

/**
 * Named prepared statements on PostgreSQL (decision 0047). node-postgres sends a query with
 * parameters as an unnamed statement, so the server parses, analyses and plans it at every run: a
 * reservation's creation spent 4.2 ms of its 9.2 ms of statement time in Parse and Bind, against
 * 4.5 ms running. Here each connection names the data statements (select, insert, update, delete,
 * with) it sends with parameters: node-postgres then parses one once per connection and sends only
 * Bind, Describe, Execute and Sync afterwards, and PostgreSQL's plan cache spares the planning
 * (custom plans for the first five runs, then the generic plan when it costs no more). PostgreSQL
 * re-plans a named statement itself when a table it reads changes (an index, an `ANALYZE`).
 *
 * A connection names at most `maxStatements` texts, the first it meets (the app has ~500); later
 * ones go unnamed. node-postgres has no way to close one of its named statements; the pool closes a
 * connection idle for 10 s or 10 minutes old (`postgresPool`), taking its statements with it.
 * Statements without parameters keep the simple protocol (which allows several statements in one
 * text), as before.
 */
export function nameStatements(client: pg.ClientBase, { maxStatements = MAX_STATEMENTS } = {}): void {
  const names = new Map<string, string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;

  function nameOf(text: string): string | undefined {
    const known = names.get(text);
    if (known || names.size >= maxStatements) return known;
    const name = `n${names.size + 1}`;
    names.set(text, name);
    return name;
  }

  function forget(text: string, name: string) {
    if (names.get(text) === name) names.set(text, `${name}r`);
  }

  /** The query's config with its name, or null when it goes as it came. */
  function named(config: unknown, values: unknown): (pg.QueryConfig & { name: string }) | null {
    const given = typeof config === 'string' ? { text: config } : config;
    // A Submittable (a cursor, a stream) is sent as it is.
    if (!given || typeof given !== 'object' || 'submit' in given) return null;
    const { text, name, values: own } = given as pg.QueryConfig;
    const parameters = Array.isArray(values) ? values : own;
    if (name || typeof text !== 'string' || !parameters?.length || !isKeptStatement(text)) return null;
    if (isPlannedPerRun(text)) return null;
    const kept = nameOf(text);
    return kept ? { ...(given as pg.QueryConfig), name: kept } : null;
  }

  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [config, second, third] = args;
    // node-postgres's shapes: (config), (config, values), (config, callback), (config, values, callback).
    const callback = [second, third].find(
      (arg): arg is (error: unknown, result: unknown) => void => typeof arg === 'function',
    );
    const values = typeof second === 'function' ? undefined : second;
    const namedConfig = named(config, values);
    if (!namedConfig) return query(...args);
    // 'cached plan must not change result type': a table this statement reads with `*` changed
    // shape (another instance migrated). The next run prepares it again under a new name.
    const heard = (error: unknown) => {
      if ((error as { code?: string } | null)?.code === '0A000') forget(namedConfig.text, namedConfig.name);
    };
    if (callback) {
      return query(namedConfig, values, (error: unknown, result: unknown) => {
        heard(error);
        callback(error, result);
      });
    }
    return (query(namedConfig, values) as Promise<unknown>).catch((error: unknown) => {
      heard(error);
      throw error;
    });
  };
}
