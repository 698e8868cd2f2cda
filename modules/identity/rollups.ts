// New members per Japan-time day for the operators' dashboard, folded by a job (docs/decisions/028).
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

/**
 * Folds the members who signed up since the last fold (and at least `settleSeconds` ago) into
 * member_daily_rollups and moves the watermark, in one transaction under the watermark's row lock:
 * two runs at once take turns, so each member is counted once. Staff accounts count too (they
 * are members who were given a role). Resolves with how many members it folded.
 * @example await foldMemberRollups(db, { settleSeconds: 120 })
 */
export async function foldMemberRollups(db: Database, rules: { settleSeconds: number }): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into member_rollup_marks (name, folded_to) values ('members', '-infinity') on conflict do nothing`,
    );
    const [mark] = await queryRows<{ from: string; to: string; due: boolean }>(
      tx,
      sql`select folded_to::text as "from", (now() - make_interval(secs => ${rules.settleSeconds}))::text as "to",
                 folded_to < now() - make_interval(secs => ${rules.settleSeconds}) as due
            from member_rollup_marks where name = 'members' for update`,
    );
    if (!mark?.due) return 0;
    const [folded] = await queryRows<{ n: number }>(
      tx,
      sql`with batch as (
            select (created_at at time zone 'Asia/Tokyo')::date as day from users
             where created_at >= ${mark.from}::timestamptz and created_at < ${mark.to}::timestamptz
          ), added as (
            insert into member_daily_rollups as r (day, new_members)
            select day, count(*) from batch group by day
            on conflict (day) do update set new_members = r.new_members + excluded.new_members
          )
          select count(*)::int as n from batch`,
    );
    await tx.execute(sql`update member_rollup_marks set folded_to = ${mark.to}::timestamptz where name = 'members'`);
    return Number(folded?.n ?? 0);
  });
}

/**
 * New members of each Japan-time day from `fromDay` to `toDay` (inclusive, zeros included), oldest first.
 * @example const days = await newMemberDailyFigures(db, '2027-05-01', '2027-05-30')
 */
export async function newMemberDailyFigures(
  db: Database,
  fromDay: string,
  toDay: string,
): Promise<{ day: string; newMembers: number }[]> {
  const rows = await queryRows<{ day: string; n: string }>(
    db,
    sql`select d.day::date::text as day, coalesce(r.new_members, 0) as n
          from generate_series(${fromDay}::date, ${toDay}::date, interval '1 day') as d(day)
          left join member_daily_rollups r on r.day = d.day::date
         order by d.day`,
  );
  return rows.map((r) => ({ day: r.day, newMembers: Number(r.n) }));
}
