import {
  type PGlite,
  parse as pgliteParse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { isPlannedPerRun } from './planned-per-run';

/**
 * Named prepared statements on the embedded database (decision 0044). PGlite sends every query as
 * an unnamed statement (Parse, Describe, Bind, Describe, Execute, Sync: six calls into the engine),
 * so PostgreSQL parses and plans it again each time; for our statements the plan was most of their
 * cost (the units of a reservation: 5.7 ms planning, 0.75 ms running). Here a statement the
 * instance has seen is kept by name: parsed and described once, then Bind, Execute and Sync in one
 * call, and PostgreSQL's own plan cache (custom plans at first, the generic plan once it is as good)
 * spares the planning. PostgreSQL re-plans a kept statement itself when a table it reads changes.
 *
 * Only data statements are kept (select, insert, update, delete, with), without blobs or given
 * parameter types nor the mark of a statement planned per run (`PLANNED_PER_RUN`: a date range, a
 * search pattern, whose generic plans were 1.2–5× slower, decision 0064); everything else goes
 * PGlite's way. At most `MAX_STATEMENTS` per instance, the
 * least recently used closed first.
 */
export const MAX_STATEMENTS = 500;

/**
 * A kept statement is prepared again once older than this: its plan follows the tables' growth
 * (a plan made on a new installation's empty tables would otherwise stay until the nightly
 * vacuum). Preparing again costs one planning, once per statement per period.
 */
export const STATEMENT_MAX_AGE_MS = 10 * 60_000;

const KEPT = /^\s*(select|insert|update|delete|with)\b/i;

/** A data statement: the kind both engines keep by name (decisions 0044, 0047). */
export function isKeptStatement(text: string): boolean {
  return KEPT.test(text);
}
/**
 * Statements that change no table, type, function or statistics. Any other (a migration's DDL, a
 * test's injected trigger, an import's `ANALYZE`, the nightly `VACUUM (ANALYZE)`) forgets every
 * kept statement first: a kept `select *` would otherwise fail with 'cached plan must not change
 * result type' once its table gained a column, and a plan would outlive the statistics it read.
 */
const LEAVES_SCHEMA =
  /^\s*(set|reset|show|begin|start|commit|end|rollback|savepoint|release|explain|listen|unlisten|notify)\b/i;

interface KeptStatement {
  name: string;
  preparedAt: number;
  parameterTypes: number[];
  /** The statement's row description (absent for a statement that returns no rows). */
  rowDescription: ProtocolMessage | undefined;
}

const { serialize } = protocol;
type ProtocolMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

type QueryFunction = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/** Makes `client`'s queries, and those of its transactions, keep their statements by name. */
export function keepStatements(
  client: PGlite,
  { maxStatements = MAX_STATEMENTS, maxAgeMs = STATEMENT_MAX_AGE_MS, clock = () => performance.now() } = {},
): void {
  const kept = new Map<string, KeptStatement>();
  let named = 0;
  /** Statements evicted from `kept`: closed with the next statement sent. */
  let toClose: string[] = [];

  async function prepare(text: string): Promise<KeptStatement> {
    const name = `k${++named}`;
    if (kept.size >= maxStatements) {
      const [oldest] = kept.keys();
      toClose.push(kept.get(oldest!)!.name);
      kept.delete(oldest!);
    }
    const closing = toClose.map((old) => serialize.close({ type: 'S', name: old }));
    toClose = [];
    const messages = await client.execProtocolStream(
      concat([
        ...closing,
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = {
      name,
      preparedAt: clock(),
      parameterTypes: pgliteParse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    kept.set(text, statement);
    return statement;
  }

  function forgetAll() {
    toClose.push(...[...kept.values()].map((statement) => statement.name));
    kept.clear();
  }

  /** True when `text` is kept; forgets every kept statement when it may change the schema. */
  function keeps(text: string, options?: QueryOptions): boolean {
    // A statement planned per run (a date range, a search: decision 0064) goes PGlite's own way,
    // planned for its values each time, as PostgreSQL's unnamed statements are.
    if (isKeptStatement(text)) return !options?.blob && !options?.paramTypes && !isPlannedPerRun(text);
    if (!LEAVES_SCHEMA.test(text)) forgetAll();
    return false;
  }

  function serialized(statement: KeptStatement, params: unknown[], options?: QueryOptions) {
    return params.map((value, index) => {
      if (value === null || value === undefined) return null;
      // Bytes travel as they are, in the binary format (a bytea's binary form is its bytes). PGlite's
      // serializer would write them as hex text a byte at a time in JavaScript: an import's 256 KiB
      // file part held the event loop for tens of ms, a document's megabytes far longer.
      if (ArrayBuffer.isView(value)) return value;
      const type = statement.parameterTypes[index]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
  }

  async function keptQuery<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    await client._checkReady();
    return client._runExclusiveQuery(async () => {
      try {
        return await run<T>(text, params, options);
      } catch (error) {
        // As PGlite's own queries do: the failing statement travels with its error.
        throw Object.assign(error as object, { query: text, params, queryOptions: options });
      }
    });
  }

  /**
   * The query's own parsers (Drizzle gives nine) over the instance's 319, looked up through the
   * prototype. Given both, PGlite copies them into a new object at every query (~85 µs: 3 ms of
   * the ~35 statements of a reservation's creation).
   */
  function parsersOf(options?: QueryOptions): PGlite['parsers'] {
    if (!options?.parsers) return client.parsers;
    return Object.assign(Object.create(client.parsers), options.parsers);
  }

  async function run<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    let statement = kept.get(text);
    if (statement) kept.delete(text);
    if (statement && clock() - statement.preparedAt <= maxAgeMs) {
      // Most recently used last: the first key is the one to close.
      kept.set(text, statement);
    } else {
      if (statement) toClose.push(statement.name);
      statement = await prepare(text);
    }
    const messages = await client.execProtocolStream(
      concat([
        serialize.bind({ statement: statement.name, values: serialized(statement, params, options) }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    if (!client.isInTransaction()) await client.syncToFs();
    const described = statement.rowDescription ? [statement.rowDescription] : [];
    return pgliteParse.parseResults(
      [...described, ...messages],
      parsersOf(options),
      options?.parsers ? { ...options, parsers: undefined } : options,
    )[0] as Results<T>;
  }

  const query: QueryFunction = client.query.bind(client);
  client.query = (<T>(text: string, params: unknown[] = [], options?: QueryOptions) =>
    keeps(text, options)
      ? keptQuery<T>(text, params, options)
      : query<T>(text, params, options)) as QueryFunction;

  /** `exec` may send several statements at once: any but one that leaves the schema forgets all. */
  function beforeExec(text: string) {
    if (!LEAVES_SCHEMA.test(text) || text.includes(';')) forgetAll();
  }

  const exec = client.exec.bind(client);
  client.exec = (text, options) => {
    beforeExec(text);
    return exec(text, options);
  };

  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) =>
      callback(
        Object.create(tx, {
          query: {
            value: <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
              if (!keeps(text, options)) return tx.query<R>(text, params, options);
              if (tx.closed) throw new Error('Transaction is closed');
              return keptQuery<R>(text, params, options);
            },
          },
          exec: {
            value: (text: string, options?: QueryOptions) => {
              beforeExec(text);
              return tx.exec(text, options);
            },
          },
        }) as Transaction,
      ),
    )) as typeof client.transaction;
}
