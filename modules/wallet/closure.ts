// The wallet's part in a closing shop (decision 085, 資金決済法 第20条): paid coins kept from expiring until the
// refund deadline, the members who hold coins (to be told), and the unused paid coins at the sales stop (the
// report's 基準日の未使用残高), read from the ledger.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

/**
 * Raises the expiry of every paid grant with coins left to `until` where it is earlier (never lowers one), in
 * the caller's transaction; answers how many grants moved. Safe to repeat.
 * @example await holdPaidCoinExpiry(tx, closure.refundDeadline) // 12
 */
export async function holdPaidCoinExpiry(db: Database, until: Date): Promise<number> {
  const [row] = await queryRows<{ moved: number }>(
    db,
    sql`select wallet_hold_paid_expiry(${until.toISOString()}::timestamptz) as moved`,
  );
  return Number(row?.moved ?? 0);
}

/** A member's coins as the wallet caches them. */
export interface MemberCoins {
  memberId: string;
  paid: number;
  free: number;
}

/**
 * Every member with paid or free coins now (the wallet's cached balances), by member id.
 * @example const holders = await membersWithCoins(db) // Map { 'u1' => { memberId: 'u1', paid: 500, free: 20 } }
 */
export async function membersWithCoins(db: Database): Promise<Map<string, MemberCoins>> {
  const rows = await queryRows<{ member_id: string; paid: number; free: number }>(
    db,
    sql`select member_id, paid, free from wallets where paid > 0 or free > 0`,
  );
  return new Map(rows.map((r) => [r.member_id, { memberId: r.member_id, paid: Number(r.paid), free: Number(r.free) }]));
}

/** One member's paid coins at an instant (the ledger up to it) and now (the cached balance). */
export interface PaidCoinsAt {
  memberId: string;
  paidAt: number;
  paidNow: number;
}

/**
 * A page of members (by id, after `afterMemberId`) with their paid coins at `at` (Σ paid ledger entries up to
 * then: credits, spends, reversals, expiries) and now; members with neither are answered too (with zeros), so
 * the caller's keyset moves on: `last` is the page's last member id, null at the end.
 * @example const { rows, last } = await paidCoinsAtPage(db, { at: closure.salesStopAt, afterMemberId: '', limit: 500 })
 */
export async function paidCoinsAtPage(
  db: Database,
  page: { at: Date; afterMemberId: string; limit: number },
): Promise<{ rows: PaidCoinsAt[]; last: string | null }> {
  const rows = await queryRows<{ member_id: string; paid_now: number; paid_at: string | number }>(
    db,
    sql`select w.member_id, w.paid as paid_now,
               coalesce((select sum(e.amount) from coin_ledger e
                          where e.member_id = w.member_id and e.kind = 'paid'
                            and e.created_at <= ${page.at.toISOString()}::timestamptz), 0) as paid_at
          from wallets w
         where w.member_id > ${page.afterMemberId}
         order by w.member_id
         limit ${page.limit}`,
  );
  return {
    rows: rows.map((r) => ({ memberId: r.member_id, paidAt: Number(r.paid_at), paidNow: Number(r.paid_now) })),
    last: rows.length < page.limit ? null : rows[rows.length - 1]!.member_id,
  };
}

/**
 * The shop's unused paid coins at an instant: Σ of every paid ledger entry up to it (1 coin = ¥1).
 * @example await unusedPaidCoinsAt(db, closure.salesStopAt) // 1_234_000
 */
export async function unusedPaidCoinsAt(db: Database, at: Date): Promise<number> {
  const [row] = await queryRows<{ total: string | number }>(
    db,
    sql`select coalesce(sum(amount), 0) as total from coin_ledger where kind = 'paid' and created_at <= ${at.toISOString()}::timestamptz`,
  );
  return Number(row?.total ?? 0);
}
