// The rate limiter's two stores, on the same rule: a fixed window from a key's first request, every
// request counted, refused ones told when the window ends. Atomicity: a burst of concurrent takes,
// split over two limiters (two server instances), lets exactly `max` through. Redis at
// 127.0.0.1:6379 (TEST_REDIS_URL); its part is skipped, saying so, only when Redis does not answer.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { createLogger } from '#server/logger';
import { freePort } from '#tests/ports';
import { useTestDatabase } from '#tests/use-test-database';
import { scaledTimeout } from '#tests/settings';
import { createRateLimiter, type RateLimiter } from './rate-limiter.server';
import { takeRateLimit } from './rate-limit';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const handle = useTestDatabase('rate-limiter', { poolSize: 8 });
const logger = createLogger('silent');
const T0 = Date.parse('2030-04-01T00:00:00Z');

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const redisUp = await redisAnswers();
if (!redisUp) console.warn(`[rate-limiter] Redis does not answer at ${REDIS_URL}: the Redis store's tests are skipped`);

/** A clock the tests move. */
function clock(start = T0) {
  let time = start;
  return { now: () => time, advance: (seconds: number) => (time += seconds * 1000) };
}

let second: DatabaseHandle | undefined;
beforeAll(async () => {
  // A second server instance: its own connection pool to the same PostgreSQL database.
  if (handle.databaseUrl)
    second = await openDatabase({ databaseUrl: handle.databaseUrl, dataDir: handle.dataDir, poolSize: 8 });
});
afterAll(async () => {
  await second?.close();
});

const stores = [
  { store: 'database' as const, redisUrl: undefined, skip: false },
  { store: 'redis' as const, redisUrl: REDIS_URL, skip: !redisUp },
];

describe.each(stores)('the $store store', ({ store, redisUrl, skip }) => {
  const opened: RateLimiter[] = [];
  const prefix = `test:${randomUUID()}:`;
  const limiter = (options: { now?: () => number; secondInstance?: boolean } = {}) => {
    const db = options.secondInstance && second ? second.db : handle.db;
    const made = createRateLimiter({ db, redisUrl, logger, keyPrefix: prefix, now: options.now });
    opened.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(opened.map((one) => one.close()));
  });

  it.skipIf(skip)('answers from the store it was made for', () => {
    expect(limiter().store).toBe(store);
  });

  it.skipIf(skip)(
    'lets exactly max of a concurrent burst through, from two instances',
    async () => {
      const [one, two] = [limiter(), limiter({ secondInstance: true })];
      const key = `burst:${randomUUID()}`;
      const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).take(key, 60, 7)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
      // Every request counted once: the counts are 1…40, each exactly once.
      expect(decisions.map((d) => d.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect((await one.peek(key, 60)).count).toBe(40);
    },
    scaledTimeout(30_000),
  );

  it.skipIf(skip)('refuses past max until the window ends, and says when', async () => {
    const time = clock();
    const limits = limiter({ now: time.now });
    const key = `window:${randomUUID()}`;
    expect(await limits.take(key, 60, 2)).toEqual({ allowed: true, count: 1 });
    time.advance(10);
    expect(await limits.take(key, 60, 2)).toEqual({ allowed: true, count: 2 });
    expect(await limits.take(key, 60, 2)).toEqual({ allowed: false, count: 3, retryAfterSeconds: 50 });
    time.advance(49.5);
    expect(await limits.take(key, 60, 2)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    // The window started with the first request (fixed, not sliding): 60 s after it, a new one.
    time.advance(0.5);
    expect(await limits.take(key, 60, 2)).toEqual({ allowed: true, count: 1 });
  });

  it.skipIf(skip)('counts, peeks and resets without a limit', async () => {
    const time = clock();
    const limits = limiter({ now: time.now });
    const key = `failures:${randomUUID()}`;
    expect(await limits.peek(key, 900)).toEqual({ count: 0, windowEndsAt: T0 });
    await limits.count(key, 900);
    expect(await limits.count(key, 900)).toEqual({ count: 2, windowEndsAt: T0 + 900_000 });
    expect((await limits.peek(key, 900)).count).toBe(2);
    time.advance(900);
    expect((await limits.peek(key, 900)).count).toBe(0);
    await limits.count(key, 900);
    await limits.reset(key);
    expect((await limits.peek(key, 900)).count).toBe(0);
  });
});

describe('Redis down', () => {
  it(
    'falls back to the database, still counting atomically',
    async () => {
      const port = await freePort(); // nobody listens there
      const prefix = `test:${randomUUID()}:`;
      const limiter = createRateLimiter({
        db: handle.db,
        redisUrl: `redis://127.0.0.1:${port}`,
        logger,
        keyPrefix: prefix,
      });
      try {
        expect(limiter.store).toBe('redis');
        const key = `down:${randomUUID()}`;
        const decisions = await Promise.all(Array.from({ length: 6 }, () => limiter.take(key, 60, 4)));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(4);
        // The counts are the database's: the plain database function sees the same key.
        expect(await takeRateLimit(handle.db, { key: prefix + key, windowSeconds: 60, max: 6 })).toEqual({
          allowed: false,
          retryAfterSeconds: expect.any(Number) as number,
        });
      } finally {
        await limiter.close();
      }
    },
    scaledTimeout(30_000),
  );
});
