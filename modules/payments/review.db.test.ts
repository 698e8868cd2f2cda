// The review queue's decisions (besides a refund): a late payment held over the monthly cap is
// credited once by an operator, even when two decide at once; an amount that did not match can never
// be credited; a partial refund at the provider is closed with the coins kept. Each decision is one
// admin action with its audit entry; a refused one changes and records nothing.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { adminAuditLog, memberNotes } from '#db/schema';
import { digestOf } from '#tests/audit-digest';
import { commandLineOperator, decideReviewedOrderAsOperator } from '#modules/admin';
import { getBalance } from '#modules/wallet';
import {
  applyProviderPayment,
  checkPaymentInvariants,
  declareAge,
  ensureDefaultCoinPacks,
  reviewDecisionsFor,
  reviewReasonText,
  startCheckout,
} from './index';
import { paymentOrders } from './schema';
import { checkoutAsMember, sandboxHarness, TEST_ORIGIN, type SandboxHarness } from './testing';

const handle = useTestDatabase('payments_review', { poolSize: 4, invariants: 'afterEach' });
const operator = commandLineOperator();
let sandbox: SandboxHarness;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});
afterEach(async () => {
  expect(await checkPaymentInvariants(handle.db)).toEqual([]);
});

const order = async (id: string) => (await handle.db.select().from(paymentOrders).where(eq(paymentOrders.id, id)))[0]!;
const entries = async (id: string) =>
  (
    await handle.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetType, 'payment_order'), eq(adminAuditLog.targetId, id)))
  ).map((e) => e.action);

/** A payment that arrives after its order was canceled, when another order took the month's cap. */
async function lateOverCap() {
  const db = handle.db;
  const member = await createMember(db);
  await declareAge(db, member, true);
  const input = { memberId: member, packId: 'coin-10000', method: 'sandbox', origin: TEST_ORIGIN };
  const a = await startCheckout(db, sandbox.gateway, input, TEST_RULES.payments);
  await db.update(paymentOrders).set({ status: 'canceled' }).where(eq(paymentOrders.id, a.orderId));
  const b = await startCheckout(db, sandbox.gateway, input, TEST_RULES.payments);
  await applyProviderPayment(
    db,
    b.orderId,
    { status: 'paid', amountJpy: 10_000, providerPaymentId: `b-${b.orderId}` },
    TEST_RULES.payments,
  );
  await applyProviderPayment(
    db,
    a.orderId,
    { status: 'paid', amountJpy: 10_000, providerPaymentId: `a-${a.orderId}` },
    TEST_RULES.payments,
  );
  return { member, orderId: a.orderId };
}

describe('deciding an order held for review', () => {
  it('credits a late payment once, even with two operators deciding at once', async () => {
    const { member, orderId } = await lateOverCap();
    const held = await order(orderId);
    expect(held).toMatchObject({ status: 'review', failureReason: 'late_payment_over_cap', creditedAt: null });
    expect(reviewDecisionsFor(held)).toEqual(['credit']);
    expect(reviewReasonText(held.failureReason)).toBe('期限後に届いた支払いで、月の購入上限を超える');
    const before = await getBalance(handle.db, member);

    const decide = () =>
      decideReviewedOrderAsOperator(handle.db, operator, {
        orderId,
        decision: 'credit',
        reason: '会員に確認済み',
        rules: TEST_RULES.payments,
      });
    const [x, y] = await Promise.all([decide(), decide()]);
    expect([x.ok, y.ok].sort()).toEqual([false, true]);
    expect([x, y].find((r) => !r.ok)).toMatchObject({ code: 'ORDER_NOT_IN_REVIEW', details: { status: 'paid' } });
    const credited = await order(orderId);
    expect(credited.status).toBe('paid');
    expect(credited.creditedAt).not.toBeNull();
    const after = await getBalance(handle.db, member);
    expect(after.paid - before.paid).toBe(credited.paidCoins);
    expect(await entries(orderId)).toEqual(['order.review.credit']);
    // The reason is a staff note on the member (redacted by 退会); the entry keeps its digest and the note's id.
    const notes = await handle.db.select().from(memberNotes).where(eq(memberNotes.memberId, member));
    expect(notes.map((n) => n.text)).toEqual([`注文 ${credited.receiptNo} の審査（credit）の理由: 会員に確認済み`]);
    const [entry] = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, orderId));
    expect(entry!.after).toMatchObject({ reason: digestOf('会員に確認済み'), noteId: notes[0]!.id });
  });

  it('never credits an amount that did not match, and changes nothing when refused', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    await applyProviderPayment(
      db,
      orderId,
      { status: 'paid', amountJpy: 900, providerPaymentId: `m-${orderId}` },
      TEST_RULES.payments,
    );
    const held = await order(orderId);
    expect(held).toMatchObject({ status: 'review', failureReason: 'amount_mismatch:900' });
    expect(reviewDecisionsFor(held)).toEqual([]);
    expect(reviewReasonText(held.failureReason)).toBe('支払われた金額が注文と違う（¥900）');
    const refused = await decideReviewedOrderAsOperator(db, operator, {
      orderId,
      decision: 'credit',
      reason: 'x',
      rules: TEST_RULES.payments,
    });
    expect(refused).toMatchObject({ ok: false, code: 'REVIEW_DECISION_NOT_ALLOWED' });
    expect(await order(orderId)).toEqual(held);
    expect(await getBalance(db, member)).toMatchObject({ paid: 0, free: 0 });
    expect(await entries(orderId)).toEqual([]);
  });

  it('closes a partial refund with the coins kept', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const { orderId } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-1000');
    await applyProviderPayment(
      db,
      orderId,
      { status: 'paid', amountJpy: 1000, providerPaymentId: `p-${orderId}` },
      TEST_RULES.payments,
    );
    const paidBalance = await getBalance(db, member);
    await applyProviderPayment(
      db,
      orderId,
      { status: 'refunded', amountJpy: 1000, refundedJpy: 300, providerPaymentId: `p-${orderId}` },
      TEST_RULES.payments,
    );
    const held = await order(orderId);
    expect(held).toMatchObject({ status: 'review', failureReason: 'partial_refund:300' });
    expect(reviewDecisionsFor(held)).toEqual(['keep']);
    expect(
      await decideReviewedOrderAsOperator(db, operator, {
        orderId,
        decision: 'credit',
        reason: 'x',
        rules: TEST_RULES.payments,
      }),
    ).toMatchObject({ ok: false, code: 'REVIEW_DECISION_NOT_ALLOWED' });
    const kept = await decideReviewedOrderAsOperator(db, operator, {
      orderId,
      decision: 'keep',
      reason: '一部返金は送料分',
      rules: TEST_RULES.payments,
    });
    expect(kept.ok).toBe(true);
    expect(await order(orderId)).toMatchObject({ status: 'paid', refundedJpy: 300 });
    expect(await getBalance(db, member)).toEqual(paidBalance);
    expect(await entries(orderId)).toEqual(['order.review.keep']);
  });
});
