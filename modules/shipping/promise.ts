// The promised date kept: a request that has not left by the end of its 発送予定日 earns its member free
// coins, exactly once (the request's row lock, its compensated_at, and the grant's key all say so), and
// the member is told. The job pays what is due; shipping or canceling a late request pays it first too.
import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { grantCoins } from '#modules/wallet';
import { notifyMember } from './notices';
import type { ShippingRules } from './requests';
import { recordEvent } from './timeline';
import { shippingRequests } from './schema';

type RequestRow = typeof shippingRequests.$inferSelect;

/**
 * Pays a locked request's compensation when its promise is broken and it is not paid yet (the
 * caller's transaction holds the row). Answers the coins paid (0 when none was due).
 */
export async function compensateIfLate(
  tx: Database,
  rules: Pick<ShippingRules, 'lateCompensationCoins' | 'freeCoinDays' | 'site'>,
  row: RequestRow,
  now: Date,
): Promise<number> {
  const coins = rules.lateCompensationCoins;
  const broken = row.shippedAt === null && row.canceledAt === null && now >= row.shipDeadline;
  if (coins <= 0 || row.compensatedAt !== null || !broken) return 0;
  await grantCoins(tx, {
    memberId: row.memberId,
    kind: 'free',
    amount: coins,
    reason: 'shipping_compensation',
    counterAccount: 'compensation',
    idempotencyKey: `shipping-late:${row.id}`,
    ref: row.id,
    now,
    lifetimeDays: { paid: rules.freeCoinDays, free: rules.freeCoinDays },
  });
  await tx
    .update(shippingRequests)
    .set({ compensatedAt: now, compensationCoins: coins, updatedAt: now })
    .where(eq(shippingRequests.id, row.id));
  await recordEvent(tx, {
    requestId: row.id,
    kind: 'compensated',
    status: row.status,
    at: now,
    actor: 'system',
    note: `発送予定日までに発送できなかったため、お詫びとして${coins.toLocaleString('ja-JP')}コインをお贈りしました。`,
  });
  await notifyMember(tx, rules.site, row.memberId, {
    kind: 'compensated',
    requestId: row.id,
    promisedDate: row.promisedDate,
    coins,
  });
  return coins;
}

/**
 * The compensation job: every request whose promised day is over and that has neither left nor ended
 * is compensated, one transaction each. Two overlapping runs pay once: each takes a request under
 * its row lock (skipping one the other holds) and checks again that it is unpaid.
 * @example await compensateLateShipments(db, rules) // → number of requests compensated
 */
export async function compensateLateShipments(
  db: Database,
  rules: Pick<ShippingRules, 'lateCompensationCoins' | 'freeCoinDays' | 'site'>,
  now = new Date(),
  batch = 100,
): Promise<number> {
  if (rules.lateCompensationCoins <= 0) return 0;
  const due = and(
    isNull(shippingRequests.compensatedAt),
    isNull(shippingRequests.shippedAt),
    isNull(shippingRequests.canceledAt),
    lte(shippingRequests.shipDeadline, now),
  );
  let paid = 0;
  let cursor = null as { deadline: Date; id: string } | null;
  for (;;) {
    const candidates = await db
      .select({ id: shippingRequests.id, deadline: shippingRequests.shipDeadline })
      .from(shippingRequests)
      .where(
        and(
          due,
          cursor
            ? sql`(${shippingRequests.shipDeadline}, ${shippingRequests.id}) > (${cursor.deadline.toISOString()}::timestamptz, ${cursor.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(shippingRequests.shipDeadline), asc(shippingRequests.id))
      .limit(batch);
    for (const candidate of candidates) {
      const coins = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(shippingRequests)
          .where(and(eq(shippingRequests.id, candidate.id), due))
          .for('update', { skipLocked: true });
        return row ? compensateIfLate(tx, rules, row, now) : 0;
      });
      if (coins > 0) paid += 1;
    }
    if (candidates.length < batch) return paid;
    cursor = candidates.at(-1)!;
  }
}
