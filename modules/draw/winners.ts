// The winners feed (当選履歴, docs/decisions/036): top-tier prizes copied into draw_wins after their
// draw committed, and read back newest first with the card, the pack and the member's chosen name.
import { and, desc, eq, inArray, sql, type AnyColumn } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Database } from '#db/client';
import { getGachaDetail, shownPackIds, tierCards, type TierCard } from '#modules/gacha';
import { ANONYMOUS_WINNER_NAME, sponsoredAt, sponsorshipSpans, winnersFeedNames } from '#modules/identity';
import { drawWins } from './schema';
import { isTopTier } from './top-tier';

/** One entry of the public feed: nothing private (no member id, no email, no prize id). */
export interface WinnerFeedEntry {
  /** The feed row's own id (opaque; the stream and the page dedupe by it). */
  id: string;
  wonAt: string;
  /** The nickname of a member who chose to be named, else 「匿名」. */
  name: string;
  tierLabel: string;
  effect: TierCard['effect'];
  cardName: string;
  imagePath: string;
  gachaId: string;
  genreId: string;
  gachaTitle: string;
  /** The member was a sponsored account (streamer, affiliate) when they won: the feed shows 「PR」 (decision 083). */
  sponsored: boolean;
}

/** A position in the feed (the last entry of a page): newest first by (wonAt, id). */
export const winnerFeedPositionSchema = z.object({
  wonAt: z.iso.datetime({ offset: true }),
  id: z.string().regex(/^\d{1,18}$/),
});
export type WinnerFeedPosition = z.output<typeof winnerFeedPositionSchema>;

/**
 * A timestamp column as a page position: UTC ISO with microseconds, so the next page starts exactly after it.
 * @example db.select({ cursorAt: cursorTimeOf(drawWins.wonAt) })
 */
export const cursorTimeOf = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Entries a feed page holds at most. */
export const WINNER_FEED_MAX_PAGE = 50;

/**
 * Copies the pack's new top-tier prizes into the feed: those of completed draws created since `since`
 * (and before `until`, when given), once each (the prize id is unique there). Runs after the draws
 * committed — the live recount and the catch-up job call it — so the draw's own transaction is untouched.
 * Answers the new rows' ids. A draft or unknown pack records nothing. One draw's prizes may share a time
 * (a coarse clock) and prize ids are random, so within a time the feed keeps the draw's own order: its lots,
 * then a キリ番賞, then the ラストワン賞.
 * @example const ids = await recordWins(db, 'stellar-pokemon-001', { highlightCoins: 10000, since: new Date(Date.now() - 60_000) })
 */
export async function recordWins(
  db: Database,
  gachaId: string,
  rules: { highlightCoins: number; since: Date; until?: Date },
): Promise<string[]> {
  const pack = await getGachaDetail(db, gachaId);
  if (!pack) return [];
  const top = pack.tiers.filter((t) => isTopTier({ ...t, tierRank: t.rank }, rules.highlightCoins)).map((t) => t.id);
  if (top.length === 0) return [];
  // draws_gacha_idx finds the pack's recent draws, prizes_draw_idx their prizes.
  const rows = await queryRows<{ id: string | number }>(
    db,
    sql`insert into draw_wins (prize_id, draw_id, member_id, gacha_id, tier_id, won_at)
        select p.id, p.draw_id, p.member_id, p.gacha_id, p.tier_id, p.created_at
          from draws d join prizes p on p.draw_id = d.id
         where d.gacha_id = ${gachaId} and d.status = 'completed' and d.created_at >= ${rules.since.toISOString()}::timestamptz
           ${rules.until ? sql`and d.created_at < ${rules.until.toISOString()}::timestamptz` : sql``}
           and p.tier_id in (${sql.join(
             top.map((id) => sql`${id}`),
             sql`, `,
           )})
         order by p.created_at, p.position nulls last, p.kiriban_no nulls last, p.id
        on conflict (prize_id) do nothing
        returning id`,
  );
  return rows.map((r) => String(r.id));
}

/**
 * Packs with a completed draw between `since` and `until` (draws_completed_created_idx): what the catch-up
 * job scans.
 * @example await recentlyDrawnPacks(db, new Date(Date.now() - 600_000), new Date(Date.now() - 60_000)) // ['stellar-pokemon-001']
 */
export async function recentlyDrawnPacks(db: Database, since: Date, until: Date): Promise<string[]> {
  const rows = await queryRows<{ gacha_id: string }>(
    db,
    sql`select distinct gacha_id from draws
         where status = 'completed' and created_at >= ${since.toISOString()}::timestamptz
           and created_at < ${until.toISOString()}::timestamptz`,
  );
  return rows.map((r) => r.gacha_id);
}

/**
 * The catch-up: records the wins of every pack drawn in the last `windowSeconds` that the live path
 * missed (an instance stopped between a draw's commit and its recount). Answers how many were new.
 * Draws of the last `graceSeconds` are left to the live path: it records and announces them about a
 * second after the draw, and a win the catch-up had recorded first would reach no open stream (the live
 * path announces only the rows it inserted).
 * @example await recordRecentWins(db, { highlightCoins: 10000, windowSeconds: 900, graceSeconds: 60 })
 */
export async function recordRecentWins(
  db: Database,
  rules: { highlightCoins: number; windowSeconds: number; graceSeconds: number },
): Promise<number> {
  const now = Date.now();
  const since = new Date(now - rules.windowSeconds * 1000);
  const until = new Date(now - rules.graceSeconds * 1000);
  let recorded = 0;
  for (const gachaId of await recentlyDrawnPacks(db, since, until))
    recorded += (await recordWins(db, gachaId, { highlightCoins: rules.highlightCoins, since, until })).length;
  return recorded;
}

/**
 * The public feed, newest first: the whole shop's or one pack's. Only packs a visitor may see (a
 * public status in a shown genre, read now): a draft or a hidden genre's pack never appears, and a
 * hidden pack's own feed is empty. `ids` narrows to given rows (the live stream's new entries), `since` to
 * wins after a moment (a stream's catch-up).
 * @example const { items, next } = await listWins(db, { limit: 10 })
 */
export async function listWins(
  db: Database,
  options: {
    gachaId?: string;
    limit: number;
    before?: WinnerFeedPosition;
    ids?: string[];
    /** Only wins after this moment (a live stream's catch-up since the page was rendered). */
    since?: Date;
  },
): Promise<{ items: WinnerFeedEntry[]; next: WinnerFeedPosition | null }> {
  const limit = Math.min(Math.max(options.limit, 1), WINNER_FEED_MAX_PAGE);
  const shown = await shownPackIds(db);
  const packs = options.gachaId ? shown.filter((id) => id === options.gachaId) : shown;
  const ids = options.ids?.filter((id) => /^\d{1,18}$/.test(id));
  if (packs.length === 0 || (ids && ids.length === 0)) return { items: [], next: null };
  const rows = await db
    .select({
      id: drawWins.id,
      memberId: drawWins.memberId,
      tierId: drawWins.tierId,
      wonAt: drawWins.wonAt,
      cursorAt: cursorTimeOf(drawWins.wonAt),
    })
    .from(drawWins)
    .where(
      and(
        packs.length === 1 ? eq(drawWins.gachaId, packs[0]!) : inArray(drawWins.gachaId, packs),
        ids ? inArray(drawWins.id, ids.map(Number)) : undefined,
        options.before
          ? sql`(${drawWins.wonAt}, ${drawWins.id}) < (${options.before.wonAt}::timestamptz, ${Number(options.before.id)})`
          : undefined,
        options.since ? sql`${drawWins.wonAt} > ${options.since.toISOString()}::timestamptz` : undefined,
      ),
    )
    .orderBy(desc(drawWins.wonAt), desc(drawWins.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const [cards, names, spans] = await Promise.all([
    tierCards(
      db,
      page.map((r) => r.tierId),
    ),
    winnersFeedNames(
      db,
      page.map((r) => r.memberId),
    ),
    sponsorshipSpans(
      db,
      page.map((r) => r.memberId),
    ),
  ]);
  const items = page.flatMap((r): WinnerFeedEntry[] => {
    const card = cards.get(r.tierId);
    if (!card) return [];
    return [
      {
        id: String(r.id),
        wonAt: new Date(r.wonAt).toISOString(),
        name: names.get(r.memberId) ?? ANONYMOUS_WINNER_NAME,
        tierLabel: card.tierLabel,
        effect: card.effect,
        cardName: card.cardName,
        imagePath: card.imagePath,
        gachaId: card.gachaId,
        genreId: card.genreId,
        gachaTitle: card.gachaTitle,
        sponsored: sponsoredAt(spans.get(r.memberId), new Date(r.wonAt)),
      },
    ];
  });
  const last = page.at(-1);
  return { items, next: rows.length > limit && last ? { wonAt: last.cursorAt, id: String(last.id) } : null };
}
