// Property test: whatever a provider says about an order, in whatever order and however often (paid,
// refunded, charged back, failed, canceled, pending, with duplicates and stale answers), and whatever
// the member spends meanwhile, the order is credited at most once, never after a refund or chargeback
// was applied, reversals never take more than the order gave, and every wallet and payment invariant
// holds after each step.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { propertyRuns, testSettings } from '#tests/settings';
import { checkInvariants, getBalance } from '#modules/wallet';
import { coinLedger } from '#db/schema';
import { drawLots } from '#modules/draw';
import { applyProviderPayment, checkPaymentInvariants, type ProviderPayment } from './index';
import { paymentOrders } from './schema';
import { checkoutAsMember, sandboxHarness, type SandboxHarness } from './testing';

const handle = useTestDatabase('payments_props', { poolSize: 4 });
let sandbox: SandboxHarness;
let gachaId: string;

beforeAll(async () => {
  sandbox = sandboxHarness(handle.db);
  gachaId = await createPublishedPack(handle.db, { lots: 100_000, price: 100, drawOptions: [1] });
});

const AMOUNT = 3000; // coin-3000: 3,000 paid coins and 60 bonus coins

type Step = { kind: 'answer'; payment: ProviderPayment } | { kind: 'draw' };

const answer: fc.Arbitrary<Step> = fc
  .oneof(
    fc.constant<ProviderPayment>({ status: 'pending' }),
    fc.constant<ProviderPayment>({ status: 'paid', amountJpy: AMOUNT, providerPaymentId: 'p' }),
    fc.constant<ProviderPayment>({ status: 'paid', amountJpy: AMOUNT + 1, providerPaymentId: 'p' }),
    fc.constant<ProviderPayment>({ status: 'failed', reason: 'declined' }),
    fc.constant<ProviderPayment>({ status: 'canceled' }),
    fc.constant<ProviderPayment>({
      status: 'refunded',
      amountJpy: AMOUNT,
      refundedJpy: AMOUNT,
      providerPaymentId: 'p',
    }),
    fc.constant<ProviderPayment>({ status: 'refunded', amountJpy: AMOUNT, refundedJpy: 1000, providerPaymentId: 'p' }),
    fc.constant<ProviderPayment>({ status: 'charged_back', amountJpy: AMOUNT, providerPaymentId: 'p' }),
  )
  .map((payment) => ({ kind: 'answer' as const, payment }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: answer },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'draw' }) },
);

describe('provider answers in any order', () => {
  it('credit at most once, never after a reversal, and keep every invariant', async () => {
    const db = handle.db;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const member = await createMember(db);
        const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-3000');
        let reversedOnce = false;
        for (const s of steps) {
          if (s.kind === 'draw') {
            // The member spends some of whatever they hold (refused when they hold too little).
            await drawLots(db, {
              decisionDays: TEST_RULES.prizeDecisionDays,
              memberId: member,
              gachaId,
              count: 1,
              idempotencyKey: randomUUID(),
            });
          } else {
            const before = (await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)))[0]!;
            const result = await applyProviderPayment(db, orderId, s.payment, TEST_RULES.payments);
            if (before.reversedAt) reversedOnce = true;
            // Once reversed (or refunded/charged back before any credit), nothing credits it again.
            if (before.status === 'refunded' || before.status === 'charged_back') expect(result.credited).toBe(false);
            if (reversedOnce) expect(result.credited).toBe(false);
          }
          expect(await checkInvariants(db)).toEqual([]);
          expect(await checkPaymentInvariants(db)).toEqual([]);
        }
        const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
        const credits = await db
          .select()
          .from(coinLedger)
          .where(and(eq(coinLedger.ref, orderId), sql`${coinLedger.reason} in ('purchase', 'purchase_bonus')`));
        // At most one credit of each part, of exactly the order's coins.
        expect(credits.filter((c) => c.reason === 'purchase').map((c) => c.amount)).toEqual(
          order!.creditedAt ? [3000] : [],
        );
        expect(credits.filter((c) => c.reason === 'purchase_bonus').map((c) => c.amount)).toEqual(
          order!.creditedAt ? [60] : [],
        );
        // A reversal takes back no more than the order gave, and what it could not take is recorded.
        expect(order!.reversedPaid + order!.reversedFree + order!.unrecoveredCoins).toBe(order!.reversedAt ? 3060 : 0);
        expect(order!.reversedPaid).toBeLessThanOrEqual(3000);
        expect(order!.reversedFree).toBeLessThanOrEqual(60);
        // The member's wallet never goes below zero and holds nothing of a fully reversed order's remainder.
        const balance = await getBalance(db, member);
        expect(balance.paid).toBeGreaterThanOrEqual(0);
        expect(balance.free).toBeGreaterThanOrEqual(0);
        if (order!.reversedAt) expect(balance.paid + balance.free).toBe(0);
      }),
      { numRuns: propertyRuns(40), seed: testSettings.propertySeed },
    );
  });
});
