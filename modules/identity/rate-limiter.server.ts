// One rate limiter, two stores with the same rule (fixed windows, rate-limit.ts): Redis when
// REDIS_URL is set, the database otherwise. Both count atomically, so every server instance shares
// the counts: the database in one upsert statement, Redis in one Lua script (a script runs alone).
//
// Redis down: the limiter falls back to the database store (still atomic and shared by every
// instance) and logs it, rather than refusing every sign-in (docs/decisions/014). While Redis is out,
// the two stores count separately, so a key may get up to twice its limit across the switch.
import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';
import type { Database } from '#db/client';
import type { Logger } from 'pino';
import { answerOf, countRateLimit, peekRateLimit, resetRateLimit, type RateLimitCount } from './rate-limit';

export type RateLimitDecision =
  { allowed: true; count: number } | { allowed: false; count: number; retryAfterSeconds: number };

export interface RateLimiter {
  /** Which store answers while all is well. */
  readonly store: 'database' | 'redis';
  /** Counts one request under `key` and answers whether it is within `max` per window. */
  take(key: string, windowSeconds: number, max: number): Promise<RateLimitDecision>;
  /** Counts one event (a failure) under `key` without a limit and answers the window's count. */
  count(key: string, windowSeconds: number): Promise<RateLimitCount>;
  /** The count of `key` in its live window, without adding to it. */
  peek(key: string, windowSeconds: number): Promise<RateLimitCount>;
  /** Forgets `key`: its next request starts a new window. */
  reset(key: string): Promise<void>;
  /** Closes the Redis connection (nothing for the database store). */
  close(): Promise<void>;
}

/** The shop's keys start with this in either store (better-auth's own keys are `<address><path>`). */
export const RATE_LIMIT_KEY_PREFIX = 'oripa:';

/** A Redis command that takes longer than this counts as Redis being down (the database answers). */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

export interface RateLimiterOptions {
  db: Database;
  /** redis:// or rediss:// (REDIS_URL); the database store when unset. */
  redisUrl?: string;
  logger: Logger;
  /** Put before every key (`oripa:` in the shop; a fresh one per test run). */
  keyPrefix: string;
  /** The clock, in ms since the epoch (tests move it instead of sleeping). */
  now?: () => number;
}

/**
 * @example const limiter = createRateLimiter({ db, redisUrl: config.REDIS_URL, logger, keyPrefix: 'oripa:' })
 *          const decision = await limiter.take('sign-in:address:192.0.2.1', 60, 10)
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const database = databaseStore(options);
  if (!options.redisUrl) return database;
  return redisStore(options, database);
}

function databaseStore(options: RateLimiterOptions): RateLimiter {
  const { db, keyPrefix } = options;
  const now = options.now ?? (() => Date.now());
  const at = () => new Date(now());
  return {
    store: 'database',
    async take(key, windowSeconds, max) {
      const started = now();
      const counted = await countRateLimit(db, { key: keyPrefix + key, windowSeconds, now: new Date(started) });
      return decisionOf(counted, max, started);
    },
    count: (key, windowSeconds) => countRateLimit(db, { key: keyPrefix + key, windowSeconds, now: at() }),
    peek: (key, windowSeconds) => peekRateLimit(db, { key: keyPrefix + key, windowSeconds, now: at() }),
    reset: (key) => resetRateLimit(db, keyPrefix + key),
    close: async () => undefined,
  };
}

// A hash per key: `s` the window's start (ms), `c` the count. The window is judged by the caller's
// clock (the same rule as the database store); the expiry only clears keys nobody uses any more.
const COUNT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
if (not start) or start + window <= now then
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'c', 1)
  redis.call('PEXPIRE', KEYS[1], window + 60000)
  return {1, now + window}
end
local count = redis.call('HINCRBY', KEYS[1], 'c', 1)
return {count, start + window}
`;

type RedisWithCount = Redis & { shopCount(key: string, now: number, windowMs: number): Promise<[number, number]> };

function redisStore(options: RateLimiterOptions, fallback: RateLimiter): RateLimiter {
  const { logger, keyPrefix } = options;
  const now = options.now ?? (() => Date.now());
  // Loaded only when Redis is configured: a shop on the database store never carries the client (issue 17).
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof IORedis;
  const redis = new RedisClient(options.redisUrl!, {
    // Commands wait for the first connection (bounded by the time-out); once Redis has been reached
    // and is lost, the database answers at once (below) while ioredis reconnects in the background.
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_COMMAND_TIMEOUT_MS * 2,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  }) as RedisWithCount;
  redis.defineCommand('shopCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  let everReady = false;
  let lastWarning = 0;
  redis.on('ready', () => {
    if (everReady) logger.info('rate limits: Redis is back');
    everReady = true;
  });
  // ioredis reports every failed reconnection; one line a minute is enough.
  redis.on('error', (error: Error) => warn(error));
  function warn(error: unknown) {
    const time = Date.now();
    if (time - lastWarning < 60_000) return;
    lastWarning = time;
    logger.warn({ err: error }, 'rate limits: Redis does not answer; counting in the database meanwhile');
  }
  /** Redis's answer, or the database's when Redis is out (known to be out, or failing now). */
  async function either<T>(onRedis: () => Promise<T>, onDatabase: () => Promise<T>): Promise<T> {
    const waitingForFirstConnection = !everReady && ['wait', 'connecting', 'connect'].includes(redis.status);
    if (redis.status !== 'ready' && !waitingForFirstConnection) return onDatabase();
    try {
      return await onRedis();
    } catch (error) {
      warn(error);
      return onDatabase();
    }
  }
  const countOnRedis = async (key: string, windowSeconds: number, time: number): Promise<RateLimitCount> => {
    const [count, windowEndsAt] = await redis.shopCount(keyPrefix + key, time, windowSeconds * 1000);
    return { count: Number(count), windowEndsAt: Number(windowEndsAt) };
  };
  return {
    store: 'redis',
    async take(key, windowSeconds, max) {
      const time = now();
      return either(
        async () => decisionOf(await countOnRedis(key, windowSeconds, time), max, time),
        () => fallback.take(key, windowSeconds, max),
      );
    },
    count: (key, windowSeconds) =>
      either(
        () => countOnRedis(key, windowSeconds, now()),
        () => fallback.count(key, windowSeconds),
      ),
    peek: (key, windowSeconds) =>
      either(
        async () => {
          const time = now();
          const [start, count] = await redis.hmget(keyPrefix + key, 's', 'c');
          const windowEndsAt = Number(start) + windowSeconds * 1000;
          if (start === null || count === null || windowEndsAt <= time) return { count: 0, windowEndsAt: time };
          return { count: Number(count), windowEndsAt };
        },
        () => fallback.peek(key, windowSeconds),
      ),
    reset: (key) =>
      either(
        async () => void (await redis.del(keyPrefix + key)),
        () => fallback.reset(key),
      ),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function decisionOf(counted: RateLimitCount, max: number, now: number): RateLimitDecision {
  const answer = answerOf(counted, max, now);
  return answer.allowed
    ? { allowed: true, count: counted.count }
    : { allowed: false, count: counted.count, retryAfterSeconds: answer.retryAfterSeconds };
}
