// 資金決済法: unused paid coins at the base dates (decision 028), and the coin shop's invariants.
import { sql } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import type { Database } from '#db/client';
import { TOKYO, rowsOf } from './rules';

export interface UnusedBalanceReport {
  /** The base date (JST), 3/31 or 9/30. */
  baseDate: string;
  /** The instant the balance is taken at: the end of the base date in Japan time. */
  asOf: string;
  /** Paid coins (1 coin = ¥1) issued and not yet used or expired at that instant. */
  unusedPaidCoins: number;
  membersWithBalance: number;
  /** Paid coins issued in the half-year ending at the base date. */
  issuedInPeriod: number;
  /** 資金決済法: a report (and a deposit of half) is due when the unused balance exceeds ¥10,000,000. */
  exceedsThreshold: boolean;
  thresholdJpy: number;
}

export const UNUSED_BALANCE_THRESHOLD_JPY = 10_000_000;

/** The base dates on or before `now` that count: 3/31 and 9/30 (JST). @example baseDateBefore(new Date('2026-11-22')) === '2026-09-30' */
export function baseDateBefore(now: Date): string {
  const jst = new TZDate(now, TOKYO);
  const year = jst.getFullYear();
  const candidates = [`${year}-09-30`, `${year}-03-31`, `${year - 1}-09-30`];
  const today = format(jst, 'yyyy-MM-dd');
  return candidates.find((d) => d <= today)!;
}

/**
 * The unused paid-coin balance at a base date, from the ledger: for every paid grant still valid at
 * the end of that day (JST), the sum of its ledger entries up to then (issue, uses, reversals).
 * @example await unusedPaidBalanceReport(db, '2027-03-31')
 */
export async function unusedPaidBalanceReport(db: Database, baseDate: string): Promise<UnusedBalanceReport> {
  if (!/^\d{4}-(03-31|09-30)$/.test(baseDate))
    throw new RangeError('基準日は3月31日または9月30日です（例: 2027-03-31）。');
  const asOf = new Date(`${baseDate}T23:59:59.999+09:00`);
  const periodStart = baseDate.endsWith('03-31')
    ? new Date(`${Number(baseDate.slice(0, 4)) - 1}-10-01T00:00:00+09:00`)
    : new Date(`${baseDate.slice(0, 4)}-04-01T00:00:00+09:00`);
  const at = asOf.toISOString();
  // Each paid grant alive at the instant: what it credited, less what was spent, revoked or expired
  // from it up to then (all ledger entries against that grant).
  const [row] = rowsOf<{ unused: string; members: string; issued: string }>(
    await db.execute(sql`
    select coalesce(sum(left_over), 0) as unused, count(distinct member_id) filter (where left_over > 0) as members,
           (select coalesce(sum(amount), 0) from coin_ledger where kind = 'paid' and reason = 'purchase' and amount > 0
              and created_at >= ${periodStart.toISOString()}::timestamptz and created_at <= ${at}::timestamptz) as issued
      from (select g.member_id, (select coalesce(sum(e.amount), 0) from coin_ledger e
                                  where e.grant_id = g.id and e.created_at <= ${at}::timestamptz) as left_over
              from coin_grants g
             where g.kind = 'paid' and g.granted_at <= ${at}::timestamptz and g.expires_at > ${at}::timestamptz) alive`),
  );
  const unused = Number(row?.unused ?? 0);
  return {
    baseDate,
    asOf: asOf.toISOString(),
    unusedPaidCoins: unused,
    membersWithBalance: Number(row?.members ?? 0),
    issuedInPeriod: Number(row?.issued ?? 0),
    exceedsThreshold: unused > UNUSED_BALANCE_THRESHOLD_JPY,
    thresholdJpy: UNUSED_BALANCE_THRESHOLD_JPY,
  };
}

/** The coin shop's invariants (see payments_check_invariants in modules/payments/sql/invariants.sql). [] when all hold. */
export async function checkPaymentInvariants(db: Database): Promise<unknown[]> {
  const [row] = rowsOf<{ r: unknown[] }>(await db.execute(sql`select payments_check_invariants() as r`));
  return row?.r ?? [];
}
