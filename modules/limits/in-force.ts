// The limits that apply now (a due pending change counts as applied) and the member's view of them.
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberLimits } from './schema';
import { exclusionLastDay } from './rules';

export type LimitsRow = typeof memberLimits.$inferSelect;

/** The limits that apply at `now`: a due pending change counts as applied. */
export interface LimitsInForce {
  purchaseLimitJpy: number | null;
  drawLimitCoins: number | null;
  /** Set while an exclusion lasts. */
  excludedUntil: Date | null;
}

const NO_LIMITS: LimitsInForce = { purchaseLimitJpy: null, drawLimitCoins: null, excludedUntil: null };

export const due = (at: Date | null, now: Date) => at !== null && at.getTime() <= now.getTime();

export function foldRow(row: LimitsRow | undefined, now: Date): LimitsInForce {
  if (!row) return NO_LIMITS;
  return {
    purchaseLimitJpy: due(row.purchasePendingAt, now) ? row.purchasePendingJpy : row.purchaseLimitJpy,
    drawLimitCoins: due(row.drawPendingAt, now) ? row.drawPendingCoins : row.drawLimitCoins,
    excludedUntil: row.excludedUntil && row.excludedUntil.getTime() > now.getTime() ? row.excludedUntil : null,
  };
}

/**
 * The member's limits at `now` (one primary-key read). Call it inside the purchase's transaction, after the
 * member's purchase lock, so the check and the order agree.
 * @example const { purchaseLimitJpy, excludedUntil } = await limitsInForce(tx, memberId, now)
 */
export async function limitsInForce(db: Database, memberId: string, now = new Date()): Promise<LimitsInForce> {
  const [row] = await db.select().from(memberLimits).where(eq(memberLimits.memberId, memberId));
  return foldRow(row, now);
}

export interface LimitSetting {
  /** In force now; null: no limit. */
  limit: number | null;
  /** A raise or removal waiting for its time (value null: the limit goes). */
  pending: { value: number | null; effectiveAt: Date } | null;
}

export interface MemberLimits {
  purchase: LimitSetting;
  draw: LimitSetting;
  exclusion: { since: Date | null; until: Date; lastDay: string } | null;
}

export function viewOf(row: LimitsRow | undefined, now: Date): MemberLimits {
  const force = foldRow(row, now);
  const pendingOf = (value: number | null, at: Date | null) =>
    at !== null && !due(at, now) ? { value, effectiveAt: at } : null;
  return {
    purchase: {
      limit: force.purchaseLimitJpy,
      pending: row ? pendingOf(row.purchasePendingJpy, row.purchasePendingAt) : null,
    },
    draw: { limit: force.drawLimitCoins, pending: row ? pendingOf(row.drawPendingCoins, row.drawPendingAt) : null },
    exclusion: force.excludedUntil
      ? { since: row?.excludedAt ?? null, until: force.excludedUntil, lastDay: exclusionLastDay(force.excludedUntil) }
      : null,
  };
}

/**
 * The member's limits as the settings page and the API show them: in force, waiting, and any exclusion.
 * @example const limits = await memberLimitsOf(db, memberId) // { purchase: { limit: 30000, pending: null }, … }
 */
export async function memberLimitsOf(db: Database, memberId: string, now = new Date()): Promise<MemberLimits> {
  const [row] = await db.select().from(memberLimits).where(eq(memberLimits.memberId, memberId));
  return viewOf(row, now);
}
