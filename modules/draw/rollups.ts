// The draws' rollups for the operators' dashboard: a job folds completed draws into per-day rows
// (docs/decisions/028), so the dashboard reads tens of rows instead of scanning a million draws.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

/** What a fold needs: how old a draw must be before it is folded (see foldDrawRollups). */
export interface RollupFoldRules {
  /**
   * Seconds a row must have existed before it is folded. A draw's `created_at` is its transaction's
   * start, so one still committing may carry an instant before the watermark; the lag waits it out.
   */
  settleSeconds: number;
  /**
   * At most about this many draws per fold (one transaction): the first fold of a shop with years of
   * draws goes in several short transactions instead of one long one.
   */
  batchRows: number;
}

/** What one fold did: draws folded, and whether it reached the settled present (else fold again). */
export interface FoldOutcome {
  folded: number;
  caughtUp: boolean;
}

/** One Japan-time day of draws on the dashboard. */
export interface DrawDayFigures {
  /** YYYY-MM-DD, Asia/Tokyo. */
  day: string;
  draws: number;
  lots: number;
  coins: number;
  activeMembers: number;
}

/**
 * Folds the completed draws created since the last fold (and at least `settleSeconds` ago) into the
 * daily rollups, and moves the watermark, in one transaction. The watermark row is locked first, so
 * two runs at once (two instances, a retried job) take turns and the second finds nothing left:
 * every draw is counted exactly once. Folds about `batchRows` draws at most; `caughtUp` is false when
 * more are waiting (the job folds again).
 * @example const { folded, caughtUp } = await foldDrawRollups(db, { settleSeconds: 120, batchRows: 200_000 })
 */
export async function foldDrawRollups(db: Database, rules: RollupFoldRules): Promise<FoldOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into draw_rollup_marks (name, folded_to) values ('draws', '-infinity') on conflict do nothing`,
    );
    const [mark] = await queryRows<{ from: string; to: string; due: boolean }>(
      tx,
      sql`select folded_to::text as "from", (now() - make_interval(secs => ${rules.settleSeconds}))::text as "to",
                 folded_to < now() - make_interval(secs => ${rules.settleSeconds}) as due
            from draw_rollup_marks where name = 'draws' for update`,
    );
    if (!mark?.due) return { folded: 0, caughtUp: true };
    // The batch's end: the instant of the draw after the first `batchRows` (keyset on the completed
    // draws' created_at index); draws at that very instant go to the next batch, whole.
    const [edge] = await queryRows<{ at: string; moves: boolean }>(
      tx,
      sql`select created_at::text as at, created_at > ${mark.from}::timestamptz as moves from draws
           where status = 'completed' and created_at >= ${mark.from}::timestamptz and created_at < ${mark.to}::timestamptz
           order by created_at offset ${rules.batchRows} limit 1`,
    );
    // A batch's worth of draws at one instant would never move the mark: take them all then.
    const to = edge?.moves ? edge.at : mark.to;
    const [folded] = await queryRows<{ n: number }>(
      tx,
      sql`with batch as (
            select (created_at at time zone 'Asia/Tokyo')::date as day, gacha_id, member_id, count, cost
              from draws
             where status = 'completed' and created_at >= ${mark.from}::timestamptz and created_at < ${to}::timestamptz
          ), per_pack as (
            insert into draw_daily_rollups as r (day, gacha_id, draws, lots, coins)
            select day, gacha_id, count(*), sum(count), sum(cost) from batch group by day, gacha_id
            on conflict (day, gacha_id) do update
              set draws = r.draws + excluded.draws, lots = r.lots + excluded.lots, coins = r.coins + excluded.coins
          ), first_of_day as (
            insert into draw_member_days (day, member_id) select distinct day, member_id from batch
            on conflict do nothing returning day
          ), active as (
            insert into draw_daily_members as m (day, active_members)
            select day, count(*) from first_of_day group by day
            on conflict (day) do update set active_members = m.active_members + excluded.active_members
          )
          select count(*)::int as n from batch`,
    );
    await tx.execute(sql`update draw_rollup_marks set folded_to = ${to}::timestamptz where name = 'draws'`);
    return { folded: Number(folded?.n ?? 0), caughtUp: to === mark.to };
  });
}

/**
 * The folded figures of each Japan-time day from `fromDay` to `toDay` (inclusive), days without draws
 * included as zeros, oldest first. Reads only the rollups.
 * @example const days = await drawDailyFigures(db, '2027-05-01', '2027-05-30')
 */
export async function drawDailyFigures(db: Database, fromDay: string, toDay: string): Promise<DrawDayFigures[]> {
  const rows = await queryRows<{ day: string; draws: string; lots: string; coins: string; active: string }>(
    db,
    sql`select d.day::date::text as day, coalesce(r.draws, 0) as draws, coalesce(r.lots, 0) as lots,
               coalesce(r.coins, 0) as coins, coalesce(m.active_members, 0) as active
          from generate_series(${fromDay}::date, ${toDay}::date, interval '1 day') as d(day)
          left join (select day, sum(draws) as draws, sum(lots) as lots, sum(coins) as coins
                       from draw_daily_rollups where day between ${fromDay}::date and ${toDay}::date group by day) r
                 on r.day = d.day::date
          left join draw_daily_members m on m.day = d.day::date
         order by d.day`,
  );
  return rows.map((r) => ({
    day: r.day,
    draws: Number(r.draws),
    lots: Number(r.lots),
    coins: Number(r.coins),
    activeMembers: Number(r.active),
  }));
}

/**
 * Lots sold per pack over all folded days (for sell-through beside gacha's totals).
 * @example const sold = await foldedLotsByPack(db) // Map { 'stellar-001' => 320 }
 */
export async function foldedLotsByPack(db: Database): Promise<Map<string, number>> {
  const rows = await queryRows<{ gacha_id: string; lots: string }>(
    db,
    sql`select gacha_id, sum(lots) as lots from draw_daily_rollups group by gacha_id`,
  );
  return new Map(rows.map((r) => [r.gacha_id, Number(r.lots)]));
}

/** The instant up to which draws are folded, or null before the first fold. */
export async function drawRollupsFoldedTo(db: Database): Promise<Date | null> {
  const [row] = await queryRows<{ at: string | null }>(
    db,
    sql`select case when folded_to = '-infinity' then null else folded_to::text end as at
          from draw_rollup_marks where name = 'draws'`,
  );
  return row?.at ? new Date(row.at) : null;
}
