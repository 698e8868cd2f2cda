// A coin pack's sale window (docs/decisions/031): listed and sold only while starts_at <= now <
// ends_at, compared when read; outside it a quote and a checkout are refused with
// PACK_OUTSIDE_WINDOW (before it opens: the start in Japan time; after: ended), and no order is made.
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { describeRefusal } from '#modules/refusals';
import { createMember, TEST_RULES } from '#tests/fixtures';
import {
  coinPackFormSchema,
  declareAge,
  ensureDefaultCoinPacks,
  getPurchaseStanding,
  listCoinPacks,
  PurchaseRefused,
  quotePurchase,
  saveCoinPack,
  startCheckout,
} from './index';
import { paymentOrders } from './schema';
import { sandboxHarness, TEST_ORIGIN, type SandboxHarness } from './testing';

const handle = useTestDatabase('payments-window');
let sandbox: SandboxHarness;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PurchaseRefused) return describeRefusal(error.refusal);
    throw error;
  }
  throw new Error('expected a refusal');
};

const start = new Date('2027-03-01T00:00:00Z');
const end = new Date('2027-03-08T00:00:00Z');

describe('a coin pack with a sale window', () => {
  it('is listed and sold only inside its window, and refused in Japanese outside it', async () => {
    const db = handle.db;
    await saveCoinPack(db, {
      id: 'spring',
      name: '春の限定',
      priceJpy: 3000,
      paidCoins: 3000,
      bonusCoins: 300,
      sortOrder: 5,
      active: true,
      startsAt: start,
      endsAt: end,
    });
    const member = await createMember(db);
    await declareAge(db, member, false);
    const standing = await getPurchaseStanding(db, member, TEST_RULES.payments);
    const ids = async (now: Date) => (await listCoinPacks(db, standing, now)).map((p) => p.id);
    expect(await ids(new Date(start.getTime() - 1))).not.toContain('spring');
    expect(await ids(start)).toContain('spring');
    expect(await ids(new Date(end.getTime() - 1))).toContain('spring');
    expect(await ids(end)).not.toContain('spring');

    const input = { memberId: member, packId: 'spring', method: 'sandbox' };
    const early = await refusal(
      quotePurchase(db, sandbox.gateway, input, TEST_RULES.payments, new Date(start.getTime() - 60_000)),
    );
    expect(early).toMatchObject({ code: 'PACK_OUTSIDE_WINDOW', status: 409 });
    expect(early.message).toBe(
      'このコインパックの販売は2027/3/1 09:00（日本時間）からです。販売開始後にお求めいただくか、ほかのコインパックをお選びください。',
    );
    const late = await refusal(
      startCheckout(db, sandbox.gateway, { ...input, origin: TEST_ORIGIN }, TEST_RULES.payments, end),
    );
    expect(late.message).toBe('このコインパックの販売期間は終了しました。ほかのコインパックをお選びください。');
    expect(await db.select().from(paymentOrders).where(eq(paymentOrders.memberId, member))).toEqual([]);

    const inside = new Date(start.getTime() + 3600_000);
    expect((await quotePurchase(db, sandbox.gateway, input, TEST_RULES.payments, inside)).totalCoins).toBe(3300);
    const made = await startCheckout(
      db,
      sandbox.gateway,
      { ...input, origin: TEST_ORIGIN },
      TEST_RULES.payments,
      inside,
    );
    expect(made.redirectUrl).toBeTruthy();

    // A stopped pack stays 「販売していません」 whatever its window says.
    await saveCoinPack(db, { id: 'spring', name: '春の限定', priceJpy: 3000, paidCoins: 3000, active: false });
    const stopped = await refusal(quotePurchase(db, sandbox.gateway, input, TEST_RULES.payments, start));
    expect(stopped.code).toBe('PACK_UNAVAILABLE');
  });

  it('reads the form in Japan time and refuses an end before the start', () => {
    const base = { id: 'x', name: 'x', priceJpy: '1', paidCoins: '1', bonusCoins: '0', sortOrder: '0' };
    const parsed = coinPackFormSchema.parse({ ...base, startsAt: '2027-03-01T09:00', endsAt: '' });
    expect(parsed.startsAt?.toISOString()).toBe('2027-03-01T00:00:00.000Z');
    expect(parsed.endsAt).toBeNull();
    const backwards = coinPackFormSchema.safeParse({
      ...base,
      startsAt: '2027-03-02T09:00',
      endsAt: '2027-03-01T09:00',
    });
    expect(backwards.success ? null : backwards.error.issues[0]?.message).toBe(
      '終了日時は開始日時より後にしてください。',
    );
    const nonsense = coinPackFormSchema.safeParse({ ...base, startsAt: '2027-02-31T09:00' });
    expect(nonsense.success ? null : nonsense.error.issues[0]?.message).toContain('日本時間');
  });
});
