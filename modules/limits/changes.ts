// Changing limits: lowering at once, raising or removing after the wait; self-exclusion, never shortened.
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { memberLimitChanges, memberLimits } from './schema';
import { type LimitsRow, foldRow, due, type MemberLimits, viewOf } from './in-force';
import {
  type LimitKind,
  RAISE_WAIT_DAYS,
  DAY_MS,
  type LimitsRefusalCode,
  type ExclusionMonths,
  exclusionEndFor,
  exclusionLastDay,
} from './rules';
import type { LimitChange } from './inputs';

/** The member's row, created empty if missing, locked until the transaction ends (one change at a time). */
async function lockRow(tx: Database, memberId: string, now: Date): Promise<LimitsRow> {
  await tx.insert(memberLimits).values({ memberId, updatedAt: now }).onConflictDoNothing();
  const [row] = await tx.select().from(memberLimits).where(eq(memberLimits.memberId, memberId)).for('update');
  return row!;
}

/** A ≤ B where null is "no limit" (the largest). */
const atMost = (a: number | null, b: number | null) => b === null || (a !== null && a <= b);

const COLUMNS = {
  purchase: { limit: 'purchaseLimitJpy', pendingValue: 'purchasePendingJpy', pendingAt: 'purchasePendingAt' },
  draw: { limit: 'drawLimitCoins', pendingValue: 'drawPendingCoins', pendingAt: 'drawPendingAt' },
} as const;

export interface LimitChangeResult {
  kind: LimitKind;
  /** 'now': lowered (or first set) at once; 'pending': a raise or removal from `effectiveAt`; 'unchanged'. */
  applied: 'now' | 'pending' | 'unchanged';
  value: number | null;
  effectiveAt: Date;
}

/**
 * Decides one kind's change on the locked row: lower (or the same) at once, higher after the wait. A raise
 * asked again for no more than the one waiting keeps its time; asking for more starts the 7 days again.
 */
function decide(row: LimitsRow, kind: LimitKind, value: number | null, now: Date) {
  const col = COLUMNS[kind];
  const current = foldRow(row, now)[kind === 'purchase' ? 'purchaseLimitJpy' : 'drawLimitCoins'];
  const waiting = row[col.pendingAt] !== null && !due(row[col.pendingAt], now);
  if (atMost(value, current)) {
    const applied: LimitChangeResult['applied'] = value === current && !waiting ? 'unchanged' : 'now';
    return {
      set: { [col.limit]: value, [col.pendingValue]: null, [col.pendingAt]: null },
      result: { kind, applied, value, effectiveAt: now },
    };
  }
  const keep = waiting && atMost(value, row[col.pendingValue]);
  const effectiveAt = keep ? row[col.pendingAt]! : new Date(now.getTime() + RAISE_WAIT_DAYS * DAY_MS);
  return {
    // The limit in force stays (a due pending change folded in), the raise waits.
    set: { [col.limit]: current, [col.pendingValue]: value, [col.pendingAt]: effectiveAt },
    result: { kind, applied: 'pending' as const, value, effectiveAt },
  };
}

/**
 * Changes the member's limits: a lower limit (or a first one) applies at once, a higher one or a removal after
 * RAISE_WAIT_DAYS (exactly: in force from `effectiveAt` on). Each change is recorded.
 * @example const out = await changeLimits(db, memberId, { drawLimitCoins: 10000 }) // { ok: true, changes: [{ applied: 'now', … }], limits }
 */
export async function changeLimits(
  db: Database,
  memberId: string,
  change: LimitChange,
  now = new Date(),
): Promise<{ ok: true; changes: LimitChangeResult[]; limits: MemberLimits }> {
  return db.transaction(async (tx) => {
    let row = await lockRow(tx, memberId, now);
    const changes: LimitChangeResult[] = [];
    const asked: [LimitKind, number | null | undefined][] = [
      ['purchase', change.purchaseLimitJpy],
      ['draw', change.drawLimitCoins],
    ];
    for (const [kind, value] of asked) {
      if (value === undefined) continue;
      const { set, result } = decide(row, kind, value, now);
      const [updated] = await tx
        .update(memberLimits)
        .set({ ...set, updatedAt: now })
        .where(eq(memberLimits.memberId, memberId))
        .returning();
      row = updated!;
      changes.push(result);
      if (result.applied !== 'unchanged') {
        await tx.insert(memberLimitChanges).values({
          memberId,
          kind,
          action: result.applied === 'now' ? 'lowered' : 'raise_requested',
          value: result.value,
          effectiveAt: result.effectiveAt,
          createdAt: now,
        });
      }
    }
    return { ok: true as const, changes, limits: viewOf(row, now) };
  });
}

/**
 * Cancels a raise (or removal) still waiting: the limit in force stays.
 * @example await cancelPendingLimit(db, memberId, 'purchase') // { ok: true, limits } or NO_PENDING_LIMIT_CHANGE
 */
export async function cancelPendingLimit(
  db: Database,
  memberId: string,
  kind: LimitKind,
  now = new Date(),
): Promise<Outcome<{ ok: true; limits: MemberLimits }, LimitsRefusalCode>> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, memberId, now);
    const col = COLUMNS[kind];
    const at = row[col.pendingAt];
    if (at === null || due(at, now)) return refuse('NO_PENDING_LIMIT_CHANGE', { kind });
    const [updated] = await tx
      .update(memberLimits)
      .set({ [col.pendingValue]: null, [col.pendingAt]: null, updatedAt: now })
      .where(eq(memberLimits.memberId, memberId))
      .returning();
    await tx.insert(memberLimitChanges).values({
      memberId,
      kind,
      action: 'raise_canceled',
      value: row[col.limit],
      effectiveAt: now,
      createdAt: now,
    });
    return { ok: true as const, limits: viewOf(updated, now) };
  });
}

/**
 * Self-exclusion: no purchase and no draw until the end of the same day `months` later (JST). It cannot be
 * shortened or lifted by the member; a longer one may replace it, a shorter one is refused. Asking again on
 * the same day for the same months answers the same end (a retry changes nothing).
 * @example const out = await excludeSelf(db, memberId, 3) // { ok: true, until, lastDay: '2027-02-24' }
 */
export async function excludeSelf(
  db: Database,
  memberId: string,
  months: ExclusionMonths,
  now = new Date(),
): Promise<Outcome<{ ok: true; until: Date; lastDay: string; limits: MemberLimits }, LimitsRefusalCode>> {
  return db.transaction(async (tx) => {
    const row = await lockRow(tx, memberId, now);
    const until = exclusionEndFor(now, months);
    const current = foldRow(row, now).excludedUntil;
    if (current && current.getTime() > until.getTime()) {
      return refuse('SELF_EXCLUSION_ALREADY_LONGER', {
        excludedUntil: current.toISOString(),
        lastDay: exclusionLastDay(current),
      });
    }
    const unchanged = current !== null && current.getTime() === until.getTime();
    const [updated] = await tx
      .update(memberLimits)
      .set({ excludedUntil: until, excludedAt: current ? row.excludedAt : now, updatedAt: now })
      .where(eq(memberLimits.memberId, memberId))
      .returning();
    if (!unchanged) {
      await tx
        .insert(memberLimitChanges)
        .values({ memberId, kind: 'exclusion', action: 'excluded', value: months, effectiveAt: now, createdAt: now });
    }
    return { ok: true as const, until, lastDay: exclusionLastDay(until), limits: viewOf(updated, now) };
  });
}
