// The draw as one use case (issue 30 item 2): what both entrances do around the draw module's
// transaction — the pack page's form action (app/controllers/draw-action.server.ts) and the API's createDraw
// (server/api/v1/draws.ts). The member's rank where the pack asks for one, the draw itself, the live
// remaining counts after a new draw, and the draw's count in the metrics. Each entrance keeps only its
// own reading of the request and its own answer (a redirect to the result, or JSON).
import type { Database } from '#db/client';
import { drawLots, drawLotsForSession, type DrawOutcome } from '#modules/draw';
import { getGachaDetail } from '#modules/gacha';
import { currentRank } from '#modules/progression';
import type { ShopServices } from './services';

/** Who draws: a member already known (the page), or the API's session token, resolved in the draw's own call. */
export type Drawer =
  | { memberId: string }
  | {
      sessionToken: string;
      /** The member the usual way, for a pack with a minimum rank or a session due for its refresh. */
      resolveMember: () => Promise<{ id: string } | null>;
    };

export interface DrawRequest {
  gachaId: string;
  count: number;
  /** The entrance's key, prefixed by where it came from ('web:…', 'api:…'): one draw per key. */
  idempotencyKey: string;
  /** The pack's minimum rank when the caller has just read the pack (the page); else read here. */
  minRank?: number | null;
}

type DrawServices = Pick<ShopServices, 'db' | 'config' | 'live' | 'metrics'>;

/**
 * One draw for a member: the rank if the pack needs it, the draw (all or nothing), then the pack's
 * live remaining counts for everyone watching. Null when the API's session names nobody.
 * @example const outcome = await drawForMember(shop.services, { memberId }, { gachaId, count: 10, idempotencyKey: `web:${key}` })
 */
export async function drawForMember(
  services: DrawServices,
  drawer: { memberId: string },
  request: DrawRequest,
): Promise<DrawOutcome>;
export async function drawForMember(
  services: DrawServices,
  drawer: Drawer,
  request: DrawRequest,
): Promise<DrawOutcome | null>;
export async function drawForMember(
  services: DrawServices,
  drawer: Drawer,
  request: DrawRequest,
): Promise<DrawOutcome | null> {
  const { db } = services;
  const draw = {
    gachaId: request.gachaId,
    count: request.count,
    idempotencyKey: request.idempotencyKey,
    decisionDays: services.config.PRIZE_DECISION_DAYS,
  };
  const ranked = request.minRank !== undefined ? request.minRank !== null : await packNeedsRank(db, request.gachaId);
  let outcome: DrawOutcome | 'refresh';
  if ('memberId' in drawer) {
    const rank = ranked ? (await currentRank(db, drawer.memberId)).rank : 0;
    outcome = await drawLots(db, { ...draw, memberId: drawer.memberId, rank });
  } else {
    // One database call with the session inside it; the draw function also answers GACHA_NOT_FOUND.
    // Packs with a minimum rank, and sessions due for better-auth's refresh, take the longer way.
    outcome = ranked ? 'refresh' : await drawLotsForSession(db, { ...draw, sessionToken: drawer.sessionToken });
    if (outcome === 'refresh') {
      const member = await drawer.resolveMember();
      if (!member) return null;
      const rank = ranked ? (await currentRank(db, member.id)).rank : 0;
      outcome = await drawLots(db, { ...draw, memberId: member.id, rank });
    }
  }
  if (outcome.ok && !outcome.result.replay) services.live?.noteChange(outcome.result.gachaId);
  services.metrics?.draw(outcome);
  return outcome;
}

/** Only packs with a minimum rank need the member's rank (one query less on every other draw). */
const rankedPacks = new Map<string, { minRank: number | null; at: number }>();
async function packNeedsRank(db: Database, id: string): Promise<boolean> {
  const cached = rankedPacks.get(id);
  if (cached && Date.now() - cached.at < 60_000) return cached.minRank !== null;
  const detail = await getGachaDetail(db, id);
  rankedPacks.set(id, { minRank: detail?.minRank ?? null, at: Date.now() });
  return (detail?.minRank ?? null) !== null;
}
