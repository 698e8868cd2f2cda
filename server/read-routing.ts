// Which database a read may use (decision 075). The catalogue (home, genre tops, pack pages, notices),
// the rankings and the reveal files may read a streaming replica; everything else (the draw, the wallet,
// the prize box, every member's own page and every write) reads the primary. A read goes to the replica
// only while it is known to be close (lag at most REPLICA_MAX_LAG_SECONDS) and, for a browser that wrote
// something, only once the replica has replayed past that write: read-your-writes.
//
// The lag is measured without privileges: once a poll, the primary's WAL position is sampled with the
// time the query started, and the replica's replayed position is read. The newest sample the replica has
// replayed says "the replica holds every commit that finished before this time"; the lag is now minus
// that time, to within one poll. A replica that stops replaying (its primary gone, its link cut) falls
// behind on its own; one that cannot answer, or is not a standby, is not used at all.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Database } from '#db/client';
import { openReplica, primaryWalPosition, type ReplicaHandle } from '#db/replica';
import type { Logger } from './logger';

/** The cookie that says when this browser last wrote (milliseconds since the epoch; not a secret). */
export const WROTE_COOKIE = 'shop_wrote';
/** Clocks of two instances may differ this much: a write is trusted to be on the replica only past it. */
const CLOCK_MARGIN_MS = 1000;
/** Samples of the primary's position kept (one per poll): enough to measure a lag of minutes. */
const SAMPLES_KEPT = 600;

/** The pure measurement: samples of the primary's position, and how far the replica has replayed them. */
export class LagTracker {
  private samples: { at: number; position: bigint }[] = [];
  private caughtUpAt: number | null = null;
  private behindAllSamples = false;
  private known = false;

  /** The primary had written at least `position` by `at` (the start of the query that read it). */
  primary(position: bigint, at: number) {
    this.samples.push({ at, position });
    if (this.samples.length > SAMPLES_KEPT) this.samples.splice(0, this.samples.length - SAMPLES_KEPT);
  }

  /** The replica's replayed position now; null when it cannot answer or is not a standby. */
  replica(position: bigint | null) {
    if (position === null) {
      this.known = false;
      return;
    }
    this.known = true;
    let newest: number | null = null;
    for (const sample of this.samples) if (sample.position <= position) newest = sample.at;
    this.behindAllSamples = newest === null && this.samples.length > 0;
    if (newest !== null && (this.caughtUpAt === null || newest > this.caughtUpAt)) this.caughtUpAt = newest;
  }

  /** Every commit that finished before this time is on the replica; null when unknown. */
  holdsCommitsBefore(): number | null {
    if (!this.known || this.behindAllSamples) return null;
    return this.caughtUpAt;
  }

  /** Seconds the replica is behind, to within one poll; null when unknown. */
  lagSeconds(now: number): number | null {
    if (!this.known) return null;
    if (this.behindAllSamples) return (now - this.samples[0]!.at) / 1000;
    return this.caughtUpAt === null ? null : Math.max(0, (now - this.caughtUpAt) / 1000);
  }
}

export interface ReplicaState {
  /** Seconds behind the primary, to within a poll; null when unknown (not answering, not a standby). */
  lagSeconds: number | null;
  /** Whether reads that may lag go to the replica now (lag known and within the limit). */
  inUse: boolean;
  maxLagSeconds: number;
}

export interface ReadRouting {
  /**
   * The database for the catalogue's reads in a request whose browser last wrote at `lastWriteAt` (null:
   * never, or too long ago to matter): the replica when it is close enough and holds that write.
   */
  catalogueDb(lastWriteAt: number | null): Database;
  /** The replica's state for health and metrics; null when no replica is configured. */
  replica(): ReplicaState | null;
  /** The Set-Cookie value that marks a write by this browser; null when there is no replica to guard. */
  writeMarker(): string | null;
  stop(): Promise<void>;
}

/** Every read on the primary: the embedded database, or PostgreSQL without DATABASE_REPLICA_URL. */
export function primaryOnly(primary: Database): ReadRouting {
  return {
    catalogueDb: () => primary,
    replica: () => null,
    writeMarker: () => null,
    stop: async () => {},
  };
}

/**
 * Opens the replica and starts measuring its lag every `pollMs`.
 * @example const reads = await startReadRouting({ primary: database.db, replicaUrl, maxLagSeconds: 5, logger })
 */
export async function startReadRouting(options: {
  primary: Database;
  replicaUrl: string;
  maxLagSeconds: number;
  logger: Logger;
  poolSize?: number;
  pollMs?: number;
  /** Told the lag after every poll (metrics). */
  onLag?: (lagSeconds: number | null) => void;
  now?: () => number;
}): Promise<ReadRouting> {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 1000;
  const replica: ReplicaHandle = await openReplica({ url: options.replicaUrl, poolSize: options.poolSize ?? 10 });
  const tracker = new LagTracker();
  let stopped = false;
  let warned = false;
  const poll = async () => {
    const startedAt = now();
    try {
      tracker.primary(await primaryWalPosition(options.primary), startedAt);
    } catch {
      // The primary away: no new sample; the lag grows until the replica is no longer used.
    }
    try {
      tracker.replica(await replica.replayedPosition());
      warned = false;
    } catch (error) {
      tracker.replica(null);
      if (!warned) options.logger.warn({ err: error }, 'read replica not answering: every read goes to the primary');
      warned = true;
    }
    options.onLag?.(tracker.lagSeconds(now()));
  };
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    if (stopped) return;
    await poll();
    if (!stopped) timer = setTimeout(() => void loop(), pollMs).unref();
  };
  await loop();
  const state = (): ReplicaState => {
    const lagSeconds = tracker.lagSeconds(now());
    return {
      lagSeconds,
      inUse: lagSeconds !== null && lagSeconds <= options.maxLagSeconds,
      maxLagSeconds: options.maxLagSeconds,
    };
  };
  return {
    catalogueDb(lastWriteAt) {
      if (!state().inUse) return options.primary;
      if (lastWriteAt === null) return replica.db;
      const holds = tracker.holdsCommitsBefore();
      return holds !== null && lastWriteAt + CLOCK_MARGIN_MS < holds ? replica.db : options.primary;
    },
    replica: state,
    writeMarker() {
      // Past the limit the replica is not used at all, so the mark need not outlive it.
      const maxAge = Math.ceil(options.maxLagSeconds) + 2;
      return `${WROTE_COOKIE}=${now()}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=Lax`;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await replica.close();
    },
  };
}

/**
 * The routing the settings ask for: a replica's when DATABASE_REPLICA_URL is set, else the primary only.
 * @example const reads = await openReadRouting(config, database.db, logger, (lag) => metrics.setReplicaLag(lag))
 */
export async function openReadRouting(
  config: { DATABASE_REPLICA_URL?: string; REPLICA_MAX_LAG_SECONDS: number },
  primary: Database,
  logger: Logger,
  onLag?: (lagSeconds: number | null) => void,
): Promise<ReadRouting> {
  if (!config.DATABASE_REPLICA_URL) return primaryOnly(primary);
  return startReadRouting({
    primary,
    replicaUrl: config.DATABASE_REPLICA_URL,
    maxLagSeconds: config.REPLICA_MAX_LAG_SECONDS,
    logger,
    onLag,
  });
}

/** The write time a request's cookie carries, or null. @example lastWriteOf(getCookie(c, WROTE_COOKIE)) */
export function lastWriteOf(cookie: string | undefined): number | null {
  if (!cookie || !/^\d{1,15}$/.test(cookie)) return null;
  return Number(cookie);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Marks the browser of every state-changing request (a draw, a purchase, a form), so its next pages read
 * the primary until the replica has that write. Nothing is set when there is no replica.
 */
export function markWrites(reads: ReadRouting | undefined): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (SAFE_METHODS.has(c.req.method)) return;
    const marker = reads?.writeMarker();
    if (marker) c.res.headers.append('Set-Cookie', marker);
  };
}

/** The catalogue's database for this request (decision 075). */
export function catalogueDbFor(c: Context, reads: ReadRouting | undefined, primary: Database): Database {
  return reads ? reads.catalogueDb(lastWriteOf(getCookie(c, WROTE_COOKIE))) : primary;
}
