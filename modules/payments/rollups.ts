// The coin shop's figures for the operators' dashboard (docs/decisions/028): sales per Japan-time day
// and payment method folded by a job, and the 資金決済法 figure for the next base date kept by a job.
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { UNUSED_BALANCE_THRESHOLD_JPY, unusedPaidBalanceReport } from './index';

/** One Japan-time day's credited orders of one payment method. */
export interface SalesDayFigures {
  day: string;
  method: string;
  orders: number;
  amountJpy: number;
}

/**
 * Folds the orders credited since the last fold (and at least `settleSeconds` ago: a crediting
 * transaction may still be committing) into sales_daily_rollups and moves the watermark, in one
 * transaction under the watermark's row lock, so each order is counted exactly once. Refunds do not
 * change a folded day (sales are gross). Resolves with how many orders it folded.
 * @example await foldSalesRollups(db, { settleSeconds: 120 })
 */
export async function foldSalesRollups(db: Database, rules: { settleSeconds: number }): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into sales_rollup_marks (name, folded_to) values ('sales', '-infinity') on conflict do nothing`,
    );
    const [mark] = await queryRows<{ from: string; to: string; due: boolean }>(
      tx,
      sql`select folded_to::text as "from", (now() - make_interval(secs => ${rules.settleSeconds}))::text as "to",
                 folded_to < now() - make_interval(secs => ${rules.settleSeconds}) as due
            from sales_rollup_marks where name = 'sales' for update`,
    );
    if (!mark?.due) return 0;
    const [folded] = await queryRows<{ n: number }>(
      tx,
      sql`with batch as (
            select (credited_at at time zone 'Asia/Tokyo')::date as day, method, amount_jpy from payment_orders
             where credited_at is not null
               and credited_at >= ${mark.from}::timestamptz and credited_at < ${mark.to}::timestamptz
          ), added as (
            insert into sales_daily_rollups as r (day, method, orders, amount_jpy)
            select day, method, count(*), sum(amount_jpy) from batch group by day, method
            on conflict (day, method) do update
              set orders = r.orders + excluded.orders, amount_jpy = r.amount_jpy + excluded.amount_jpy
          )
          select count(*)::int as n from batch`,
    );
    await tx.execute(sql`update sales_rollup_marks set folded_to = ${mark.to}::timestamptz where name = 'sales'`);
    return Number(folded?.n ?? 0);
  });
}

/**
 * Folded sales of each Japan-time day from `fromDay` to `toDay` (inclusive) per method; days without
 * sales have no rows. Oldest first.
 * @example const rows = await salesDailyFigures(db, '2027-05-01', '2027-05-30')
 */
export async function salesDailyFigures(db: Database, fromDay: string, toDay: string): Promise<SalesDayFigures[]> {
  const rows = await queryRows<{ day: string; method: string; orders: string; amount: string }>(
    db,
    sql`select day::text as day, method, orders, amount_jpy as amount from sales_daily_rollups
         where day between ${fromDay}::date and ${toDay}::date order by day, method`,
  );
  return rows.map((r) => ({ day: r.day, method: r.method, orders: Number(r.orders), amountJpy: Number(r.amount) }));
}

/**
 * The next 資金決済法 base date on or after `now` (JST): 3/31 or 9/30.
 * @example baseDateOnOrAfter(new Date('2026-11-22T00:00:00+09:00')) === '2027-03-31'
 */
export function baseDateOnOrAfter(now: Date): string {
  const jst = new TZDate(now, 'Asia/Tokyo');
  const year = jst.getFullYear();
  const today = format(jst, 'yyyy-MM-dd');
  return [`${year}-03-31`, `${year}-09-30`, `${year + 1}-03-31`].find((d) => d >= today)!;
}

/** The 資金決済法 figure for a base date as the job last computed it. */
export interface UnusedPaidSnapshot {
  baseDate: string;
  /** Paid coins issued and unused now that are still valid at the end of the base date (1 coin = ¥1). */
  unusedPaidCoins: number;
  membersWithBalance: number;
  issuedInPeriod: number;
  thresholdJpy: number;
  exceedsThreshold: boolean;
  computedAt: string;
}

/**
 * Computes unusedPaidBalanceReport for the next base date (what is known now: grants that expire
 * before it drop out) and stores it for the dashboard. Run by a job; the report reads the ledger.
 * @example await refreshUnusedPaidSnapshot(db, new Date())
 */
export async function refreshUnusedPaidSnapshot(db: Database, now: Date): Promise<UnusedPaidSnapshot> {
  const report = await unusedPaidBalanceReport(db, baseDateOnOrAfter(now));
  await db.execute(
    sql`insert into unused_paid_snapshots (base_date, unused_paid_coins, members_with_balance, issued_in_period, computed_at)
        values (${report.baseDate}::date, ${report.unusedPaidCoins}, ${report.membersWithBalance}, ${report.issuedInPeriod},
                ${now.toISOString()}::timestamptz)
        on conflict (base_date) do update set unused_paid_coins = excluded.unused_paid_coins,
          members_with_balance = excluded.members_with_balance, issued_in_period = excluded.issued_in_period,
          computed_at = excluded.computed_at`,
  );
  return {
    baseDate: report.baseDate,
    unusedPaidCoins: report.unusedPaidCoins,
    membersWithBalance: report.membersWithBalance,
    issuedInPeriod: report.issuedInPeriod,
    thresholdJpy: report.thresholdJpy,
    exceedsThreshold: report.exceedsThreshold,
    computedAt: now.toISOString(),
  };
}

/**
 * The stored figure for the next base date after `now`, or null until the job has computed it.
 * @example const snapshot = await unusedPaidSnapshotFor(db, new Date())
 */
export async function unusedPaidSnapshotFor(db: Database, now: Date): Promise<UnusedPaidSnapshot | null> {
  const [row] = await queryRows<{ unused: string; members: number; issued: string; computed: string }>(
    db,
    sql`select unused_paid_coins as unused, members_with_balance as members, issued_in_period as issued,
               computed_at::text as computed
          from unused_paid_snapshots where base_date = ${baseDateOnOrAfter(now)}::date`,
  );
  if (!row) return null;
  const unused = Number(row.unused);
  return {
    baseDate: baseDateOnOrAfter(now),
    unusedPaidCoins: unused,
    membersWithBalance: Number(row.members),
    issuedInPeriod: Number(row.issued),
    thresholdJpy: UNUSED_BALANCE_THRESHOLD_JPY,
    exceedsThreshold: unused > UNUSED_BALANCE_THRESHOLD_JPY,
    computedAt: new Date(row.computed).toISOString(),
  };
}
