// Self-limits (responsible play, docs/decisions/035): a member's own monthly purchase limit (JPY) and
// draw-spend limit (coins), and self-exclusion for 1, 3 or 6 months. Lowering takes effect at once,
// raising (or removing) 7 days later; an exclusion cannot be shortened or lifted by the member. This module
// owns the settings only: payments and draw count what was used and honour the limits in their own
// transactions (payments through limitsInForce, the draw through the SQL function limits_draw_terms).
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { memberLimitChanges, memberLimits } from './schema';

export const LIMIT_KINDS = ['purchase', 'draw'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** Self-exclusion lengths a member may choose, in calendar months. */
export const EXCLUSION_MONTHS = [1, 3, 6] as const;
export type ExclusionMonths = (typeof EXCLUSION_MONTHS)[number];

/** A raise or a removal waits this long (the product rule: a cooling-off, not a setting). */
export const RAISE_WAIT_DAYS = 7;

/** The largest limit a member can type: above it a limit means nothing (the shop's own cap is lower). */
export const LIMIT_MAX: Readonly<Record<LimitKind, number>> = { purchase: 10_000_000, draw: 100_000_000 };

/** A reminder is shown once this share of a limit is used in the month. */
export const REMINDER_PERCENT = 80;

export const LIMITS_REFUSAL_CODES = ['NO_PENDING_LIMIT_CHANGE', 'SELF_EXCLUSION_ALREADY_LONGER'] as const;
export type LimitsRefusalCode = (typeof LIMITS_REFUSAL_CODES)[number];

/** What the payments module refuses for a self-limit (worded in refusal-words.ts). */
export const PURCHASE_SELF_LIMIT_CODES = ['SELF_EXCLUDED', 'PURCHASE_LIMIT_REACHED'] as const;

const JST_OFFSET_MS = 9 * 60 * 60 * 1000; // Japan has no daylight saving time.
const DAY_MS = 24 * 60 * 60 * 1000;

/** The start of the calendar month in Japan time containing `now`. @example jstMonthStart(new Date('2026-11-30T15:00:00Z')) // 2026-11-30T15:00:00Z (12/1 0:00 JST) */
export function jstMonthStart(now: Date): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - JST_OFFSET_MS);
}

/** The start of the next calendar month in Japan time. @example nextJstMonthStart(new Date('2026-12-15T00:00:00Z')) // 2026-12-31T15:00:00Z */
export function nextJstMonthStart(now: Date): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - JST_OFFSET_MS);
}

/** The Japan-time day of an instant, 'YYYY-MM-DD'. */
const jstDayOf = (instant: Date) => new Date(instant.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);

/**
 * When an exclusion chosen at `now` ends: 00:00 JST after the same day `months` later (the day clamped to
 * the month's end: 1/31 + 1 month lasts through 2/28), so the member reads a whole last day.
 * @example exclusionEndFor(new Date('2026-11-24T05:00:00Z'), 1) // 2026-12-24T15:00:00Z (through 12/24 JST)
 */
export function exclusionEndFor(now: Date, months: number): Date {
  const local = new Date(now.getTime() + JST_OFFSET_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + months;
  const lastOfTarget = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastOfTarget);
  return new Date(Date.UTC(y, m, day + 1) - JST_OFFSET_MS);
}

/** The last day (JST, 'YYYY-MM-DD') an exclusion ending at `until` covers. */
export const exclusionLastDay = (until: Date) => jstDayOf(new Date(until.getTime() - 1));

/** A limit amount as typed: a whole number from 0 to the kind's maximum; null removes the limit. */
const limitAmount = (kind: LimitKind) =>
  z
    .int({ error: '上限は半角数字（整数）で入力してください。' })
    .min(0, { error: '上限は0以上で入力してください。' })
    .max(LIMIT_MAX[kind], {
      error: `上限は${LIMIT_MAX[kind].toLocaleString('ja-JP')}${kind === 'purchase' ? '円' : 'コイン'}以下で入力してください。`,
    })
    .nullable();

/** A change of one or both limits (null: no limit). The page's form and the API read it alike. */
export const limitChangeSchema = z
  .object({
    purchaseLimitJpy: limitAmount('purchase')
      .optional()
      .meta({ description: '1か月のコイン購入上限（円、日本時間の暦月）。null で上限なし（7日後に反映）' }),
    drawLimitCoins: limitAmount('draw')
      .optional()
      .meta({ description: '1か月のガチャ消費上限（コイン、日本時間の暦月）。null で上限なし（7日後に反映）' }),
  })
  .refine((v) => v.purchaseLimitJpy !== undefined || v.drawLimitCoins !== undefined, {
    error: '変更する上限を指定してください。',
  });
export type LimitChange = z.infer<typeof limitChangeSchema>;

export const limitKindSchema = z.enum(LIMIT_KINDS, { error: '上限の種類が正しくありません。' });

export const selfExclusionSchema = z.object({
  months: z
    .union([z.literal(1), z.literal(3), z.literal(6)], {
      error: '自己除外の期間は1か月・3か月・6か月から選んでください。',
    })
    .meta({ description: '自己除外の期間（か月）' }),
  confirm: z
    .literal(true, { error: '自己除外は期間中に解除・短縮できません。確認のうえ confirm に true を指定してください。' })
    .meta({ description: '期間中は解除も短縮もできないことの確認（true）' }),
});

type LimitsRow = typeof memberLimits.$inferSelect;

/** The limits that apply at `now`: a due pending change counts as applied. */
export interface LimitsInForce {
  purchaseLimitJpy: number | null;
  drawLimitCoins: number | null;
  /** Set while an exclusion lasts. */
  excludedUntil: Date | null;
}

const NO_LIMITS: LimitsInForce = { purchaseLimitJpy: null, drawLimitCoins: null, excludedUntil: null };

const due = (at: Date | null, now: Date) => at !== null && at.getTime() <= now.getTime();

function foldRow(row: LimitsRow | undefined, now: Date): LimitsInForce {
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

function viewOf(row: LimitsRow | undefined, now: Date): MemberLimits {
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

/** How much of a limit is used this month, and whether the 80 % reminder is due. Null without a limit. */
export interface LimitUsage {
  limit: number;
  used: number;
  remaining: number;
  /** ≥ REMINDER_PERCENT of the limit used (or the limit is 0). */
  reminder: boolean;
}

/** @example usageOf(8000, 10000) // { limit: 10000, used: 8000, remaining: 2000, reminder: true } */
export function usageOf(used: number, limit: number | null): LimitUsage | null {
  if (limit === null) return null;
  return {
    limit,
    used,
    remaining: Math.max(0, limit - used),
    reminder: used * 100 >= limit * REMINDER_PERCENT,
  };
}

/**
 * The self-limit refusal of a purchase of `priceJpy` when `usedJpy` is already committed this month, or null.
 * The payments module calls it with its own count, inside its checkout transaction.
 * @example purchaseSelfLimitRefusal(limits, 9000, 2000) // { code: 'PURCHASE_LIMIT_REACHED', details: { limitJpy: 10000, … } }
 */
export function purchaseSelfLimitRefusal(
  limits: LimitsInForce,
  usedJpy: number,
  priceJpy: number,
): { code: (typeof PURCHASE_SELF_LIMIT_CODES)[number]; details: Record<string, unknown> } | null {
  if (limits.excludedUntil) {
    return {
      code: 'SELF_EXCLUDED',
      details: { excludedUntil: limits.excludedUntil.toISOString(), lastDay: exclusionLastDay(limits.excludedUntil) },
    };
  }
  if (limits.purchaseLimitJpy !== null && usedJpy + priceJpy > limits.purchaseLimitJpy) {
    return {
      code: 'PURCHASE_LIMIT_REACHED',
      details: {
        limitJpy: limits.purchaseLimitJpy,
        usedJpy,
        remainingJpy: Math.max(0, limits.purchaseLimitJpy - usedJpy),
      },
    };
  }
  return null;
}
export { SELF_EXCLUSION_REFUSAL_WORDS, LIMITS_REFUSAL_WORDS } from './refusal-words';
