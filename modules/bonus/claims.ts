// A member's bonus state, the claim (one row per Japan-time day and the grant in one transaction), the log.
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { grantCoins } from '#modules/wallet';
import { isStaffRole, memberStandingOf } from '#modules/identity';
import { loginBonusClaims } from './schema';
import {
  previousJstDay,
  type LoginBonusRules,
  jstDayOf,
  nextJstDayStart,
  coinsForStreakDay,
  type LoginBonusRefusalCode,
  LOGIN_BONUS_REASON,
} from './rules';

export interface LoginBonusState {
  enabled: boolean;
  /** Today in Japan, 'YYYY-MM-DD'. */
  day: string;
  claimed: boolean;
  /** Today's streak day: the one claimed, or the one a claim now would give. */
  streakDay: number;
  /** Today's coins: claimed, or to be claimed. */
  coins: number;
  /** When the next claim opens (the next 00:00 in Japan). */
  nextClaimAt: Date;
  streakCoins: readonly number[];
}

async function streakDayFor(db: Database, memberId: string, today: string): Promise<number> {
  const [yesterday] = await db
    .select({ streakDay: loginBonusClaims.streakDay })
    .from(loginBonusClaims)
    .where(and(eq(loginBonusClaims.memberId, memberId), eq(loginBonusClaims.jstDay, previousJstDay(today))));
  return (yesterday?.streakDay ?? 0) + 1;
}

/**
 * Today's state for the member: claimed or not, the amount and the streak day.
 * @example const state = await loginBonusStateOf(db, memberId, rules) // { claimed: false, coins: 10, streakDay: 1, … }
 */
export async function loginBonusStateOf(
  db: Database,
  memberId: string,
  rules: LoginBonusRules,
  now = new Date(),
): Promise<LoginBonusState> {
  const day = jstDayOf(now);
  const base = {
    enabled: rules.streakCoins.length > 0,
    day,
    nextClaimAt: nextJstDayStart(now),
    streakCoins: rules.streakCoins,
  };
  const [today] = await db
    .select({ streakDay: loginBonusClaims.streakDay, coins: loginBonusClaims.coins })
    .from(loginBonusClaims)
    .where(and(eq(loginBonusClaims.memberId, memberId), eq(loginBonusClaims.jstDay, day)));
  if (today) return { ...base, claimed: true, streakDay: today.streakDay, coins: today.coins };
  const streakDay = await streakDayFor(db, memberId, day);
  return { ...base, claimed: false, streakDay, coins: coinsForStreakDay(rules, streakDay) };
}

export interface LoginBonusClaim {
  ok: true;
  day: string;
  streakDay: number;
  coins: number;
  nextClaimAt: Date;
}

/**
 * Claims today's bonus (Japan time at `now`): once per member and day, whatever the concurrency.
 * Staff, banned and deleted members are refused. Allowed in maintenance (docs/decisions/033).
 * @example const outcome = await claimLoginBonus(db, memberId, rules) // { ok: true, day: '2026-11-24', streakDay: 3, coins: 20, … }
 */
export async function claimLoginBonus(
  db: Database,
  memberId: string,
  rules: LoginBonusRules,
  now = new Date(),
): Promise<Outcome<LoginBonusClaim, LoginBonusRefusalCode>> {
  const day = jstDayOf(now);
  const nextClaimAt = nextJstDayStart(now);
  if (rules.streakCoins.length === 0) return refuse('LOGIN_BONUS_DISABLED');
  return db.transaction(async (tx) => {
    const standing = await memberStandingOf(tx, memberId, now);
    if (!standing) return refuse('UNAUTHENTICATED');
    if (isStaffRole(standing.role)) return refuse('LOGIN_BONUS_STAFF');
    if (standing.banned || standing.deleted) return refuse('LOGIN_BONUS_NOT_AVAILABLE');
    const streakDay = await streakDayFor(tx, memberId, day);
    const coins = coinsForStreakDay(rules, streakDay);
    // The unique (member_id, jst_day) decides: a concurrent claim waits for this one and inserts nothing.
    const [claim] = await tx
      .insert(loginBonusClaims)
      .values({ memberId, jstDay: day, streakDay, coins, claimedAt: now })
      .onConflictDoNothing()
      .returning({ id: loginBonusClaims.id });
    if (!claim) return refuse('LOGIN_BONUS_ALREADY_CLAIMED', { day, nextClaimAt: nextClaimAt.toISOString() });
    const grant = await grantCoins(tx, {
      memberId,
      kind: 'free',
      amount: coins,
      reason: LOGIN_BONUS_REASON,
      counterAccount: 'promotion',
      idempotencyKey: `login-bonus:${memberId}:${day}`,
      ref: day,
      memo: `連続${streakDay}日目`,
      now,
      lifetimeDays: { paid: rules.freeCoinDays, free: rules.freeCoinDays },
    });
    await tx.update(loginBonusClaims).set({ grantId: grant.grantId }).where(eq(loginBonusClaims.id, claim.id));
    return { ok: true as const, day, streakDay, coins, nextClaimAt };
  });
}

export interface LoginBonusLogEntry {
  day: string;
  streakDay: number;
  coins: number;
  claimedAt: Date;
}

/**
 * The member's claims, newest day first, a page at a time (keyset: pass the last day as `before`).
 * @example const page = await listLoginBonusClaims(db, memberId, { limit: 20 }) // { items, nextBefore }
 */
export async function listLoginBonusClaims(
  db: Database,
  memberId: string,
  options: { limit: number; before?: string },
): Promise<{ items: LoginBonusLogEntry[]; nextBefore: string | null }> {
  const rows = await db
    .select({
      day: loginBonusClaims.jstDay,
      streakDay: loginBonusClaims.streakDay,
      coins: loginBonusClaims.coins,
      claimedAt: loginBonusClaims.claimedAt,
    })
    .from(loginBonusClaims)
    .where(
      and(
        eq(loginBonusClaims.memberId, memberId),
        options.before ? lt(loginBonusClaims.jstDay, options.before) : undefined,
      ),
    )
    .orderBy(desc(loginBonusClaims.jstDay))
    .limit(options.limit + 1);
  const items = rows.slice(0, options.limit);
  return { items, nextBefore: rows.length > options.limit ? items[items.length - 1]!.day : null };
}
