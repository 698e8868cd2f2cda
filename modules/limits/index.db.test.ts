// Self-limits against a real database (docs/decisions/035): lowering at once, raising exactly 7 days later,
// cancelling, self-exclusion that cannot be shortened, and both money paths honouring them in their own
// transactions — the draw (draw.sql through limits_draw_terms; concurrent draws cannot both pass a limit) and
// the checkout (under the member's purchase lock) — with Japan-time month edges while the server runs in UTC.
import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { describeRefusal } from '#modules/refusals';
import { getBalance, grantCoins } from '#modules/wallet';
import { drawLots, monthlyDrawSpend } from '#modules/draw';
import { getRemaining } from '#modules/gacha';
import {
  declareAge,
  ensureDefaultCoinPacks,
  getPurchaseStanding,
  PurchaseRefused,
  quotePurchase,
  startCheckout,
  DEFAULT_PAYMENT_RULES,
} from '#modules/payments';
import { sandboxHarness, TEST_ORIGIN, type SandboxHarness } from '#modules/payments/testing';
import {
  cancelPendingLimit,
  changeLimits,
  excludeSelf,
  exclusionEndFor,
  exclusionLastDay,
  jstMonthStart,
  limitChangeSchema,
  limitsInForce,
  memberLimitsOf,
  nextJstMonthStart,
  selfExclusionSchema,
  usageOf,
} from './index';

const handle = useTestDatabase('limits', { poolSize: 8, invariants: 'afterEach' });
let sandbox: SandboxHarness;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});

/** An instant given as Japan time (the server runs in UTC: the offset is written out). */
const jst = (text: string) => new Date(`${text}+09:00`);
const DAY = 24 * 60 * 60 * 1000;

/** Paid coins granted at `now` (so a draw at `now`, months ahead, can spend them before they expire). */
const grant = (memberId: string, coins: number, now: Date) =>
  grantCoins(handle.db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId,
    kind: 'paid',
    amount: coins,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `test:limits:${memberId}:${now.toISOString()}`,
    now,
  });

async function memberWithCoins(coins: number, now: Date) {
  const memberId = await createMember(handle.db);
  await grant(memberId, coins, now);
  return memberId;
}

/** A draw at `now`, or (undefined) at the database's own time, as the shop draws. */
const draw = (memberId: string, gachaId: string, count: number, now: Date | undefined) =>
  drawLots(handle.db, {
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
    decisionDays: TEST_RULES.prizeDecisionDays,
    now,
  });

const checkout = (memberId: string, packId: string, now?: Date) =>
  startCheckout(
    handle.db,
    sandbox.gateway,
    { memberId, packId, method: 'sandbox', origin: TEST_ORIGIN },
    DEFAULT_PAYMENT_RULES,
    now,
  );

async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PurchaseRefused) return { ...error.refusal, ...describeRefusal(error.refusal) };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Japan-time months and exclusion ends (server in UTC)', () => {
  it('turns the month at 15:00 UTC on the last day, across the year end', () => {
    expect(process.env.TZ ?? 'UTC').not.toBe('Asia/Tokyo');
    expect(jstMonthStart(jst('2026-11-30T23:59:59.999'))).toEqual(jst('2026-11-01T00:00:00'));
    expect(jstMonthStart(jst('2026-12-01T00:00:00'))).toEqual(new Date('2026-11-30T15:00:00Z'));
    expect(jstMonthStart(new Date('2026-12-31T14:59:59Z'))).toEqual(jst('2026-12-01T00:00:00'));
    expect(jstMonthStart(new Date('2026-12-31T15:00:00Z'))).toEqual(jst('2027-01-01T00:00:00'));
    expect(nextJstMonthStart(jst('2026-12-15T12:00:00'))).toEqual(new Date('2026-12-31T15:00:00Z'));
  });

  it('ends an exclusion after the same day N months later, clamped to the month end', () => {
    expect(exclusionEndFor(jst('2026-11-24T14:00:00'), 1)).toEqual(jst('2026-12-25T00:00:00'));
    expect(exclusionLastDay(exclusionEndFor(jst('2026-11-24T14:00:00'), 1))).toBe('2026-12-24');
    expect(exclusionLastDay(exclusionEndFor(jst('2026-11-30T23:30:00'), 3))).toBe('2027-02-28');
    expect(exclusionLastDay(exclusionEndFor(jst('2027-08-31T08:00:00'), 6))).toBe('2028-02-29');
    // 00:30 JST on 12/1 is still 11/30 in UTC: the day is Japan's.
    expect(exclusionLastDay(exclusionEndFor(jst('2026-12-01T00:30:00'), 1))).toBe('2027-01-01');
  });

  it('reminds at 80 % and not before', () => {
    expect(usageOf(7_999, 10_000)?.reminder).toBe(false);
    expect(usageOf(8_000, 10_000)).toEqual({ limit: 10_000, used: 8_000, remaining: 2_000, reminder: true });
    expect(usageOf(500, null)).toBeNull();
  });

  it('reads input strictly, with Japanese messages', () => {
    expect(limitChangeSchema.safeParse({ purchaseLimitJpy: 5000 }).success).toBe(true);
    expect(limitChangeSchema.safeParse({ drawLimitCoins: null }).success).toBe(true);
    const bad = [{}, { purchaseLimitJpy: -1 }, { drawLimitCoins: 1.5 }, { purchaseLimitJpy: 100_000_000 }];
    for (const input of bad) {
      const parsed = limitChangeSchema.safeParse(input);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/[上限変更]/);
    }
    expect(selfExclusionSchema.safeParse({ months: 3, confirm: true }).success).toBe(true);
    expect(selfExclusionSchema.safeParse({ months: 2, confirm: true }).error?.issues[0]?.message).toContain('1か月');
    expect(selfExclusionSchema.safeParse({ months: 1 }).error?.issues[0]?.message).toContain('解除・短縮');
  });
});

describe('changing limits', () => {
  it('sets a first limit and lowers at once; raises exactly 7 days later', async () => {
    const member = await createMember(handle.db);
    const t0 = jst('2026-11-24T10:00:00');
    const first = await changeLimits(handle.db, member, { purchaseLimitJpy: 30_000 }, t0);
    expect(first.changes).toEqual([{ kind: 'purchase', applied: 'now', value: 30_000, effectiveAt: t0 }]);
    const lower = await changeLimits(handle.db, member, { purchaseLimitJpy: 10_000 }, t0);
    expect(lower.limits.purchase).toEqual({ limit: 10_000, pending: null });

    const raise = await changeLimits(handle.db, member, { purchaseLimitJpy: 50_000 }, t0);
    const at = new Date(t0.getTime() + 7 * DAY);
    expect(raise.changes[0]).toEqual({ kind: 'purchase', applied: 'pending', value: 50_000, effectiveAt: at });
    expect(raise.limits.purchase).toEqual({ limit: 10_000, pending: { value: 50_000, effectiveAt: at } });
    // One millisecond before the boundary the lower limit holds; at the boundary the raise applies.
    expect((await limitsInForce(handle.db, member, new Date(at.getTime() - 1))).purchaseLimitJpy).toBe(10_000);
    expect((await limitsInForce(handle.db, member, at)).purchaseLimitJpy).toBe(50_000);
    expect((await memberLimitsOf(handle.db, member, at)).purchase).toEqual({ limit: 50_000, pending: null });
  });

  it('waits 7 days to remove a limit, and a lower limit meanwhile cancels the wait', async () => {
    const member = await createMember(handle.db);
    const t0 = jst('2026-11-24T10:00:00');
    await changeLimits(handle.db, member, { drawLimitCoins: 5_000 }, t0);
    const removal = await changeLimits(handle.db, member, { drawLimitCoins: null }, t0);
    expect(removal.limits.draw).toEqual({
      limit: 5_000,
      pending: { value: null, effectiveAt: new Date(t0.getTime() + 7 * DAY) },
    });
    const later = new Date(t0.getTime() + 2 * DAY);
    const lowered = await changeLimits(handle.db, member, { drawLimitCoins: 3_000 }, later);
    expect(lowered.limits.draw).toEqual({ limit: 3_000, pending: null });
    expect((await limitsInForce(handle.db, member, new Date(t0.getTime() + 30 * DAY))).drawLimitCoins).toBe(3_000);
  });

  it('keeps the time of a waiting raise when asked for no more; more starts the 7 days again', async () => {
    const member = await createMember(handle.db);
    const t0 = jst('2026-11-24T10:00:00');
    await changeLimits(handle.db, member, { purchaseLimitJpy: 10_000 }, t0);
    await changeLimits(handle.db, member, { purchaseLimitJpy: 50_000 }, t0);
    const t1 = new Date(t0.getTime() + 3 * DAY);
    const smaller = await changeLimits(handle.db, member, { purchaseLimitJpy: 20_000 }, t1);
    expect(smaller.limits.purchase.pending).toEqual({ value: 20_000, effectiveAt: new Date(t0.getTime() + 7 * DAY) });
    const bigger = await changeLimits(handle.db, member, { purchaseLimitJpy: 90_000 }, t1);
    expect(bigger.limits.purchase.pending).toEqual({ value: 90_000, effectiveAt: new Date(t1.getTime() + 7 * DAY) });
  });

  it('cancels a waiting raise, and says so when there is none', async () => {
    const member = await createMember(handle.db);
    const t0 = jst('2026-11-24T10:00:00');
    await changeLimits(handle.db, member, { purchaseLimitJpy: 10_000, drawLimitCoins: 1_000 }, t0);
    await changeLimits(handle.db, member, { purchaseLimitJpy: 20_000 }, t0);
    const canceled = await cancelPendingLimit(handle.db, member, 'purchase', t0);
    expect(canceled).toMatchObject({ ok: true, limits: { purchase: { limit: 10_000, pending: null } } });
    const none = await cancelPendingLimit(handle.db, member, 'draw', t0);
    expect(none).toMatchObject({ ok: false, code: 'NO_PENDING_LIMIT_CHANGE' });
    expect(describeRefusal(none as never)).toMatchObject({ status: 409, message: expect.stringContaining('変更予約') });
  });
});

describe('self-exclusion', () => {
  it('cannot be shortened; a longer one replaces it; the same request again changes nothing', async () => {
    const member = await createMember(handle.db);
    const t0 = jst('2026-11-24T10:00:00');
    const three = await excludeSelf(handle.db, member, 3, t0);
    expect(three).toMatchObject({ ok: true, lastDay: '2027-02-24' });
    expect(await excludeSelf(handle.db, member, 3, jst('2026-11-24T22:00:00'))).toMatchObject({
      ok: true,
      lastDay: '2027-02-24',
    });
    const shorter = await excludeSelf(handle.db, member, 1, t0);
    expect(shorter).toMatchObject({ ok: false, code: 'SELF_EXCLUSION_ALREADY_LONGER' });
    expect(describeRefusal(shorter as never).message).toContain('2027年2月24日');
    expect(await excludeSelf(handle.db, member, 6, t0)).toMatchObject({ ok: true, lastDay: '2027-05-24' });
    // It ends by itself at 00:00 JST after the last day.
    expect((await limitsInForce(handle.db, member, jst('2027-05-24T23:59:59'))).excludedUntil).not.toBeNull();
    expect((await limitsInForce(handle.db, member, jst('2027-05-25T00:00:00'))).excludedUntil).toBeNull();
  });
});

describe('the draw honours the limits in its own call', () => {
  // A published pack is on sale from its publication (real time): every draw here is at or after now.
  it('refuses every draw during an exclusion, taking nothing, and draws again after it', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 50, price: 100 });
    const t0 = new Date();
    const member = await memberWithCoins(5_000, t0);
    const excluded = await excludeSelf(handle.db, member, 1, t0);
    if (!excluded.ok) throw new Error(excluded.code);
    const refused = await draw(member, gachaId, 1, t0);
    expect(refused).toMatchObject({ ok: false, code: 'SELF_EXCLUDED' });
    const words = describeRefusal(refused as never);
    expect(words.status).toBe(403);
    const [y, m, d] = excluded.lastDay.split('-').map(Number);
    expect(words.message).toBe(
      `自己除外期間中（${y}年${m}月${d}日まで）は購入・ガチャができません。期間中の解除・短縮はできません。獲得商品の発送・交換はご利用いただけます。`,
    );
    expect((await getBalance(handle.db, member, t0)).paid).toBe(5_000);
    expect((await getRemaining(handle.db, gachaId)).remaining).toBe(50);
    expect(await draw(member, gachaId, 1, new Date(excluded.until.getTime() - 1))).toMatchObject({
      code: 'SELF_EXCLUDED',
    });
    await grant(member, 1_000, excluded.until);
    expect(await draw(member, gachaId, 1, excluded.until)).toMatchObject({ ok: true });
  });

  it('refuses a draw over the month’s draw-spend limit; the next JST month starts from zero (month end, year end)', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 200, price: 100 });
    const member = await createMember(handle.db);
    await changeLimits(handle.db, member, { drawLimitCoins: 1_500 });
    // The last minute of this Japan-time month, then its first instant (15:00 UTC).
    const monthStart = nextJstMonthStart(new Date());
    const lastMinute = new Date(monthStart.getTime() - 60_000);
    await grant(member, 5_000, lastMinute);
    expect(await draw(member, gachaId, 10, lastMinute)).toMatchObject({ ok: true });
    const over = await draw(member, gachaId, 10, lastMinute);
    expect(over).toMatchObject({
      ok: false,
      code: 'DRAW_SPEND_LIMIT_REACHED',
      details: { limitCoins: 1_500, usedCoins: 1_000, remainingCoins: 500 },
    });
    expect(describeRefusal(over as never)).toMatchObject({
      status: 422,
      message: expect.stringContaining('今月のガチャ消費上限（1,500コイン）に達しています'),
    });
    expect(await draw(member, gachaId, 1, lastMinute)).toMatchObject({ ok: true });
    expect(await monthlyDrawSpend(handle.db, member, lastMinute)).toBe(1_100);
    expect(await monthlyDrawSpend(handle.db, member, monthStart)).toBe(0);
    expect(await draw(member, gachaId, 10, monthStart)).toMatchObject({ ok: true });
    // The year end: 23:59:59 JST on 12/31 is still December, 00:00 on 1/1 is January.
    const year = Number(new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 4));
    const newYear = jst(`${year + 1}-01-01T00:00:00`);
    const lastSecond = new Date(newYear.getTime() - 1000);
    const other = await memberWithCoins(5_000, lastSecond);
    await changeLimits(handle.db, other, { drawLimitCoins: 1_500 });
    expect(await draw(other, gachaId, 10, lastSecond)).toMatchObject({ ok: true });
    expect(await draw(other, gachaId, 10, lastSecond)).toMatchObject({ code: 'DRAW_SPEND_LIMIT_REACHED' });
    expect(await draw(other, gachaId, 10, newYear)).toMatchObject({ ok: true });
  });

  it('applies a raised draw limit exactly 7 days after it was asked for', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 100, price: 100 });
    const t0 = new Date();
    const member = await memberWithCoins(10_000, t0);
    await changeLimits(handle.db, member, { drawLimitCoins: 500 }, t0);
    await changeLimits(handle.db, member, { drawLimitCoins: 5_000 }, t0);
    const at = new Date(t0.getTime() + 7 * DAY);
    expect(await draw(member, gachaId, 10, new Date(at.getTime() - 1))).toMatchObject({
      ok: false,
      code: 'DRAW_SPEND_LIMIT_REACHED',
    });
    expect(await draw(member, gachaId, 10, at)).toMatchObject({ ok: true });
  });

  // A real race on PostgreSQL (the wallet row serialises a member's draws); on PGlite they run in turn, same answer.
  it('lets six draws at once spend no more than the limit together', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 200, price: 100 });
    const t0 = new Date();
    const member = await memberWithCoins(20_000, t0);
    await changeLimits(handle.db, member, { drawLimitCoins: 2_000 }, t0);
    // At the database's own time, as in the shop: each draw is stamped when its transaction began.
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => draw(member, gachaId, 10, undefined)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(2);
    expect(outcomes.filter((o) => !o.ok && o.code === 'DRAW_SPEND_LIMIT_REACHED')).toHaveLength(4);
    expect(await monthlyDrawSpend(handle.db, member)).toBe(2_000);
    expect((await getBalance(handle.db, member)).paid).toBe(18_000);
  });
});

describe('the purchase honours the limits under the purchase lock', () => {
  it('refuses the quote and the checkout during an exclusion, with the end day', async () => {
    const member = await createMember(handle.db);
    await declareAge(handle.db, member, false);
    await excludeSelf(handle.db, member, 1);
    const refused = await refusalOf(checkout(member, 'coin-1000'));
    expect(refused).toMatchObject({ code: 'SELF_EXCLUDED', status: 403 });
    expect(refused.message).toMatch(/^自己除外期間中（\d{4}年\d{1,2}月\d{1,2}日まで）は購入・ガチャができません。/);
    const quoted = await refusalOf(
      quotePurchase(
        handle.db,
        sandbox.gateway,
        { memberId: member, packId: 'coin-1000', method: 'sandbox' },
        DEFAULT_PAYMENT_RULES,
      ),
    );
    expect(quoted.code).toBe('SELF_EXCLUDED');
  });

  it('counts open checkouts against the purchase limit, and says how much is left', async () => {
    const member = await createMember(handle.db);
    await declareAge(handle.db, member, false);
    await changeLimits(handle.db, member, { purchaseLimitJpy: 5_000 });
    await checkout(member, 'coin-3000');
    const standing = await getPurchaseStanding(handle.db, member, DEFAULT_PAYMENT_RULES);
    expect(standing).toMatchObject({ usedJpy: 3_000, selfLimitJpy: 5_000, excludedUntil: null });
    const refused = await refusalOf(checkout(member, 'coin-3000'));
    expect(refused).toMatchObject({ code: 'PURCHASE_LIMIT_REACHED', status: 422 });
    expect(refused.message).toBe(
      '今月の購入上限（¥5,000）に達しています。ご自身で設定した上限まで、今月はあと¥2,000です。',
    );
    expect(await checkout(member, 'coin-1000')).toMatchObject({ replay: false });
  });

  it('starts the purchase limit again in the next JST month (month end, year end)', async () => {
    const year = Number(new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 4));
    // The first instant of next month, and of next year (00:00 JST, 15:00 UTC the day before).
    for (const monthStart of [nextJstMonthStart(new Date()), jst(`${year + 1}-01-01T00:00:00`)]) {
      const member = await createMember(handle.db);
      await declareAge(handle.db, member, false);
      await changeLimits(handle.db, member, { purchaseLimitJpy: 1_000 });
      await checkout(member, 'coin-1000', new Date(monthStart.getTime() - 60_000));
      expect((await refusalOf(checkout(member, 'coin-1000', new Date(monthStart.getTime() - 1)))).code).toBe(
        'PURCHASE_LIMIT_REACHED',
      );
      expect(await checkout(member, 'coin-1000', monthStart)).toMatchObject({ replay: false });
    }
  });

  // A real race on PostgreSQL: the member's purchase profile row is the lock; on PGlite the six run in turn.
  it('lets six checkouts at once pass the purchase limit once', async () => {
    const member = await createMember(handle.db);
    await declareAge(handle.db, member, false);
    await changeLimits(handle.db, member, { purchaseLimitJpy: 4_000 });
    const attempts = await Promise.allSettled(Array.from({ length: 6 }, () => checkout(member, 'coin-3000')));
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(
      attempts.filter(
        (a) => a.status === 'rejected' && (a.reason as PurchaseRefused).code === 'PURCHASE_LIMIT_REACHED',
      ),
    ).toHaveLength(5);
  });
});
