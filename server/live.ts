// Live updates for pack pages and the home page. After draws, the instance that served them recounts the
// pack (at most once a second per pack), stores the count on the pack row and NOTIFYs; in the same pass
// it copies the pack's new top-tier wins into the winners feed (decision 036) and NOTIFYs them. Every
// instance LISTENs and pushes both to its open server-sent-event streams: a pack's stream gets its
// counts and its wins, the home's stream every shown pack's wins. All of it runs outside the draw's
// transaction, so the draw stays one round trip and the pack row stays cold.
import { sql } from 'drizzle-orm';
import { streamSSE } from 'hono/streaming';
import type { Context } from 'hono';
import type { DatabaseHandle } from '#db/client';
import type { Logger } from './logger';
import { getGacha, getRemaining, refreshRemainingCache } from '#modules/gacha';
import { listWins, recordWins, type WinnerFeedEntry } from '#modules/draw';
import { apiError } from './api-error';

export const LIVE_CHANNEL = 'gacha_remaining';
/** New entries of the winners feed (already filtered to shown packs, names already chosen). */
export const WINNERS_CHANNEL = 'winner_feed';
const RECOUNT_MS = 1000;
const HEARTBEAT_MS = 25_000;
/** A pack's first scan for wins on this instance looks this far back (a restart finds recent wins). */
const FIRST_WIN_SCAN_MS = 10 * 60_000;
/**
 * Each later scan starts this long before the previous one did: a draw whose transaction began
 * earlier but committed later is still found (the feed row is unique per prize, so overlap is free).
 */
const WIN_SCAN_OVERLAP_MS = 10_000;
/** Entries one notification carries at most (NOTIFY payloads stay far below 8,000 bytes). */
const WINS_PER_NOTIFY = 10;
/**
 * A stream opened with `?since=` (the page's render time) first sends the wins after it, so a win between
 * the render (or the cached copy's render) and the stream's opening is not missed. The catch-up starts this
 * much earlier (a feed row is written up to a recount and a scan after its draw; the page dedupes by id),
 * reaches back at most CATCH_UP_MAX_MS (an older page is reloaded, not replayed) and sends at most
 * CATCH_UP_LIMIT wins, the newest.
 */
const CATCH_UP_MARGIN_MS = WIN_SCAN_OVERLAP_MS + 2 * RECOUNT_MS;
const CATCH_UP_MAX_MS = 10 * 60_000;
const CATCH_UP_LIMIT = 20;

/** The moment a stream catches up from, from its `since` query (an ISO time), or null (none, malformed, too old). */
export function catchUpFrom(since: string | undefined, now = Date.now()): Date | null {
  if (!since || since.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(since)) return null;
  const at = Date.parse(since);
  if (Number.isNaN(at) || at > now + 60_000 || at < now - CATCH_UP_MAX_MS) return null;
  return new Date(at - CATCH_UP_MARGIN_MS);
}

/**
 * How long the reads a stream opens with (the pack, its counts, its recent wins) serve the streams opened
 * after them: at a hot release thousands of pages open their streams within seconds, and each would read
 * the same rows. A notification of new counts replaces the counts, one of new wins drops the wins, so a
 * reused read never lacks what a stream could otherwise have missed; the bound covers a notification lost
 * while the LISTEN connection reconnects.
 */
export const OPENING_READ_REUSE_MS = 2_000;

/** Reads shared by streams opened within OPENING_READ_REUSE_MS of each other. */
export function createOpeningReads(now: () => number = Date.now) {
  const reads = new Map<string, { at: number; value: Promise<unknown> }>();
  return {
    reuse<T>(key: string, read: () => Promise<T>): Promise<T> {
      const known = reads.get(key);
      if (known && now() - known.at < OPENING_READ_REUSE_MS) return known.value as Promise<T>;
      const value = read();
      const entry = { at: now(), value };
      reads.set(key, entry);
      // A failed read is not shared: the next stream asks again.
      value.catch(() => reads.get(key) === entry && reads.delete(key));
      return value;
    },
    set(key: string, value: unknown) {
      reads.set(key, { at: now(), value: Promise.resolve(value) });
    },
    drop(key: string) {
      reads.delete(key);
    },
  };
}

type OpeningReads = ReturnType<typeof createOpeningReads>;

/** True when the pack exists (a found pack is remembered as the other opening reads are; a missing one is not). */
async function packKnown(opening: OpeningReads, database: DatabaseHandle, gachaId: string): Promise<boolean> {
  const known = await opening.reuse(`pack:${gachaId}`, async () => (await getGacha(database.db, gachaId)) !== null);
  if (!known) opening.drop(`pack:${gachaId}`);
  return known;
}

/** The pack's counts a stream opens with: the newest notification's, else one read shared by the streams opening. */
function openingCounts(opening: OpeningReads, database: DatabaseHandle, gachaId: string): Promise<RemainingEvent> {
  return opening.reuse(`remaining:${gachaId}`, async () => {
    const counts = await getRemaining(database.db, gachaId);
    return {
      gachaId,
      total: counts.total,
      remaining: counts.remaining,
      soldOut: counts.soldOut,
      tiers: counts.tiers.map((t) => ({ tierId: t.tierId, remaining: t.remaining })),
    };
  });
}

/**
 * The wins a stream opened with `?since=` missed, oldest first. `recentWins` answers the newest
 * CATCH_UP_LIMIT wins of the whole catch-up window (read after the stream subscribed, or reused from a read
 * that no win announced since has outdated: none lost); those after `since` are the catch-up.
 */
async function catchUpMessages(
  c: Context,
  recentWins: (windowStart: Date) => Promise<WinnerFeedEntry[]>,
): Promise<Message[]> {
  const since = catchUpFrom(c.req.query('since'));
  if (!since) return [];
  const items = await recentWins(new Date(Date.now() - CATCH_UP_MAX_MS - CATCH_UP_MARGIN_MS));
  // Newest first, as read: the newest CATCH_UP_LIMIT after `since` are among them (a later `since` only
  // narrows the window), and an entry at `since` itself is sent (the page dedupes by id).
  return winMessages(items.filter((item) => Date.parse(item.wonAt) >= since.getTime()).reverse());
}

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
type WinsListener = (entries: WinnerFeedEntry[]) => void;
/** The key of the shop-wide wins listeners (the home page's stream). */
const EVERY_PACK = '*';

export interface LiveUpdates {
  /** Call after a draw on a pack (or any change of its lots). */
  noteChange(gachaId: string): void;
  subscribe(gachaId: string, listener: Listener): () => void;
  /** New wins of one pack, or of every shown pack with '*'. */
  subscribeWins(gachaIdOrEvery: string, listener: WinsListener): () => void;
  /** The SSE response for GET /api/v1/gachas/{gachaId}/events: `remaining`, `soldOut` and `win`. */
  stream(c: Context, gachaId: string): Promise<Response>;
  /** The SSE response for GET /api/v1/winners/events: `win` for every shown pack. */
  streamWinners(c: Context): Promise<Response>;
  stop(): Promise<void>;
}

/** What the winners feed needs from the settings. */
export interface LiveRules {
  /** PRIZE_HIGHLIGHT_COINS: a prize worth this much (or S賞-class) is a top-tier win. */
  highlightCoins: number;
  /** Told when a pack sells out (every instance hears it): the cached pages stop offering its draws. */
  onSoldOut?: (gachaId: string) => void;
}

/** One server-sent event waiting to be written; a `latest` event replaces a queued one of its name. */
interface Message {
  event: string;
  data: string;
  latest?: boolean;
}
/** Win events a slow stream keeps at most (the oldest go first). */
const MAX_QUEUED = 50;

export async function createLiveUpdates(
  database: DatabaseHandle,
  logger: Logger,
  rules: LiveRules,
): Promise<LiveUpdates> {
  const listeners = new Map<string, Set<Listener>>();
  const winListeners = new Map<string, Set<WinsListener>>();
  const pending = new Map<string, NodeJS.Timeout>();
  const running = new Set<string>();
  /** Per pack: where this instance's next scan for wins starts. */
  const winScanFrom = new Map<string, Date>();
  const streams: StreamState = { open: 0, stopped: false, wakers: new Set() };

  const soldOutSeen = new Set<string>();
  const opening = createOpeningReads();
  const recentWins = (gachaId: string | undefined) => (windowStart: Date) =>
    opening.reuse(`wins:${gachaId ?? EVERY_PACK}`, async () => {
      const { items } = await listWins(database.db, { gachaId, limit: CATCH_UP_LIMIT, since: windowStart });
      return items;
    });
  const dispatch = (event: RemainingEvent) => {
    // The newest counts are what the next stream opens with.
    opening.set(`remaining:${event.gachaId}`, event);
    if (event.soldOut && !soldOutSeen.has(event.gachaId)) {
      soldOutSeen.add(event.gachaId);
      rules.onSoldOut?.(event.gachaId);
    } else if (!event.soldOut) soldOutSeen.delete(event.gachaId);
    for (const listener of listeners.get(event.gachaId) ?? []) listener(event);
  };
  const dispatchWins = (entries: WinnerFeedEntry[]) => {
    // A read of recent wins from before these is outdated: the next stream reads again.
    opening.drop(`wins:${EVERY_PACK}`);
    for (const key of new Set(entries.map((e) => e.gachaId))) opening.drop(`wins:${key}`);
    for (const key of new Set(entries.map((e) => e.gachaId))) {
      const mine = entries.filter((e) => e.gachaId === key);
      for (const listener of winListeners.get(key) ?? []) listener(mine);
    }
    for (const listener of winListeners.get(EVERY_PACK) ?? []) listener(entries);
  };
  const unlisten = await database.listen(LIVE_CHANNEL, (payload) => {
    try {
      dispatch(JSON.parse(payload) as RemainingEvent);
    } catch (error) {
      logger.warn({ err: error }, 'live update: unreadable notification');
    }
  });
  const unlistenWins = await database.listen(WINNERS_CHANNEL, (payload) => {
    try {
      dispatchWins((JSON.parse(payload) as { entries: WinnerFeedEntry[] }).entries);
    } catch (error) {
      logger.warn({ err: error }, 'live update: unreadable wins notification');
    }
  });

  /** Copies the pack's new top-tier wins into the feed and announces those a visitor may see. */
  const announceWins = async (gachaId: string) => {
    const startedAt = Date.now();
    const since = winScanFrom.get(gachaId) ?? new Date(startedAt - FIRST_WIN_SCAN_MS);
    const ids = await recordWins(database.db, gachaId, { highlightCoins: rules.highlightCoins, since });
    winScanFrom.set(gachaId, new Date(startedAt - WIN_SCAN_OVERLAP_MS));
    if (ids.length === 0) return;
    const { items } = await listWins(database.db, {
      gachaId,
      ids: ids.slice(-WINS_PER_NOTIFY),
      limit: WINS_PER_NOTIFY,
    });
    if (items.length === 0) return;
    await database.db.execute(sql`select pg_notify(${WINNERS_CHANNEL}, ${JSON.stringify({ entries: items })})`);
  };

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
      await announceWins(gachaId);
    } catch (error) {
      if (!streams.stopped) logger.warn({ err: error, gachaId }, 'live update: recount failed');
    } finally {
      running.delete(gachaId);
    }
  };
  const schedule = (gachaId: string) => {
    if (streams.stopped || pending.has(gachaId)) return;
    pending.set(
      gachaId,
      setTimeout(() => {
        pending.delete(gachaId);
        void recount(gachaId);
      }, RECOUNT_MS),
    );
  };

  const subscribe = (gachaId: string, listener: Listener) => addTo(listeners, gachaId, listener);
  const subscribeWins = (key: string, listener: WinsListener) => addTo(winListeners, key, listener);

  return {
    noteChange: schedule,
    subscribe,
    subscribeWins,
    async stream(c, gachaId) {
      if (!(await packKnown(opening, database, gachaId)))
        return apiError(c, 404, 'GACHA_NOT_FOUND', 'ガチャが見つかりません。');
      return openStream(
        streams,
        c,
        async () => {
          const first = await openingCounts(opening, database, gachaId);
          return [...remainingMessages(first).slice(0, 1), ...(await catchUpMessages(c, recentWins(gachaId)))];
        },
        (push) => {
          const offRemaining = subscribe(gachaId, (event) => push(remainingMessages(event)));
          const offWins = subscribeWins(gachaId, (entries) => push(winMessages(entries)));
          return () => {
            offRemaining();
            offWins();
          };
        },
      );
    },
    async streamWinners(c) {
      return openStream(
        streams,
        c,
        async () => [{ event: 'ready', data: '{}' }, ...(await catchUpMessages(c, recentWins(undefined)))],
        (push) => subscribeWins(EVERY_PACK, (entries) => push(winMessages(entries))),
      );
    },
    async stop() {
      streams.stopped = true;
      for (const wakeStream of [...streams.wakers]) wakeStream();
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      await unlisten();
      await unlistenWins();
    },
  };
}

/** The instance's streams: how many are open, whether the instance stopped, and how to wake each one. */
interface StreamState {
  open: number;
  stopped: boolean;
  wakers: Set<() => void>;
}

function addTo<L>(map: Map<string, Set<L>>, key: string, listener: L): () => void {
  const set = map.get(key) ?? new Set<L>();
  set.add(listener);
  map.set(key, set);
  return () => {
    set.delete(listener);
    if (set.size === 0) map.delete(key);
  };
}

const winMessages = (entries: WinnerFeedEntry[]): Message[] =>
  entries.map((entry) => ({ event: 'win', data: JSON.stringify(entry) }));

const remainingMessages = (event: RemainingEvent): Message[] => [
  { event: 'remaining', data: JSON.stringify(event), latest: true },
  ...(event.soldOut ? [{ event: 'soldOut', data: JSON.stringify({ gachaId: event.gachaId }), latest: true }] : []),
];

/**
 * One server-sent-event stream: the first messages, then whatever `follow` pushes, a keep-alive
 * comment when idle. Shares the instance's stream cap.
 */
function openStream(
  streams: StreamState,
  c: Context,
  first: () => Promise<Message[]>,
  follow: (push: (messages: Message[]) => void) => () => void,
): Response | Promise<Response> {
  if (streams.open >= MAX_STREAMS) {
    c.header('Retry-After', '30');
    return apiError(
      c,
      503,
      'LIVE_UPDATES_FULL',
      'ただいま混み合っています。残り口数と当選履歴は再読み込みで最新になります。',
    );
  }
  c.header('Cache-Control', 'no-store');
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (sse) => {
    streams.open += 1;
    const queue: Message[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = follow((messages) => {
      for (const message of messages) {
        const same = message.latest ? queue.findIndex((m) => m.event === message.event) : -1;
        if (same >= 0) queue.splice(same, 1, message);
        else queue.push(message);
      }
      if (queue.length > MAX_QUEUED) queue.splice(0, queue.length - MAX_QUEUED);
      wake?.();
    });
    sse.onAbort(() => {
      unsubscribe();
      wake?.();
    });
    try {
      const opening = await first();
      await sse.writeSSE({ event: opening[0]?.event ?? 'ready', data: opening[0]?.data ?? '{}', retry: 3000 });
      for (const message of opening.slice(1)) await sse.writeSSE({ event: message.event, data: message.data });
      while (!sse.aborted && !streams.stopped) {
        // An event that arrived while the last one was being written is sent without waiting.
        if (queue.length === 0)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, HEARTBEAT_MS);
            function done() {
              clearTimeout(timer);
              streams.wakers.delete(done);
              resolve();
            }
            wake = done;
            streams.wakers.add(done);
          });
        wake = undefined;
        const message = queue.shift();
        if (message) await sse.writeSSE({ event: message.event, data: message.data });
        else if (!sse.aborted) await sse.write(': keep-alive\n\n');
      }
    } finally {
      streams.open -= 1;
      unsubscribe();
    }
  });
}
