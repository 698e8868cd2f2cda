// Live remaining counts for pack pages. After draws, the instance that served them recounts the
// pack (at most once a second per pack), stores the count on the pack row and NOTIFYs; every
// instance LISTENs and pushes the counts to its open server-sent-event streams. The recount runs
// outside the draw's transaction, so the draw stays one round trip and the pack row stays cold.
import { sql } from 'drizzle-orm';
import { streamSSE } from 'hono/streaming';
import type { Context } from 'hono';
import type { DatabaseHandle } from '#db/client';
import type { Logger } from './logger';
import { getGacha, getRemaining, refreshRemainingCache } from '#modules/gacha';
import { apiError } from './api-error';

export const LIVE_CHANNEL = 'gacha_remaining';
const RECOUNT_MS = 1000;
const HEARTBEAT_MS = 25_000;
/** Open streams one instance serves at most; beyond it new viewers are told to come back. */
export const MAX_STREAMS = 5_000;

export interface RemainingEvent {
  gachaId: string;
  total: number;
  remaining: number;
  soldOut: boolean;
  tiers: { tierId: string; remaining: number }[];
}

type Listener = (event: RemainingEvent) => void;

export interface LiveUpdates {
  /** Call after a draw on a pack (or any change of its lots). */
  noteChange(gachaId: string): void;
  subscribe(gachaId: string, listener: Listener): () => void;
  /** The SSE response for GET /api/v1/gachas/{gachaId}/events. */
  stream(c: Context, gachaId: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function createLiveUpdates(database: DatabaseHandle, logger: Logger): Promise<LiveUpdates> {
  const listeners = new Map<string, Set<Listener>>();
  const pending = new Map<string, NodeJS.Timeout>();
  const running = new Set<string>();
  const wakers = new Set<() => void>();
  let open = 0;
  let stopped = false;

  const dispatch = (event: RemainingEvent) => {
    for (const listener of listeners.get(event.gachaId) ?? []) listener(event);
  };
  const unlisten = await database.listen(LIVE_CHANNEL, (payload) => {
    try {
      dispatch(JSON.parse(payload) as RemainingEvent);
    } catch (error) {
      logger.warn({ err: error }, 'live update: unreadable notification');
    }
  });

  const recount = async (gachaId: string) => {
    if (running.has(gachaId)) return schedule(gachaId);
    running.add(gachaId);
    try {
      const counts = await getRemaining(database.db, gachaId);
      await refreshRemainingCache(database.db, gachaId, counts.remaining);
      const event: RemainingEvent = {
        gachaId,
        total: counts.total,
        remaining: counts.remaining,
        soldOut: counts.soldOut,
        tiers: counts.tiers.map((t) => ({ tierId: t.tierId, remaining: t.remaining })),
      };
      await database.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(event)})`);
    } catch (error) {
      if (!stopped) logger.warn({ err: error, gachaId }, 'live update: recount failed');
    } finally {
      running.delete(gachaId);
    }
  };
  const schedule = (gachaId: string) => {
    if (stopped || pending.has(gachaId)) return;
    pending.set(
      gachaId,
      setTimeout(() => {
        pending.delete(gachaId);
        void recount(gachaId);
      }, RECOUNT_MS),
    );
  };

  const subscribe = (gachaId: string, listener: Listener) => {
    const set = listeners.get(gachaId) ?? new Set();
    set.add(listener);
    listeners.set(gachaId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) listeners.delete(gachaId);
    };
  };

  return {
    noteChange: schedule,
    subscribe,
    async stream(c, gachaId) {
      const pack = await getGacha(database.db, gachaId);
      if (!pack) return apiError(c, 404, 'GACHA_NOT_FOUND', 'ガチャが見つかりません。');
      if (open >= MAX_STREAMS) {
        c.header('Retry-After', '30');
        return apiError(
          c,
          503,
          'LIVE_UPDATES_FULL',
          'ただいま混み合っています。残り口数は再読み込みで最新になります。',
        );
      }
      c.header('Cache-Control', 'no-store');
      c.header('X-Accel-Buffering', 'no');
      return streamSSE(c, async (sse) => {
        open += 1;
        const queue: RemainingEvent[] = [];
        let wake: (() => void) | undefined;
        const unsubscribe = subscribe(gachaId, (event) => {
          queue.splice(0, queue.length, event);
          wake?.();
        });
        sse.onAbort(() => {
          unsubscribe();
          wake?.();
        });
        try {
          const first = await getRemaining(database.db, gachaId);
          await sse.writeSSE({
            event: 'remaining',
            data: JSON.stringify({
              gachaId,
              total: first.total,
              remaining: first.remaining,
              soldOut: first.soldOut,
              tiers: first.tiers.map((t) => ({ tierId: t.tierId, remaining: t.remaining })),
            }),
            retry: 3000,
          });
          while (!sse.aborted && !stopped) {
            // An event that arrived while the last one was being written is sent without waiting.
            if (queue.length === 0)
              await new Promise<void>((resolve) => {
                const timer = setTimeout(done, HEARTBEAT_MS);
                function done() {
                  clearTimeout(timer);
                  wakers.delete(done);
                  resolve();
                }
                wake = done;
                wakers.add(done);
              });
            wake = undefined;
            const event = queue.shift();
            if (event) {
              await sse.writeSSE({ event: 'remaining', data: JSON.stringify(event) });
              if (event.soldOut) await sse.writeSSE({ event: 'soldOut', data: JSON.stringify({ gachaId }) });
            } else if (!sse.aborted) {
              await sse.write(': keep-alive\n\n');
            }
          }
        } finally {
          open -= 1;
          unsubscribe();
        }
      });
    },
    async stop() {
      stopped = true;
      for (const wakeStream of [...wakers]) wakeStream();
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      await unlisten();
    },
  };
}
