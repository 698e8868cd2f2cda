// Redeeming a code for free coins, once per member, within its window and cap; the member's redemptions.
import { and, desc, eq, sql } from 'drizzle-orm';
import { subDays } from 'date-fns';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { grantCoins, type CoinLifetimes } from '#modules/wallet';
import { memberProfileOf, takeRateLimit } from '#modules/identity';
import { currentRank } from '#modules/progression';
import { promoCodes, promoRedemptions } from './schema';
import { type PromoRefusalCode, normalizePromoCode, PROMO_REFUSAL_CODES } from './codes';

/** Attempts allowed per window (docs/decisions/032): against guessing codes, per member and per address. */
export const PROMO_RATE_LIMITS = {
  windowSeconds: 600,
  perMember: 10,
  perAddress: 30,
} as const;

export interface RedeemInput {
  memberId: string;
  /** The client's address (the edge's CLIENT_IP_HEADER); counted with the member when given. */
  address?: string | null;
  /** Overrides PROMO_RATE_LIMITS (tests, settings). */
  limits?: { windowSeconds: number; perMember: number; perAddress: number };
  /** What the member typed. */
  code: string;
  /** The shop's coin lifetimes (FREE_COIN_EXPIRY_DAYS): the granted coins are free coins. */
  lifetimeDays: CoinLifetimes;
  now?: Date;
}

export interface Redeemed {
  ok: true;
  redemptionId: number;
  codeId: number;
  label: string;
  coins: number;
  redeemedAt: string;
}

/**
 * Redeems a code: checks it (known and active, in its window, the member's conditions), then in one
 * transaction records the member's redemption (unique per code and member: a concurrent second one
 * waits on the index and is refused), raises the code's count only while under its cap (a conditional
 * update: concurrent members queue on the code's row), and grants the free coins through the wallet
 * under the key `promo:<codeId>:<memberId>`.
 */
export async function redeemPromoCode(db: Database, input: RedeemInput): Promise<Redeemed | Refusal<PromoRefusalCode>> {
  const now = input.now ?? new Date();
  // Counted first, before the code is even read: every attempt costs the same, valid or not.
  const limits = input.limits ?? PROMO_RATE_LIMITS;
  const keys: [string, number][] = [[`promo:member:${input.memberId}`, limits.perMember]];
  if (input.address) keys.push([`promo:address:${input.address}`, limits.perAddress]);
  for (const [key, max] of keys) {
    const answer = await takeRateLimit(db, { key, windowSeconds: limits.windowSeconds, max, now });
    if (!answer.allowed) return refuse('PROMO_CODE_RATE_LIMITED', { retryAfterSeconds: answer.retryAfterSeconds });
  }
  const code = normalizePromoCode(input.code);
  if (!code) return refuse('PROMO_CODE_INVALID');
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1);
  if (!row || !row.active) return refuse('PROMO_CODE_UNKNOWN');
  if (now < row.startsAt) return refuse('PROMO_CODE_NOT_YET_VALID', { startsAt: row.startsAt.toISOString() });
  if (now >= row.endsAt) return refuse('PROMO_CODE_EXPIRED', { endsAt: row.endsAt.toISOString() });
  const [mine] = await db
    .select({ id: promoRedemptions.id })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.codeId, row.id), eq(promoRedemptions.memberId, input.memberId)))
    .limit(1);
  if (mine) return refuse('PROMO_CODE_ALREADY_REDEEMED');
  if (row.maxRedemptions !== null && row.redeemedCount >= row.maxRedemptions) return refuse('PROMO_CODE_USED_UP');
  if (row.newMemberDays !== null) {
    const profile = await memberProfileOf(db, input.memberId, now);
    if (!profile || new Date(profile.createdAt) < subDays(now, row.newMemberDays))
      return refuse('PROMO_CODE_NOT_NEW_MEMBER', { days: row.newMemberDays });
  }
  if (row.minRank !== null) {
    const rank = await currentRank(db, input.memberId, now);
    if (rank.rank < row.minRank) return refuse('PROMO_CODE_RANK_TOO_LOW', { minRank: row.minRank, rank: rank.rank });
  }
  try {
    return await db.transaction(async (tx) => {
      const [redemption] = await tx
        .insert(promoRedemptions)
        .values({ codeId: row.id, memberId: input.memberId, coins: row.coins, redeemedAt: now })
        .onConflictDoNothing()
        .returning({ id: promoRedemptions.id });
      if (!redemption) throw new RefusalError(refuse('PROMO_CODE_ALREADY_REDEEMED'));
      const [counted] = await tx
        .update(promoCodes)
        .set({ redeemedCount: sql`${promoCodes.redeemedCount} + 1` })
        .where(
          and(
            eq(promoCodes.id, row.id),
            eq(promoCodes.active, true),
            sql`(${promoCodes.maxRedemptions} is null or ${promoCodes.redeemedCount} < ${promoCodes.maxRedemptions})`,
          ),
        )
        .returning({ id: promoCodes.id });
      if (!counted) throw new RefusalError(refuse('PROMO_CODE_USED_UP'));
      await grantCoins(tx, {
        memberId: input.memberId,
        kind: 'free',
        amount: row.coins,
        reason: 'promo_code',
        counterAccount: 'promotion',
        idempotencyKey: `promo:${row.id}:${input.memberId}`,
        ref: String(row.id),
        memo: row.label,
        lifetimeDays: input.lifetimeDays,
        now,
      });
      return {
        ok: true as const,
        redemptionId: redemption.id,
        codeId: row.id,
        label: row.label,
        coins: row.coins,
        redeemedAt: now.toISOString(),
      };
    });
  } catch (error) {
    if (error instanceof RefusalError && (PROMO_REFUSAL_CODES as readonly string[]).includes(error.code))
      return error.refusal as Refusal<PromoRefusalCode>;
    throw error;
  }
}

export interface RedemptionView {
  id: number;
  label: string;
  coins: number;
  redeemedAt: string;
}

/** The member's own redemptions, newest first (what /mypage/tokutencode shows). */
export async function listMemberRedemptions(db: Database, memberId: string, limit = 50): Promise<RedemptionView[]> {
  const rows = await db
    .select({
      id: promoRedemptions.id,
      label: promoCodes.label,
      coins: promoRedemptions.coins,
      redeemedAt: promoRedemptions.redeemedAt,
    })
    .from(promoRedemptions)
    .innerJoin(promoCodes, eq(promoCodes.id, promoRedemptions.codeId))
    .where(eq(promoRedemptions.memberId, memberId))
    .orderBy(desc(promoRedemptions.redeemedAt), desc(promoRedemptions.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, redeemedAt: r.redeemedAt.toISOString() }));
}
