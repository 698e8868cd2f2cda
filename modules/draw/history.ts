// A member's own draw history (当選履歴 in マイページ): completed draws with filters (pack, period, best
// hits, キリ番・ラストワン), keyset pages, and for a finished pack the proof of each draw (seed, lot numbers).
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Database } from '#db/client';
import { packTitles, revealedPackProofs, tierCards, type TierCard } from '#modules/gacha';
import { isUuid } from '#modules/kernel';
import { draws } from './schema';
import { cursorTimeOf } from './winners';
import { isTopTier } from './top-tier';

export const DRAW_HISTORY_PERIODS = ['7d', '30d', '90d', 'all'] as const;
export type DrawHistoryPeriod = (typeof DRAW_HISTORY_PERIODS)[number];
export const DRAW_HISTORY_HITS = ['all', 'top', 'kiriban', 'lastone'] as const;
export type DrawHistoryHits = (typeof DRAW_HISTORY_HITS)[number];

const PERIOD_DAYS: Record<DrawHistoryPeriod, number | null> = { '7d': 7, '30d': 30, '90d': 90, all: null };

/** The history's filters, one schema for the page and the API. Japanese messages for each field. */
export const drawHistoryFilterSchema = z.object({
  gachaId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'オリパの指定が正しくありません。')
    .optional(),
  period: z.enum(DRAW_HISTORY_PERIODS, { error: '期間は 7d, 30d, 90d, all から選んでください。' }).default('all'),
  hits: z
    .enum(DRAW_HISTORY_HITS, { error: '絞り込みは all, top, kiriban, lastone から選んでください。' })
    .default('all'),
});
export type DrawHistoryFilter = z.output<typeof drawHistoryFilterSchema>;

/** A position in the history (the last draw of a page). */
export const drawHistoryPositionSchema = z.object({
  createdAt: z.iso.datetime({ offset: true }),
  id: z.string().refine(isUuid),
});
export type DrawHistoryPosition = z.output<typeof drawHistoryPositionSchema>;

export interface DrawHistoryTier {
  tierId: string;
  tierLabel: string;
  effect: TierCard['effect'];
  cardName: string;
  imagePath: string;
  count: number;
  /** A top tier (the winners feed's rule). */
  top: boolean;
}

export interface DrawHistoryItem {
  drawId: string;
  gachaId: string;
  genreId: string;
  gachaTitle: string;
  count: number;
  cost: number;
  createdAt: string;
  lastOne: boolean;
  /** The キリ番 this draw won (lot numbers sold). */
  kiriban: number[];
  /** What it won, by tier, best first. */
  tiers: DrawHistoryTier[];
  /**
   * For a pack that is over (its seed published): the seed, the commitment published before the sale,
   * and the lot numbers (positions in the committed order) this draw took. Null while on sale.
   */
  proof: { seed: string; commitment: string; committedAt: string; positions: number[] } | null;
}

/** Draws a history page holds at most. */
export const DRAW_HISTORY_MAX_PAGE = 50;

/**
 * The member's completed draws, newest first (draws_member_idx), filtered. Only the member's own
 * draws: every query is bound to `memberId`. `top` reads the winners feed's rows (draw_wins), which
 * are written seconds after a draw commits.
 * @example const { items, next } = await listDrawHistory(db, member.id, { period: '30d', hits: 'top' }, { limit: 20, highlightCoins: 10000 })
 */
export async function listDrawHistory(
  db: Database,
  memberId: string,
  filter: DrawHistoryFilter,
  options: {
    limit: number;
    before?: DrawHistoryPosition;
    highlightCoins: number;
    now?: Date;
    /** Also the packs the member has drawn (the page's pack filter), their titles read with the page's. */
    withPacks?: boolean;
  },
): Promise<{ items: DrawHistoryItem[]; next: DrawHistoryPosition | null; packs?: DrawnPack[] }> {
  const limit = Math.min(Math.max(options.limit, 1), DRAW_HISTORY_MAX_PAGE);
  const days = PERIOD_DAYS[filter.period];
  const since = days === null ? null : new Date((options.now ?? new Date()).getTime() - days * 86_400_000);
  const before = options.before && isUuid(options.before.id) ? options.before : undefined;
  // Read beside the page's rows; awaited below (handled now, so a failure of the rows' read leaves no
  // unhandled rejection behind).
  const drawnPackIds = options.withPacks ? drawnPackIdsOf(db, memberId) : Promise.resolve(null);
  drawnPackIds.catch(() => undefined);
  const rows = await db
    .select({
      id: draws.id,
      gachaId: draws.gachaId,
      count: draws.count,
      cost: draws.cost,
      lastOne: draws.lastOne,
      createdAt: draws.createdAt,
      cursorAt: cursorTimeOf(draws.createdAt),
    })
    .from(draws)
    .where(
      and(
        eq(draws.memberId, memberId),
        eq(draws.status, 'completed'),
        filter.gachaId ? eq(draws.gachaId, filter.gachaId) : undefined,
        since ? sql`${draws.createdAt} >= ${since.toISOString()}::timestamptz` : undefined,
        filter.hits === 'lastone' ? eq(draws.lastOne, true) : undefined,
        filter.hits === 'kiriban'
          ? // キリ番賞 and the extras numbered like it: 個人キリ番賞, ピタリ賞 (decision 088), 天井賞 (decision 089)
            sql`exists (select 1 from prizes p where p.draw_id = ${draws.id}
                          and (p.kiriban_no is not null or p.personal_kiriban_no is not null
                               or p.pitari_of is not null or p.ceiling_no is not null))`
          : undefined,
        filter.hits === 'top' ? sql`exists (select 1 from draw_wins w where w.draw_id = ${draws.id})` : undefined,
        before
          ? sql`(${draws.createdAt}, ${draws.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(draws.createdAt), desc(draws.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const packIds = await drawnPackIds;
  const withPacks = (titles: Map<string, { title: string }>) =>
    packIds
      ? { packs: packIds.map((gachaId) => ({ gachaId, gachaTitle: titles.get(gachaId)?.title ?? gachaId })) }
      : {};
  if (page.length === 0)
    return { items: [], next: null, ...withPacks(packIds?.length ? await packTitles(db, packIds) : new Map()) };
  const drawIds = page.map((r) => r.id);
  // One row per draw and tier: the count, the value, the lot numbers and the キリ番 (prizes_draw_idx).
  const groups = await queryRows<{
    draw_id: string;
    tier_id: string;
    n: number | string;
    value: number;
    positions: number[] | null;
    kiriban: number[] | null;
  }>(
    db,
    sql`select draw_id, tier_id, count(*) as n, max(conversion_value) as value,
               array_agg(position order by position) filter (where position is not null) as positions,
               array_agg(kiriban_no order by kiriban_no) filter (where kiriban_no is not null) as kiriban
          from prizes
         where member_id = ${memberId} and draw_id in (${sql.join(
           drawIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})
         group by draw_id, tier_id`,
  );
  const [cards, packs, proofs] = await Promise.all([
    tierCards(
      db,
      groups.map((g) => g.tier_id),
    ),
    // One read of titles for the page's rows and the pack filter's list.
    packTitles(db, [...new Set([...page.map((r) => r.gachaId), ...(packIds ?? [])])]),
    revealedPackProofs(
      db,
      page.map((r) => r.gachaId),
    ),
  ]);
  const items = page.map((r): DrawHistoryItem => {
    const mine = groups.filter((g) => g.draw_id === r.id);
    const tiers = mine
      .flatMap((g): (DrawHistoryTier & { rank: number })[] => {
        const card = cards.get(g.tier_id);
        if (!card) return [];
        return [
          {
            tierId: g.tier_id,
            tierLabel: card.tierLabel,
            effect: card.effect,
            cardName: card.cardName,
            imagePath: card.imagePath,
            count: Number(g.n),
            top: isTopTier({ ...card, conversionValue: Number(g.value) }, options.highlightCoins),
            rank: card.isLastOne ? -1 : card.tierRank,
          },
        ];
      })
      .sort((a, b) => a.rank - b.rank)
      .map(({ rank: _rank, ...tier }) => tier);
    const proof = proofs.get(r.gachaId);
    const pack = packs.get(r.gachaId);
    return {
      drawId: r.id,
      gachaId: r.gachaId,
      genreId: pack?.genreId ?? '',
      gachaTitle: pack?.title ?? r.gachaId,
      count: r.count,
      cost: r.cost,
      createdAt: new Date(r.createdAt).toISOString(),
      lastOne: r.lastOne,
      kiriban: mine.flatMap((g) => g.kiriban ?? []).sort((a, b) => a - b),
      tiers,
      proof: proof ? { ...proof, positions: mine.flatMap((g) => g.positions ?? []).sort((a, b) => a - b) } : null,
    };
  });
  const last = page.at(-1);
  return {
    items,
    next: rows.length > limit && last ? { createdAt: last.cursorAt, id: last.id } : null,
    ...withPacks(packs),
  };
}

/** A pack in the history's pack filter. */
export interface DrawnPack {
  gachaId: string;
  gachaTitle: string;
}

/** The packs the member has drawn, most recent first (the history's pack filter), at most 100. */
async function drawnPackIdsOf(db: Database, memberId: string): Promise<string[]> {
  const rows = await db
    .select({ gachaId: draws.gachaId, last: sql<string>`max(${draws.createdAt})` })
    .from(draws)
    .where(and(eq(draws.memberId, memberId), eq(draws.status, 'completed')))
    .groupBy(draws.gachaId)
    .orderBy(sql`max(${draws.createdAt}) desc`)
    .limit(100);
  return rows.map((r) => r.gachaId);
}
