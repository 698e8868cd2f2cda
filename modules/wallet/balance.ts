// What a member holds: the balance by kind and the lots with their expiry.
import { and, eq, gt, lt, lte, sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import type { Database } from '#db/client';
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

/** @example const { paid, free } = await getBalance(db, member.id) */
export async function getBalance(db: Database, memberId: string, now = new Date()): Promise<WalletBalance> {
  const [wallet] = await db
    .select({ paid: wallets.paid, free: wallets.free })
    .from(wallets)
    .where(eq(wallets.memberId, memberId));
  // Grants past their date count for nothing even before the expiry job has written them off.
  const due = await db
    .select({ kind: coinGrants.kind, amount: sql<string>`sum(${coinGrants.remaining})` })
    .from(coinGrants)
    .where(
      and(
        eq(coinGrants.memberId, memberId),
        sql`${coinGrants.spendable}`,
        gt(coinGrants.remaining, 0),
        lte(coinGrants.expiresAt, now),
      ),
    )
    .groupBy(coinGrants.kind);
  const dueOf = (kind: CoinKind) => Number(due.find((d) => d.kind === kind)?.amount ?? 0);
  const soon = addDays(now, EXPIRING_SOON_DAYS);
  const [expiring] = await db
    .select({
      amount: sql<string>`coalesce(sum(${coinGrants.remaining}), 0)`,
      first: sql<Date | string | null>`min(${coinGrants.expiresAt})`,
    })
    .from(coinGrants)
    .where(
      and(
        eq(coinGrants.memberId, memberId),
        sql`${coinGrants.spendable}`,
        gt(coinGrants.remaining, 0),
        gt(coinGrants.expiresAt, now),
        lt(coinGrants.expiresAt, soon),
      ),
    );
  const paid = (wallet?.paid ?? 0) - dueOf('paid');
  const free = (wallet?.free ?? 0) - dueOf('free');
  const first = expiring?.first ? new Date(expiring.first).toISOString() : null;
  return {
    paid,
    free,
    total: paid + free,
    expiringSoon: { amount: Number(expiring?.amount ?? 0), firstExpiresAt: first },
  };
}
