// The farm and friends at the edge (decisions 044, 045): the farm's clock (the server's, movable only in
// tests), the settings passed to the modules, the per-member rate limit shared by every instance, and the
// views the pages and the API both answer.
import { Hono } from 'hono';
import type { Database } from '#db/client';
import { refuse, type Refusal } from '#modules/kernel';
import { currentSponsorship, takeRateLimit } from '#modules/identity';
import {
  clearPlot,
  farmViewOf,
  friendFarmStatus,
  harvestPlot,
  plantSeed,
  readFarmRules,
  waterFriendFarm,
  waterPlot,
  type FarmContext,
} from '#modules/farm';
import {
  decideFriendship,
  friendCodeOf,
  friendListsOf,
  requestFriend,
  type FriendDecision,
  type FriendRules,
} from '#modules/friends';
import { apiError } from './api-error';
import { labelSponsoredShare, shareUrlsOf } from './invitation';
import { devToolsAllowed } from './dev-tools';
import type { ShopConfig } from './config';
import type { RateLimiter } from '#modules/identity/server';
import type { FriendView, FriendsView } from '#modules/farm/browser';

export type FarmConfig = Pick<
  ShopConfig,
  | 'PAID_COIN_EXPIRY_DAYS'
  | 'FREE_COIN_EXPIRY_DAYS'
  | 'FRIENDS_LIMIT'
  | 'FRIEND_DECLINED_COOLDOWN_DAYS'
  | 'FARM_ACTIONS_PER_MINUTE'
  | 'FARM_CLOCK_ADJUSTABLE'
  | 'PUBLIC_ORIGIN'
  | 'SITE_NAME'
>;

interface FarmServices {
  db: Database;
  config: FarmConfig;
  limiter?: RateLimiter;
}

// The farm's clock: the server's own, plus an offset that only a test shop (FARM_CLOCK_ADJUSTABLE) moves.
// Kept on globalThis: the Hono server and the React Router server build each bundle their own copy of
// this file, and both must read one clock (as server/context.ts does with the request context).
const clock = ((globalThis as { __oripaFarmClock?: { offsetMs: number } }).__oripaFarmClock ??= { offsetMs: 0 });

/** The farm's now. Every farm decision reads this, never the client. */
export const farmNow = (): Date => new Date(Date.now() + clock.offsetMs);

/** The coins' lifetimes and the clock, as the farm module takes them. */
export const farmContextOf = (config: FarmConfig): FarmContext => ({
  now: farmNow(),
  lifetimeDays: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
});

export const friendRulesOf = (config: FarmConfig): FriendRules => ({
  limit: config.FRIENDS_LIMIT,
  declinedCooldownDays: config.FRIEND_DECLINED_COOLDOWN_DAYS,
});

/** The friend link of a code: opens /app/friends/add with the code filled in (a visitor signs up first). */
export const friendLinkOf = (origin: string, code: string) =>
  `${origin}/app/friends/add?code=${encodeURIComponent(code)}`;

/** The refusal a member gets past FARM_ACTIONS_PER_MINUTE (every instance counts together). */
export type FarmRateRefusal = Refusal<'FARM_TOO_FAST'>;

/**
 * Counts one farm or friend action of the member; a refusal with the seconds to wait when over the limit.
 * @example const tooFast = await farmRateLimit(services, memberId); if (tooFast) return tooFast
 */
export async function farmRateLimit(services: FarmServices, memberId: string): Promise<FarmRateRefusal | null> {
  const key = `farm:member:${memberId}`;
  const max = services.config.FARM_ACTIONS_PER_MINUTE;
  const decision = services.limiter
    ? await services.limiter.take(key, 60, max)
    : await takeRateLimit(services.db, { key: `oripa:${key}`, windowSeconds: 60, max });
  return decision.allowed ? null : refuse('FARM_TOO_FAST', { retryAfterSeconds: decision.retryAfterSeconds });
}

/** The member's friends with today's watering state, for the farm page and the friends page. */
export async function friendViewsOf(services: FarmServices, memberId: string): Promise<FriendView[]> {
  const lists = await friendListsOf(services.db, memberId, { limit: services.config.FRIENDS_LIMIT });
  const status = await friendFarmStatus(
    services.db,
    memberId,
    lists.friends.map((f) => f.memberId),
    farmNow(),
  );
  return lists.friends.map((f) => ({
    friendshipId: f.friendshipId,
    nickname: f.nickname,
    since: f.since.toISOString(),
    wateredToday: status.get(f.memberId)?.wateredToday ?? false,
    growingPlots: status.get(f.memberId)?.growingPlots ?? 0,
  }));
}

/** The friends page's view: code, link, share addresses, the lists. */
export async function friendsViewOf(services: FarmServices, memberId: string): Promise<FriendsView> {
  const { config, db } = services;
  const [code, lists, friends, rules, sponsorship] = await Promise.all([
    friendCodeOf(db, memberId),
    friendListsOf(db, memberId, { limit: config.FRIENDS_LIMIT }),
    friendViewsOf(services, memberId),
    readFarmRules(db),
    currentSponsorship(db, memberId),
  ]);
  const link = friendLinkOf(config.PUBLIC_ORIGIN, code);
  const text = labelSponsoredShare(
    `${config.SITE_NAME}のファームでフレンドになろう！お互いの畑に水やりするとコインがもらえます。`,
    sponsorship !== null,
  );
  const request = (e: (typeof lists.incoming)[number]) => ({
    friendshipId: e.friendshipId,
    nickname: e.nickname,
    requestedAt: e.since.toISOString(),
  });
  return {
    code,
    link,
    share: shareUrlsOf(text, link),
    limit: config.FRIENDS_LIMIT,
    friends,
    incoming: lists.incoming.map(request),
    outgoing: lists.outgoing.map(request),
    friendWaterCoins: rules.friendWaterCoins,
  };
}

export type FarmIntentInput =
  | { intent: 'plant'; plotNo: number; seedId: string }
  | { intent: 'water' | 'harvest' | 'clear'; plotNo: number }
  | { intent: 'water-friend'; friendshipId: number };

/** Runs one farm intention for the member, on the farm's clock. */
export function runFarmIntent(services: FarmServices, db: Database, memberId: string, input: FarmIntentInput) {
  const context = farmContextOf(services.config);
  switch (input.intent) {
    case 'plant':
      return plantSeed(db, memberId, { plotNo: input.plotNo, seedId: input.seedId }, context);
    case 'water':
      return waterPlot(db, memberId, { plotNo: input.plotNo }, context);
    case 'harvest':
      return harvestPlot(db, memberId, { plotNo: input.plotNo }, context);
    case 'clear':
      return clearPlot(db, memberId, { plotNo: input.plotNo }, context);
    case 'water-friend':
      return waterFriendFarm(db, memberId, { friendshipId: input.friendshipId }, context);
  }
}

/** Sends a request by code, or answers one (accept, decline, cancel, remove). */
export function runFriendIntent(
  services: FarmServices,
  db: Database,
  memberId: string,
  input: { intent: 'request'; code: string } | { intent: FriendDecision; friendshipId: number },
) {
  const rules = friendRulesOf(services.config);
  if (input.intent === 'request') return requestFriend(db, memberId, input.code, rules, farmNow());
  return decideFriendship(db, memberId, input.friendshipId, input.intent, rules, farmNow());
}

/** Today's farm for the member (the page's loader and GET /api/v1/me/farm). */
export const farmOf = (services: FarmServices, memberId: string) => farmViewOf(services.db, memberId, farmNow());

/**
 * POST /dev/farm-clock {"advanceMinutes": n} (tests and demos): moves the farm's clock forward. 404 unless
 * FARM_CLOCK_ADJUSTABLE is on and the developer tools answer this request (loopback origin, this machine).
 */
export function createFarmClockRoute(config: FarmConfig & { devToolsEnabled: boolean }) {
  const app = new Hono();
  app.post('/', async (c) => {
    if (!config.FARM_CLOCK_ADJUSTABLE || !devToolsAllowed(config, c.req.raw.headers))
      return apiError(c, 404, 'NOT_FOUND', 'ページが見つかりません。');
    const body = (await c.req.json().catch(() => null)) as { advanceMinutes?: unknown } | null;
    const minutes = body?.advanceMinutes;
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 0 || minutes > 60 * 24 * 30)
      return apiError(c, 400, 'VALIDATION_FAILED', 'advanceMinutes は0から43200の整数で指定してください。');
    clock.offsetMs += minutes * 60_000;
    return c.json({ now: farmNow().toISOString(), offsetMinutes: clock.offsetMs / 60_000 }, 200, {
      'Cache-Control': 'no-store',
    });
  });
  return app;
}
