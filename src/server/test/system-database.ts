import { actingAs, asSystem, SYSTEM_ACTOR } from '../db/actor';
import type { Database } from '../db/client';

/**
 * The database as a test's own set-up sees it: every write it makes is 'sistema' in the audit trail
 * (decision 0024). A transaction declares it first; a single statement (`db.update(…).set(…)`,
 * `db.execute(sql…)`) is run in a transaction of its own that declares it — the builder's calls are
 * recorded and replayed on that transaction when the statement is awaited. The app under test gets
 * the plain database, so its own writes must declare their actor or be refused.
 */
export function systemDatabase(db: Database): Database {
  const deferred = (start: (executor: Database) => unknown, calls: [PropertyKey, unknown[]][]): unknown =>
    new Proxy(() => {}, {
      get(_target, property) {
        if (property === 'then') {
          return (resolve: (value: unknown) => unknown, reject: (reason: unknown) => unknown) =>
            asSystem(db, async (tx) => {
              let builder = start(tx as unknown as Database) as Record<
                PropertyKey,
                (...args: unknown[]) => unknown
              >;
              for (const [name, args] of calls) builder = builder[name]!(...args) as typeof builder;
              return builder;
            }).then(resolve, reject);
        }
        return (...args: unknown[]) => deferred(start, [...calls, [property, args]]);
      },
    });
  const writes = new Set<PropertyKey>(['insert', 'update', 'delete', 'execute']);
  const system = actingAs(db, SYSTEM_ACTOR);
  return new Proxy(system, {
    get(target, property, receiver) {
      if (writes.has(property)) {
        return (...args: unknown[]) =>
          deferred(
            (executor) =>
              (executor as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[property]!(...args),
            [],
          );
      }
      return Reflect.get(target, property, receiver);
    },
  });
}
