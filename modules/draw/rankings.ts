// Read models for the ranking boards until the rankings module exists: the day's luckiest hits and the
// week's experience, both counted from completed draws (indexed by draws_completed_created_idx).
import { sql } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { addDays, addWeeks, startOfDay, startOfWeek } from 'date-fns';
import { queryRows, type Database } from '#db/client';

/** A board shows at most this many members. */
export const RANKING_SIZE = 100;

/** A period of a board: [from, to) in UTC instants, bounded by Japan-time midnights. */
export interface RankingPeriod {
  from: Date;
  to: Date;
}

/**
 * The Japan-time day or week (Monday 00:00 to the next Monday 00:00) that contains `now`.
 * @example jstPeriod('day', new Date('2026-11-23T15:00:00Z')).from.toISOString() === '2026-11-23T15:00:00.000Z'
 */
export function jstPeriod(kind: 'day' | 'week', now: Date): RankingPeriod {
  const local = new TZDate(now, 'Asia/Tokyo');
  if (kind === 'day') {
    const from = startOfDay(local);
    return { from: new Date(from.getTime()), to: new Date(addDays(from, 1).getTime()) };
  }
  const from = startOfWeek(local, { weekStartsOn: 1 });
  return { from: new Date(from.getTime()), to: new Date(addWeeks(from, 1).getTime()) };
}

/** One member's line on a board. Ties share a place (1 + members strictly ahead). */
export interface RankingEntry {
  place: number;
  memberId: string;
  /** Weekly exp: coins drawn. Daily luck: the best hit's multiple of its draw's price, in hundredths (×12.5 → 1250). */
  score: number;
  /** The hit behind a luck score; null on the exp board. */
  hit: { gachaId: string; tierId: string; conversionValue: number; pricePerDraw: number } | null;
}

export interface RankingBoard {
  entries: RankingEntry[];
  /** The asking member's line, also when outside the top 100; null when the member has no score in the period. */
  me: RankingEntry | null;
}

type Row = Record<string, unknown>;

/**
 * Members by experience gained in the period (1 exp per coin drawn, as the draw adds it), top 100.
 * @example const board = await weeklyExpRanking(db, jstPeriod('week', new Date()), member.id)
 */
export async function weeklyExpRanking(
  db: Database,
  period: RankingPeriod,
  memberId: string | null,
): Promise<RankingBoard> {
  // One aggregate over the period's completed draws; a CTE keeps the member's own line in the same pass.
  const rows = await queryRows<Row>(
    db,
    sql`
    with totals as (
      select member_id, sum(cost)::bigint as score, max(created_at) as last_at
      from draws
      where status = 'completed' and created_at >= ${period.from.toISOString()}::timestamptz and created_at < ${period.to.toISOString()}::timestamptz
      group by member_id
    ), placed as (
      select member_id, score, rank() over (order by score desc) as place,
        row_number() over (order by score desc, last_at asc, member_id asc) as ord
      from totals
    )
    (select 'board' as part, member_id, score, place, ord from placed order by ord limit ${RANKING_SIZE})
    union all
    (select 'me' as part, member_id, score, place, ord from placed where member_id = ${memberId ?? ''})`,
  );
  return toBoard(rows, () => null);
}

/**
 * Members by their single luckiest prize of the period: conversion value ÷ the price of one draw of
 * that pack (cost ÷ count of the draw that won it), best hit per member, top 100. Ties go to the
 * earlier hit.
 * @example const board = await dailyLuckRanking(db, jstPeriod('day', new Date()), null)
 */
export async function dailyLuckRanking(
  db: Database,
  period: RankingPeriod,
  memberId: string | null,
): Promise<RankingBoard> {
  // Draws of the period through draws_completed_created_idx, their prizes through prizes_draw_idx.
  // The score is integer hundredths of the multiple, so ordering never depends on floats.
  const rows = await queryRows<Row>(
    db,
    sql`
    with hits as (
      select distinct on (d.member_id)
        d.member_id, p.gacha_id, p.tier_id, p.conversion_value, (d.cost / d.count) as price,
        (p.conversion_value::bigint * d.count * 100 / d.cost) as score, d.created_at as hit_at
      from draws d
      join prizes p on p.draw_id = d.id
      where d.status = 'completed' and d.cost > 0
        and d.created_at >= ${period.from.toISOString()}::timestamptz and d.created_at < ${period.to.toISOString()}::timestamptz
      order by d.member_id, score desc, d.created_at asc, p.conversion_value desc
    ), placed as (
      select *, rank() over (order by score desc) as place, row_number() over (order by score desc, hit_at asc, member_id asc) as ord from hits
    )
    (select 'board' as part, member_id, score, place, ord, gacha_id, tier_id, conversion_value, price from placed order by ord limit ${RANKING_SIZE})
    union all
    (select 'me' as part, member_id, score, place, ord, gacha_id, tier_id, conversion_value, price from placed where member_id = ${memberId ?? ''})`,
  );
  return toBoard(rows, (row) => ({
    gachaId: String(row.gacha_id),
    tierId: String(row.tier_id),
    conversionValue: Number(row.conversion_value),
    pricePerDraw: Number(row.price),
  }));
}

/** Splits the query's two parts: the board in its order, and the member's own line. */
function toBoard(rows: Row[], hitOf: (row: Row) => RankingEntry['hit']): RankingBoard {
  const toEntry = (row: Row): RankingEntry => ({
    place: Number(row.place),
    memberId: String(row.member_id),
    score: Number(row.score),
    hit: hitOf(row),
  });
  const board = rows.filter((row) => row.part === 'board').sort((a, b) => Number(a.ord) - Number(b.ord));
  const mine = rows.find((row) => row.part === 'me');
  return { entries: board.map(toEntry), me: mine ? toEntry(mine) : null };
}
