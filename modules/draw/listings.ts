// Reading the prize box and the draws: a member's prizes and draws, the operators' views, counts, and
// the per-member and monthly figures the draw limits use.
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { prizes, draws, gachaMemberDraws, type PrizeStatus } from './schema';
import { packTitles, tierCards } from '#modules/gacha';
import { isUuid } from '#modules/kernel';
import { jstMonthStart, nextJstMonthStart } from '#modules/limits';
import type { PrizeItem } from './contract';

export interface PrizeBoxItem extends PrizeItem {
  /** How many of its pack's regular tiers stand below the prize's (0: the pack's lowest; decision 057). */
  tiersBelow: number;
  /** A kept prize's end of storage (then it is converted); null for the others. */
  keepUntil: string | null;
  drawId: string;
  gachaId: string;
  gachaTitle: string;
  genreId: string;
  createdAt: string;
}

/**
 * The member's prize box, newest first. `status` filters (default: the undecided and kept ones).
 * @example const { items, nextBefore } = await listPrizes(db, member.id, { status: ['pending'] })
 */
export async function listPrizes(
  db: Database,
  memberId: string,
  options: { status?: PrizeStatus[]; limit?: number; before?: { createdAt: string; id: string } } = {},
): Promise<{ items: PrizeBoxItem[]; next: { createdAt: string; id: string } | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const statuses = options.status?.length ? options.status : (['pending', 'kept'] as PrizeStatus[]);
  const before = options.before;
  const rows = await db
    .select({
      prizeId: prizes.id,
      drawId: prizes.drawId,
      gachaId: prizes.gachaId,
      position: prizes.position,
      kiriban: prizes.kiribanNo,
      personalKiriban: prizes.personalKiribanNo,
      pitariOf: prizes.pitariOf,
      ceilingNo: prizes.ceilingNo,
      status: prizes.status,
      decideBy: prizes.decideBy,
      keepUntil: prizes.keepUntil,
      conversionValue: prizes.conversionValue,
      createdAt: prizes.createdAt,
      tierId: prizes.tierId,
      // The cursor keeps the full microsecond precision of the claim time.
      cursorAt: sql<string>`to_char(${prizes.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(prizes)
    .where(
      and(
        eq(prizes.memberId, memberId),
        inArray(prizes.status, statuses),
        before
          ? sql`(${prizes.createdAt}, ${prizes.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(prizes.createdAt), desc(prizes.id))
    .limit(limit + 1);
  const cards = await tierCards(
    db,
    rows.slice(0, limit).map((r) => r.tierId),
  );
  const items = rows.slice(0, limit).flatMap(({ cursorAt: _cursorAt, ...r }) => {
    const card = cards.get(r.tierId);
    if (!card) return [];
    const { gachaId: _gachaId, ...named } = card;
    return [
      {
        ...r,
        ...named,
        decideBy: new Date(r.decideBy).toISOString(),
        keepUntil: r.status === 'kept' && r.keepUntil ? new Date(r.keepUntil).toISOString() : null,
        createdAt: new Date(r.createdAt).toISOString(),
      },
    ];
  });
  const last = rows[limit - 1];
  return { items, next: rows.length > limit && last ? { createdAt: last.cursorAt, id: last.prizeId } : null };
}

/** One of a member's draws as the operators' member console lists it. */
export interface MemberDrawRow {
  id: string;
  gachaId: string;
  gachaTitle: string;
  count: number;
  cost: number;
  status: string;
  errorCode: string | null;
  lastOne: boolean;
  /** The キリ番 this draw won (lot numbers), if any. */
  kiriban: number[];
  createdAt: string;
}

/**
 * A member's draws, newest first, a page of `limit` before the cursor (draws_member_idx serves it).
 * @example const { items, next } = await listMemberDraws(db, memberId, { limit: 20 })
 */
export async function listMemberDraws(
  db: Database,
  memberId: string,
  options: { limit: number; before?: { createdAt: string; id: string } },
): Promise<{ items: MemberDrawRow[]; next: { createdAt: string; id: string } | null }> {
  const limit = Math.min(Math.max(options.limit, 1), 100);
  const before = options.before && isUuid(options.before.id) ? options.before : undefined;
  const rows = await db
    .select({
      id: draws.id,
      gachaId: draws.gachaId,
      count: draws.count,
      cost: draws.cost,
      status: draws.status,
      errorCode: draws.errorCode,
      lastOne: draws.lastOne,
      createdAt: draws.createdAt,
      cursorAt: sql<string>`to_char(${draws.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(draws)
    .where(
      and(
        eq(draws.memberId, memberId),
        before
          ? sql`(${draws.createdAt}, ${draws.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(draws.createdAt), desc(draws.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const packs = await packTitles(
    db,
    page.map((r) => r.gachaId),
  );
  const kiriban = page.length
    ? await db
        .select({ drawId: prizes.drawId, no: prizes.kiribanNo })
        .from(prizes)
        .where(
          and(
            eq(prizes.memberId, memberId),
            inArray(
              prizes.drawId,
              page.map((r) => r.id),
            ),
            isNotNull(prizes.kiribanNo),
          ),
        )
    : [];
  const last = page.at(-1);
  return {
    items: page.map(({ cursorAt: _cursorAt, ...r }) => ({
      ...r,
      kiriban: kiriban.filter((k) => k.drawId === r.id).map((k) => k.no!),
      gachaTitle: packs.get(r.gachaId)?.title ?? r.gachaId,
      createdAt: new Date(r.createdAt).toISOString(),
    })),
    next: rows.length > limit && last ? { createdAt: last.cursorAt, id: last.id } : null,
  };
}

/**
 * What the member's own draws were (pack and count), for the coin history. Another member's draw
 * is simply absent.
 * @example (await describeDraws(db, member.id, [drawId])).get(drawId)?.gachaTitle
 */
export async function describeDraws(
  db: Database,
  memberId: string,
  drawIds: string[],
): Promise<Map<string, { gachaId: string; genreId: string; gachaTitle: string; count: number }>> {
  const ids = drawIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: draws.id, gachaId: draws.gachaId, count: draws.count })
    .from(draws)
    .where(and(eq(draws.memberId, memberId), inArray(draws.id, ids)));
  const packs = await packTitles(
    db,
    rows.map((r) => r.gachaId),
  );
  return new Map(
    rows.flatMap(({ id, gachaId, count }) => {
      const pack = packs.get(gachaId);
      return pack ? [[id, { gachaId, genreId: pack.genreId, gachaTitle: pack.title, count }] as const] : [];
    }),
  );
}

/**
 * The member's latest completed draws, newest first (pack title and count): what a member may name in
 * an inquiry. Another member's draws never appear.
 * @example const draws = await listRecentDraws(db, member.id, 10)
 */
export async function listRecentDraws(
  db: Database,
  memberId: string,
  limit: number,
): Promise<
  { drawId: string; gachaId: string; genreId: string; gachaTitle: string; count: number; createdAt: string }[]
> {
  const rows = await db
    .select({ id: draws.id, gachaId: draws.gachaId, count: draws.count, createdAt: draws.createdAt })
    .from(draws)
    .where(and(eq(draws.memberId, memberId), eq(draws.status, 'completed')))
    .orderBy(desc(draws.createdAt), desc(draws.id))
    .limit(Math.min(Math.max(limit, 1), 100));
  const packs = await packTitles(
    db,
    rows.map((r) => r.gachaId),
  );
  return rows.flatMap((r) => {
    const pack = packs.get(r.gachaId);
    return pack
      ? [
          {
            drawId: r.id,
            gachaId: r.gachaId,
            genreId: pack.genreId,
            gachaTitle: pack.title,
            count: r.count,
            createdAt: r.createdAt.toISOString(),
          },
        ]
      : [];
  });
}

/**
 * The member's own prizes by id (tier and card), for the coin history's conversion rows.
 * @example (await describePrizes(db, member.id, prizeIds)).get(prizeId)?.cardName
 */
export async function describePrizes(
  db: Database,
  memberId: string,
  prizeIds: string[],
): Promise<
  Map<
    string,
    {
      tierLabel: string;
      tierRank: number;
      isLastOne: boolean;
      effect: PrizeItem['effect'];
      cardName: string;
      conversionValue: number;
    }
  >
> {
  const ids = prizeIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: prizes.id, conversionValue: prizes.conversionValue, tierId: prizes.tierId })
    .from(prizes)
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.id, ids)));
  const cards = await tierCards(
    db,
    rows.map((r) => r.tierId),
  );
  return new Map(
    rows.flatMap(({ id, conversionValue, tierId }) => {
      const card = cards.get(tierId);
      if (!card) return [];
      const { tierLabel, tierRank, isLastOne, effect, cardName } = card;
      return [[id, { tierLabel, tierRank, isLastOne, effect, cardName, conversionValue }] as const];
    }),
  );
}

/**
 * How many of the member's prizes are in each state (the prize box's filters).
 * @example await countPrizesByStatus(db, member.id) // { pending: 12, kept: 3, converted: 80, shipping: 0 }
 */
export async function countPrizesByStatus(db: Database, memberId: string): Promise<Record<PrizeStatus, number>> {
  const rows = await db
    .select({ status: prizes.status, n: sql<string>`count(*)` })
    .from(prizes)
    .where(eq(prizes.memberId, memberId))
    .groupBy(prizes.status);
  const counts: Record<PrizeStatus, number> = { pending: 0, kept: 0, converted: 0, shipping: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/**
 * The member's prizes still at the shop (undecided, kept, being shipped): how many of each and their
 * conversion value in coins (a restricted member's statement, decision 084).
 * @example await prizeHoldingsOf(db, member.id) // { counts: { pending: 2, kept: 1, shipping: 0 }, value: 1500 }
 */
export async function prizeHoldingsOf(
  db: Database,
  memberId: string,
): Promise<{ counts: { pending: number; kept: number; shipping: number }; value: number }> {
  const rows = await db
    .select({
      status: prizes.status,
      n: sql<string>`count(*)`,
      value: sql<string>`coalesce(sum(${prizes.conversionValue}), 0)`,
    })
    .from(prizes)
    .where(and(eq(prizes.memberId, memberId), inArray(prizes.status, ['pending', 'kept', 'shipping'])))
    .groupBy(prizes.status);
  const counts = { pending: 0, kept: 0, shipping: 0 };
  let value = 0;
  for (const row of rows) {
    if (row.status === 'converted') continue;
    counts[row.status] = Number(row.n);
    value += Number(row.value);
  }
  return { counts, value };
}

/** Lots a member has drawn from a pack with a per-member limit (0 when none). */
export async function memberDrawnLots(db: Database, gachaId: string, memberId: string): Promise<number> {
  return (await memberPackStanding(db, gachaId, memberId)).lots;
}

/**
 * A member's lots of a pack and their 天井 streak (decision 089: lots since their last hit or 天井賞), for the
 * pack and result pages' meters. One primary-key read; zeros for a member who has not drawn it.
 * @example await memberPackStanding(db, 'stellar-yugioh-001', memberId) // { lots: 62, ceilingStreak: 12 }
 */
export async function memberPackStanding(
  db: Database,
  gachaId: string,
  memberId: string,
): Promise<{ lots: number; ceilingStreak: number }> {
  const [row] = await db
    .select({ lots: gachaMemberDraws.lots, ceilingStreak: gachaMemberDraws.ceilingStreak })
    .from(gachaMemberDraws)
    .where(and(eq(gachaMemberDraws.gachaId, gachaId), eq(gachaMemberDraws.memberId, memberId)));
  return { lots: row?.lots ?? 0, ceilingStreak: row?.ceilingStreak ?? 0 };
}

/**
 * Coins the member spent on completed draws in the Japan-time month of `now`: what the
 * draw-spend limit counts (draw.sql counts the same inside the draw). One range read on draws_member_idx.
 * @example const spent = await monthlyDrawSpend(db, memberId) // 12000
 */
export async function monthlyDrawSpend(db: Database, memberId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${draws.cost}), 0)` })
    .from(draws)
    .where(
      and(
        eq(draws.memberId, memberId),
        sql`${draws.createdAt} >= ${jstMonthStart(now).toISOString()}::timestamptz`,
        sql`${draws.createdAt} < ${nextJstMonthStart(now).toISOString()}::timestamptz`,
        eq(draws.status, 'completed'),
      ),
    );
  return Number(row?.total ?? 0);
}
