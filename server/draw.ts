// The draw as one use case (issue 30 item 2): what both entrances do around the draw module's
// transaction — the pack page's form action (app/controllers/draw-action.server.ts) and the API's createDraw
// (server/api/v1/draws.ts). The member's rank where the pack asks for one, the draw itself, the live
// remaining counts after a new draw, and the draw's count in the metrics. Each entrance keeps only its
// own reading of the request and its own answer (a redirect to the result, or JSON).
import type { Database } from '#db/client';
import { drawLots, drawLotsForSession, type DrawOutcome } from '#modules/draw';
import { getGachaDetail } from '#modules/gacha';
import { currentRank } from '#modules/progression';
import { noteWaitingRoomDraw } from '#modules/waitingroom';
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
  /** The pack's cap when it opens through a waiting room, else null, when the caller has read the pack; else read here. */
  waitingRoomCap?: number | null;
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
  const terms =
    request.minRank !== undefined && request.waitingRoomCap !== undefined
      ? { minRank: request.minRank, waitingRoomCap: request.waitingRoomCap }
      : await packDrawTerms(db, request.gachaId);
  const ranked = (request.minRank !== undefined ? request.minRank : terms.minRank) !== null;
  const roomCap = request.waitingRoomCap !== undefined ? request.waitingRoomCap : terms.waitingRoomCap;
  let outcome: DrawOutcome | 'refresh';
  let memberId: string | null = null;
  if ('memberId' in drawer) {
    memberId = drawer.memberId;
    const rank = ranked ? (await currentRank(db, drawer.memberId)).rank : 0;
    outcome = await drawLots(db, { ...draw, memberId: drawer.memberId, rank });
  } else {
    // One database call with the session inside it; the draw function also answers GACHA_NOT_FOUND.
    // Packs with a minimum rank or a waiting room (whose window is noted by member below), and sessions due
    // for better-auth's refresh, take the longer way.
    outcome =
      ranked || roomCap !== null
        ? 'refresh'
        : await drawLotsForSession(db, { ...draw, sessionToken: drawer.sessionToken });
    if (outcome === 'refresh') {
      const member = await drawer.resolveMember();
      if (!member) return null;
      memberId = member.id;
      const rank = ranked ? (await currentRank(db, member.id)).rank : 0;
      outcome = await drawLots(db, { ...draw, memberId: member.id, rank });
    }
  }
  if (outcome.ok && !outcome.result.replay) {
    services.live?.noteChange(outcome.result.gachaId);
    // The waiting room (decision 087): a window that reached the cap ends now, and the next member comes in.
    if (roomCap !== null && memberId)
      await noteWaitingRoomDraw(db, { gachaId: request.gachaId, memberId, count: outcome.result.count, cap: roomCap });
  }
  services.metrics?.draw(outcome);
  return outcome;
}

/**
 * Only packs with a minimum rank need the member's rank (one query less on every other draw), and only packs
 * with a waiting room a note of the member's window; both are fixed at publication, read once a minute.
 */
const drawTermsOfPacks = new Map<string, { minRank: number | null; waitingRoomCap: number | null; at: number }>();
async function packDrawTerms(
  db: Database,
  id: string,
): Promise<{ minRank: number | null; waitingRoomCap: number | null }> {
  const cached = drawTermsOfPacks.get(id);
  if (cached && Date.now() - cached.at < 60_000) return cached;
  const detail = await getGachaDetail(db, id);
  const terms = {
    minRank: detail?.minRank ?? null,
    waitingRoomCap: detail?.waitingRoom ? detail.perMemberLimit : null,
    at: Date.now(),
  };
  drawTermsOfPacks.set(id, terms);
  return terms;
}
