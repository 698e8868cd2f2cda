// 退会 in payments on a real database: a provider's event payload loses the member's spellings inside its
// strings and stays a valid JSON document with its amounts, literals and keys, even when a spelling is
// also JSON (a nickname `null` or `true`, digits) or a key (`status`): the deletion must never fail on it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { paymentEvents, paymentOrders } from '#db/schema';
import { redactPaymentEventsOf } from './erasure';

const handle = useTestDatabase('payments-erasure');

describe('redactPaymentEventsOf', () => {
  it('redacts string values only, leaving literals, numbers and keys that share a spelling', async () => {
    const memberId = await createMember(handle.db);
    const [order] = await handle.db
      .insert(paymentOrders)
      .values({
        id: randomUUID(),
        memberId,
        coinPackId: 'pack-1200',
        method: 'card',
        amountJpy: 1200,
        paidCoins: 1200,
        bonusCoins: 0,
        packName: '1,200コイン',
        providerRef: `ref-${memberId}`,
        receiptNo: `R-${memberId}`,
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning({ id: paymentOrders.id });
    const payload = {
      status: 'succeeded',
      amount: 1200,
      livemode: false,
      captured: true,
      refund: null,
      customer: { name: 'null', email: 'True.Null@example.jp', note: 'status 1200 の null さん' },
    };
    await handle.db.insert(paymentEvents).values({
      provider: 'sandbox',
      eventId: `evt-${memberId}`,
      type: 'charge.succeeded',
      orderId: order!.id,
      providerRef: `ref-${memberId}`,
      hint: 'test',
      payload,
    });
    const redacted = await redactPaymentEventsOf(handle.db, {
      memberId,
      spellings: ['null', 'true', '1200', 'status', 'true.null@example.jp'],
    });
    expect(redacted).toBe(1);
    const [event] = await handle.db
      .select({ payload: paymentEvents.payload })
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, `evt-${memberId}`));
    expect(event!.payload).toEqual({
      status: 'succeeded',
      amount: 1200,
      livemode: false,
      captured: true,
      refund: null,
      customer: {
        name: '〔退会により削除〕',
        email: '〔退会により削除〕',
        note: '〔退会により削除〕 〔退会により削除〕 の 〔退会により削除〕 さん',
      },
    });
    // Again: nothing left to redact, nothing rewritten.
    expect(await redactPaymentEventsOf(handle.db, { memberId, spellings: ['null', 'true.null@example.jp'] })).toBe(0);
  });
});
