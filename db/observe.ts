// What the server may watch of the database without the database knowing who watches (decision 072):
// how long a request waited for a pooled connection, how busy the connections are, and each statement
// as it starts and ends (for trace spans). The server passes an observer to openDatabase; nothing here
// imports it. Only a statement's text is handed over, never its parameters.
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
import type { PGlite, Transaction } from '@electric-sql/pglite';

/** Watches the database: each part is optional, and a part left out costs nothing. */
export interface DatabaseObserver {
  /**
   * A statement starts (its text, placeholders and all, never its values); answers what to call when
   * it ends, or undefined to leave it unwatched.
   */
  statement?(text: string): ((error?: unknown) => void) | undefined;
  /** A pooled connection was handed out after this many seconds of waiting (PostgreSQL). */
  acquired?(seconds: number): void;
}

/** How the connections are used now: the pool's (PostgreSQL) or the one embedded connection's. */
export interface ConnectionUse {
  /** Connections open now (in use and idle). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  /** The most connections there may be. */
  max: number;
}

type QueryArguments = unknown[];
type Query = (...args: QueryArguments) => unknown;

/**
 * Watches node-postgres: the waits of `pool.connect` (which `pool.query` uses too), and the statements
 * drizzle sends, through the pool or a transaction's client (promise calls only: `pool.query` runs its
 * statement through a client with a callback, so it is seen once).
 * @example observePool(pool, { acquired: (seconds) => histogram.observe(seconds) })
 */
export function observePool(pool: Pool, observer: DatabaseObserver): void {
  if (observer.acquired) {
    const acquired = observer.acquired;
    const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => Promise<PoolClient>;
    const timedConnect = (callback?: (...args: unknown[]) => void) => {
      const started = performance.now();
      const handed = () => acquired((performance.now() - started) / 1000);
      if (typeof callback === 'function')
        return connect((error, ...rest) => {
          if (!error) handed();
          callback(error, ...rest);
        });
      return connect().then((client) => {
        handed();
        return client;
      });
    };
    pool.connect = timedConnect as typeof pool.connect;
  }
  if (observer.statement) {
    const statement = observer.statement;
    pool.query = watchedQuery(pool.query.bind(pool) as Query, statement) as typeof pool.query;
    pool.on('connect', (client) => {
      client.query = watchedQuery(client.query.bind(client) as Query, statement) as typeof client.query;
    });
  }
}

/**
 * Watches the embedded database: its one connection's use (a statement or a transaction running, the
 * callers queued behind it), and its statements when the observer asks for them.
 * @example const use = observePglite(client, {}); use() // { total: 1, idle: 1, waiting: 0, max: 1 }
 */
export function observePglite(client: PGlite, observer: DatabaseObserver): () => ConnectionUse {
  let running = 0;
  const counted = <T>(work: () => Promise<T>): Promise<T> => {
    running += 1;
    return work().finally(() => {
      running -= 1;
    });
  };
  const statement = observer.statement;
  const query = (
    statement ? watchedQuery(client.query.bind(client) as Query, statement) : client.query.bind(client)
  ) as PGlite['query'] | Query;
  client.query = ((...args: QueryArguments) =>
    counted(() => (query as Query)(...args) as Promise<unknown>)) as PGlite['query'];
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(work: (tx: Transaction) => Promise<T>) =>
    counted(() =>
      transaction((tx) => {
        if (statement) tx.query = watchedQuery(tx.query.bind(tx) as Query, statement) as Transaction['query'];
        return work(tx);
      }),
    )) as PGlite['transaction'];
  return () => ({ total: 1, idle: running === 0 ? 1 : 0, waiting: Math.max(0, running - 1), max: 1 });
}

/** A query function that tells the observer of each promise call's statement, and how it ended. */
function watchedQuery(query: Query, statement: NonNullable<DatabaseObserver['statement']>): Query {
  return (...args: QueryArguments) => {
    const [first] = args;
    if (args.some((arg) => typeof arg === 'function') || isSubmittable(first)) return query(...args);
    const text = typeof first === 'string' ? first : ((first as { text?: unknown } | null)?.text ?? '');
    const end = typeof text === 'string' && text !== '' ? statement(text) : undefined;
    if (!end) return query(...args);
    try {
      return (query(...args) as Promise<unknown>).then(
        (result) => {
          end();
          return result;
        },
        (error: unknown) => {
          end(error);
          throw error;
        },
      );
    } catch (error) {
      end(error);
      throw error;
    }
  };
}

const isSubmittable = (value: unknown) =>
  typeof value === 'object' && value !== null && typeof (value as { submit?: unknown }).submit === 'function';
