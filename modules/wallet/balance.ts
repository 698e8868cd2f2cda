// What a member holds: the balance by kind and the lots with their expiry.
import { and, eq, gt, sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { queryRows, type Database } from '#db/client';
import { coinGrants, wallets, type CoinKind } from './schema';
import { LEDGER_REASON_LABELS, EXPIRING_SOON_DAYS } from './rules';

export interface WalletBalance {
  paid: number;
  free: number;
  total: number;
  /** Coins that expire within EXPIRING_SOON_DAYS, with the soonest date. */
  expiringSoon: { amount: number; firstExpiresAt: string | null };
}

/** One grant with coins left: what a member holds, lot by lot, and when each lot expires. */
export interface CoinLot {
  id: number;
  kind: CoinKind;
  amount: number;
  remaining: number;
  reason: string;
  reasonLabel: string;
  grantedAt: string;
  expiresAt: string;
  expired: boolean;
}

/**
 * The member's coins lot by lot (grants with coins left), soonest expiry first, at most `limit`
 * (the partial index coin_grants_spendable_idx serves it), and how many lots there are in all.
 * @example const { lots, total } = await listCoinLots(db, member.id, 50)
 */
export async function listCoinLots(
  db: Database,
  memberId: string,
  limit: number,
  now = new Date(),
): Promise<{ lots: CoinLot[]; total: number }> {
  const rows = await db
    .select()
    .from(coinGrants)
    .where(and(eq(coinGrants.memberId, memberId), sql`${coinGrants.spendable}`, gt(coinGrants.remaining, 0)))
    .orderBy(coinGrants.expiresAt, coinGrants.id)
    .limit(limit);
  const [count] = await db
    .select({ n: sql<string>`count(*)` })
    .from(coinGrants)
    .where(and(eq(coinGrants.memberId, memberId), sql`${coinGrants.spendable}`, gt(coinGrants.remaining, 0)));
  return {
    lots: rows.map((g) => ({
      id: Number(g.id),
      kind: g.kind,
      amount: g.amount,
      remaining: g.remaining,
      reason: g.reason,
      reasonLabel: LEDGER_REASON_LABELS[g.reason] ?? g.reason,
      grantedAt: new Date(g.grantedAt).toISOString(),
      expiresAt: new Date(g.expiresAt).toISOString(),
      expired: new Date(g.expiresAt).getTime() <= now.getTime(),
    })),
    total: Number(count?.n ?? 0),
  };
}

/**
 * The member's balance by kind, with what expires soon: one statement (the header shows it on every page
 * a member opens, so it is read once per request; issue 32). Grants past their date count for nothing
 * even before the expiry job has written them off.
 * @example const { paid, free } = await getBalance(db, member.id)
 */
export async function getBalance(db: Database, memberId: string, now = new Date()): Promise<WalletBalance> {
  const soon = addDays(now, EXPIRING_SOON_DAYS);
  const at = now.toISOString();
  // The grants that matter both expire before `soon`: those already due (≤ now) and those due soon (> now).
  const [row] = await queryRows<{
    paid: number | string | null;
    free: number | string | null;
    due_paid: number | string;
    due_free: number | string;
    expiring: number | string;
    first: Date | string | null;
  }>(
    db,
    sql`select w.paid, w.free,
          coalesce(sum(g.remaining) filter (where g.expires_at <= ${at}::timestamptz and g.kind = 'paid'), 0) as due_paid,
          coalesce(sum(g.remaining) filter (where g.expires_at <= ${at}::timestamptz and g.kind = 'free'), 0) as due_free,
          coalesce(sum(g.remaining) filter (where g.expires_at > ${at}::timestamptz), 0) as expiring,
          min(g.expires_at) filter (where g.expires_at > ${at}::timestamptz) as first
        from (select ${memberId}::text as member_id) m
        left join ${wallets} w on w.member_id = m.member_id
        left join ${coinGrants} g on g.member_id = m.member_id and g.spendable and g.remaining > 0
          and g.expires_at < ${soon.toISOString()}::timestamptz
        group by w.paid, w.free`,
  );
  const paid = Number(row?.paid ?? 0) - Number(row?.due_paid ?? 0);
  const free = Number(row?.free ?? 0) - Number(row?.due_free ?? 0);
  const first = row?.first ? new Date(row.first).toISOString() : null;
  return {
    paid,
    free,
    total: paid + free,
    expiringSoon: { amount: Number(row?.expiring ?? 0), firstExpiresAt: first },
  };
}
