// "The database is away": the one classification of the errors that mean PostgreSQL could not be
// reached or would not take a connection (stopped, restarting, full), as opposed to a wrong statement.
// Dependency-free, so the pages' server entry can ask it without loading the database client.

/** Seconds a client is told to wait (Retry-After) while the database is away: the busy page, the API and health alike. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's codes for "no connection for you now": too many clients (53300), out of memory for one
 * (53400), shutting down (57P01 admin, 57P02 crash, 57P03 cannot connect now), and class 08, a
 * connection exception (08000, 08001 cannot connect, 08003, 08004 rejected, 08006 failure, 08P01…, which
 * pgbouncer also sends when it has no server for the client). And 25006, a write refused by a read-only
 * transaction: the shop opens none, so it means the connection reached a standby, as a pooled one does for
 * the moment a failover takes to be seen (docs/decisions/074); nothing was written.
 */
const UNAVAILABLE_CODES = new Set(['53300', '53400', '57P01', '57P02', '57P03', '25006']);
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;
/** The socket's own words: nobody listens, the link dropped, the host cannot be found or reached. */
const UNAVAILABLE_NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * node-postgres' and pg-pool's messages for a lost or impossible connection (they carry no code): a
 * connect time-out of the pool, the server closing the socket, a client that broke earlier.
 */
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|Client was closed and is not queryable/i;

/**
 * True when an error (or any error in its `cause` chain, Drizzle wraps the driver's, or in an
 * AggregateError's `errors`: a host name with two addresses) says the database could not be reached or
 * refused a connection, rather than that the statement was wrong. Such a request did not commit unless
 * its COMMIT was under way, and the idempotency keys cover that case, so every caller answers 503 with
 * Retry-After instead of 500: the API in JSON, the pages with the busy page (docs/decisions/054).
 * @example if (isDatabaseUnavailable(error)) return c.json(busy, 503)
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  for (let e: unknown = error; e && typeof e === 'object' && depth < 8; depth++) {
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || CONNECTION_EXCEPTION.test(code))) return true;
    if (typeof code === 'string' && UNAVAILABLE_NETWORK.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
