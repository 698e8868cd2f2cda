// The answer to an unhandled error: 503 + Retry-After when the database turned the request away, 500
// otherwise (never a stack, always the JSON error shape).
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { isDatabaseUnavailable } from '#db/client';
import { BUSY_RETRY_AFTER_SECONDS, unexpectedErrorAnswer } from './api-error';

const logged: { level: string; message: string }[] = [];
const logger = {
  error: (_: object, message: string) => logged.push({ level: 'error', message }),
  warn: (_: object, message: string) => logged.push({ level: 'warn', message }),
};

function appThrowing(error: () => Promise<unknown>) {
  const app = new Hono();
  app.onError((e, c) => unexpectedErrorAnswer(c, e, logger));
  app.post('/draw', async () => {
    await error();
    return new Response('never');
  });
  return app;
}

/** An error as node-postgres raises it for a server refusal, wrapped the way Drizzle wraps it. */
function wrapped(code: string, message: string) {
  const driver = Object.assign(new Error(message), { code, severity: 'FATAL' });
  return new Error(`Failed query: select 1\nparams: : ${message}`, { cause: driver });
}

describe('unexpectedErrorAnswer', () => {
  it('answers 503 with Retry-After when PostgreSQL has no connection left (53300, wrapped by Drizzle)', async () => {
    const response = await appThrowing(() =>
      Promise.reject(wrapped('53300', 'sorry, too many clients already')),
    ).request('/draw', { method: 'POST' });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('SERVICE_BUSY');
    expect(body.error.message).toMatch(/混み合っています/);
    expect(logged.at(-1)).toEqual({ level: 'warn', message: 'database unavailable: answered 503' });
  });

  it('answers 503 when the database cannot be reached at all (a real refused connection)', async () => {
    // Port 1 on the loopback: nothing listens, so node-postgres fails with ECONNREFUSED.
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 });
    pool.on('error', () => {});
    const db = drizzle(pool);
    try {
      const response = await appThrowing(() => db.execute(sql`select 1`)).request('/draw', { method: 'POST' });
      expect(response.status).toBe(503);
    } finally {
      await pool.end();
    }
  });

  it('answers 500 to anything else: a wrong statement, a bug', async () => {
    for (const error of [wrapped('42601', 'syntax error at or near "selct"'), new TypeError('x is undefined')]) {
      const response = await appThrowing(() => Promise.reject(error)).request('/draw', { method: 'POST' });
      expect(response.status).toBe(500);
      expect(response.headers.get('Retry-After')).toBeNull();
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code).toBe('INTERNAL_ERROR');
      expect(logged.at(-1)?.level).toBe('error');
    }
  });
});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['53300', true],
    ['57P01', true],
    ['57P03', true],
    ['08006', true],
    ['08P01', true],
    ['57P02', true],
    ['25006', true],
    ['23505', false],
    ['40001', false],
    ['P0001', false],
  ])('code %s → %s', (code, expected) => {
    expect(isDatabaseUnavailable(wrapped(code, 'x'))).toBe(expected);
  });

  it('recognises a lost connection, a host that cannot be found, and an AggregateError of addresses', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND' }))).toBe(
      true,
    );
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const both = new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')]);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: both }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([new Error('NOT_ENOUGH_COINS')]))).toBe(false);
  });

  it("recognises pg-pool's connect time-out and ignores errors without a cause", () => {
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('NOT_ENOUGH_COINS'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('53300')).toBe(false);
  });
});
