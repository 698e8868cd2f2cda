// Members' shipping requests on a real database: a request reserves its prizes, seals its address,
// spends its fee and mails the member in one transaction, once per key; every refusal leaves nothing;
// the quote, the list and one request; the member's cancel (prizes back, fee refunded); another
// member's request is never found; and the races of issue 12 on PostgreSQL with two connections.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { shippingMember, testShippingRules } from '#tests/shipping';
import {
  coinLedger,
  outboundMessages,
  prizes,
  purchaseProfiles,
  shippingRequestItems,
  shippingRequests,
} from '#db/schema';
import { commandLineOperator } from '#modules/admin';
import { autoConvertDuePrizes, convertPrizes, listPrizes } from '#modules/draw';
import { checkInvariants, getBalance, listLedgerEntries } from '#modules/wallet';
import {
  cancelShippingRequest,
  createShippingRequest,
  getShippingRequest,
  jstDateOf,
  listShippingRequests,
  promisedShipDate,
  prepareShippingRequests,
  quoteShippingRequest,
  rekeyShippingRequests,
} from './index';

const handle = useTestDatabase('shipping-requests', { poolSize: 4 });
const rules = testShippingRules();
const DAY = 86_400_000;

const create = (
  member: { memberId: string; addressId: string },
  prizeIds: string[],
  options: { key?: string; rules?: typeof rules; now?: Date; feeCoins?: number } = {},
) =>
  createShippingRequest(handle.db, options.rules ?? rules, {
    memberId: member.memberId,
    addressId: member.addressId,
    prizeIds,
    idempotencyKey: options.key ?? randomUUID(),
    feeCoins: options.feeCoins,
    now: options.now,
  });

async function prizeStatuses(ids: string[]) {
  const rows = await handle.db
    .select({ id: prizes.id, status: prizes.status })
    .from(prizes)
    .where(inArray(prizes.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

const mailsTo = async (memberId: string, template?: string) =>
  handle.db
    .select({ template: outboundMessages.template, text: outboundMessages.textBody })
    .from(outboundMessages)
    .where(
      and(eq(outboundMessages.memberId, memberId), template ? eq(outboundMessages.template, template) : undefined),
    );

const requestsOf = async (memberId: string) =>
  handle.db.select().from(shippingRequests).where(eq(shippingRequests.memberId, memberId));

describe('making a shipping request', () => {
  it('reserves the prizes, seals the address, promises a date, starts the timeline and mails the member', async () => {
    const member = await shippingMember(handle.db, rules, { prizes: 3 });
    // Friday 10:00 in Japan before Golden Week: 4/29–5/6 are holidays (5/6 振替休日), so the 5th business day is 5/8.
    const now = new Date('2030-04-26T01:00:00Z');
    const made = await create(member, member.prizeIds.slice(0, 2), { now });
    expect(made).toMatchObject({ ok: true, replay: false });
    if (!made.ok) return;
    const request = made.request;
    expect(request).toMatchObject({
      status: 'requested',
      itemCount: 2,
      feeCoins: 0,
      promisedDate: '2030-05-08',
      cancelable: true,
      late: false,
      address: { name: '山田 太郎', prefecture: '東京都', town: '千代田1-1' },
    });
    expect(request.items.map((i) => i.prizeId).sort()).toEqual(member.prizeIds.slice(0, 2).sort());
    expect(request.events.map((e) => [e.kind, e.status, e.actor])).toEqual([['requested', 'requested', 'member']]);
    expect(await prizeStatuses(member.prizeIds)).toEqual({
      [member.prizeIds[0]!]: 'shipping',
      [member.prizeIds[1]!]: 'shipping',
      [member.prizeIds[2]!]: 'pending',
    });
    const [row] = await requestsOf(member.memberId);
    expect(row!.addressSealed).not.toContain('山田');
    expect(row!.shipDeadline.toISOString()).toBe('2030-05-08T15:00:00.000Z');
    const mails = await mailsTo(member.memberId, 'shipping-requested');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('2030年5月8日（水）');
    expect(mails[0]!.text).toContain(`https://oripa.example.jp/mypage/shipping/${request.id}`);
  });

  it('answers a retry with the request it made, and refuses the key for another request', async () => {
    const member = await shippingMember(handle.db, rules, { prizes: 2 });
    const key = randomUUID();
    const first = await create(member, [member.prizeIds[0]!], { key });
    const again = await create(member, [member.prizeIds[0]!], { key });
    expect(again).toMatchObject({ ok: true, replay: true });
    if (first.ok && again.ok) expect(again.request.id).toBe(first.request.id);
    expect(await create(member, [member.prizeIds[1]!], { key })).toMatchObject({
      ok: false,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await requestsOf(member.memberId)).toHaveLength(1);
    expect(await mailsTo(member.memberId, 'shipping-requested')).toHaveLength(1);
  });

  it('refuses without a verified phone, under a chargeback hold, below the minimum, or when the fee changed', async () => {
    const unverified = await shippingMember(handle.db, rules, { prizes: 1, phone: false });
    expect(await create(unverified, unverified.prizeIds)).toMatchObject({
      ok: false,
      code: 'SHIPPING_PHONE_UNVERIFIED',
    });

    const held = await shippingMember(handle.db, rules, { prizes: 1 });
    await handle.db.insert(purchaseProfiles).values({
      memberId: held.memberId,
      declaredMinor: false,
      holdReason: `chargeback:${randomUUID()}`,
      holdAt: new Date(),
    });
    expect(await create(held, held.prizeIds)).toEqual({
      ok: false,
      code: 'SHIPPING_HOLD',
      details: { reason: 'chargeback' },
    });
    expect(await quoteShippingRequest(handle.db, rules, held.memberId, { prizeIds: held.prizeIds })).toMatchObject({
      ok: false,
      code: 'SHIPPING_HOLD',
    });

    const few = await shippingMember(handle.db, rules, { prizes: 2 });
    const atLeastThree = { ...rules, minPrizes: 3 };
    expect(await create(few, few.prizeIds, { rules: atLeastThree })).toEqual({
      ok: false,
      code: 'SHIPPING_TOO_FEW_PRIZES',
      details: { min: 3 },
    });
    expect(await create(few, few.prizeIds, { feeCoins: 50 })).toMatchObject({
      ok: false,
      code: 'SHIPPING_FEE_CHANGED',
      details: { feeCoins: 0 },
    });

    for (const member of [unverified, held, few]) {
      expect(await requestsOf(member.memberId)).toEqual([]);
      expect(Object.values(await prizeStatuses(member.prizeIds))).toEqual(member.prizeIds.map(() => 'pending'));
    }
  });

  it('refuses another member’s prize or address, a decided prize, and a fee beyond the balance, leaving nothing', async () => {
    const alice = await shippingMember(handle.db, rules, { prizes: 2 });
    const bob = await shippingMember(handle.db, rules, { prizes: 1 });
    expect(await create(alice, [alice.prizeIds[0]!, bob.prizeIds[0]!])).toMatchObject({
      ok: false,
      code: 'PRIZE_NOT_FOUND',
    });
    expect(await create({ ...alice, addressId: bob.addressId }, [alice.prizeIds[0]!])).toMatchObject({
      ok: false,
      code: 'ADDRESS_NOT_FOUND',
    });
    await convertPrizes(handle.db, alice.memberId, [alice.prizeIds[1]!], { freeCoinDays: TEST_RULES.freeCoinDays });
    expect(await create(alice, alice.prizeIds)).toMatchObject({ ok: false, code: 'PRIZE_ALREADY_DECIDED' });

    const feeRules = { ...rules, feeCoins: 500 };
    expect(await create(alice, [alice.prizeIds[0]!], { rules: feeRules, feeCoins: 500 })).toMatchObject({
      ok: false,
      code: 'INSUFFICIENT_COINS',
      details: { required: 500 },
    });
    expect(await requestsOf(alice.memberId)).toEqual([]);
    expect(await prizeStatuses([alice.prizeIds[0]!])).toEqual({ [alice.prizeIds[0]!]: 'pending' });
    expect(await mailsTo(alice.memberId)).toEqual([]);
    const items = await handle.db
      .select()
      .from(shippingRequestItems)
      .where(inArray(shippingRequestItems.prizeId, alice.prizeIds));
    expect(items).toEqual([]);
  });

  it('spends the fee as a ledger entry and gives it back on the member’s cancel, prizes back as kept', async () => {
    const feeRules = { ...rules, feeCoins: 300 };
    const member = await shippingMember(handle.db, feeRules, { prizes: 2, coins: 500 });
    const before = await getBalance(handle.db, member.memberId);
    const made = await create(member, member.prizeIds, { rules: feeRules, feeCoins: 300 });
    expect(made).toMatchObject({ ok: true, request: { feeCoins: 300 } });
    if (!made.ok) return;
    expect((await getBalance(handle.db, member.memberId)).total).toBe(before.total - 300);
    const spent = await handle.db
      .select({ amount: coinLedger.amount, reason: coinLedger.reason, counter: coinLedger.counterAccount })
      .from(coinLedger)
      .where(eq(coinLedger.ref, made.request.id));
    expect(spent).toEqual([{ amount: -300, reason: 'shipping_fee', counter: 'shipping' }]);

    const canceledAt = new Date(Date.now() + 1000);
    const canceled = await cancelShippingRequest(handle.db, feeRules, member.memberId, made.request.id, canceledAt);
    expect(canceled).toMatchObject({ ok: true, refundCoins: 300, request: { status: 'canceled', cancelable: false } });
    expect((await getBalance(handle.db, member.memberId)).total).toBe(before.total);
    const history = await listLedgerEntries(handle.db, member.memberId);
    expect(history.items.filter((e) => e.ref === made.request.id).map((e) => [e.reason, e.amount])).toEqual([
      ['shipping_fee_refund', 300],
      ['shipping_fee', -300],
    ]);
    // Back in the box as kept, with a new storage period from the cancel.
    const box = await listPrizes(handle.db, member.memberId, { status: ['kept'] });
    expect(box.items.map((p) => p.prizeId).sort()).toEqual([...member.prizeIds].sort());
    expect(new Set(box.items.map((p) => p.keepUntil))).toEqual(
      new Set([new Date(canceledAt.getTime() + rules.storageDays * DAY).toISOString()]),
    );
    expect((await mailsTo(member.memberId, 'shipping-canceled'))[0]!.text).toContain('300コインは返却しました');
    // The prizes are free again: a new request may take them.
    expect(await create(member, member.prizeIds, { rules: feeRules, feeCoins: 300 })).toMatchObject({ ok: true });
  });

  it('quotes the cards, the fee and the promised date, or the refusal the request would meet', async () => {
    const member = await shippingMember(handle.db, rules, { prizes: 2, coins: 100 });
    const now = new Date(Date.now() + 1000);
    // The shop's closed days count as it says (the next week's days all closed here).
    const closedDays = Array.from({ length: 7 }, (_, i) => jstDateOf(new Date(now.getTime() + (i + 1) * DAY)));
    const dates = { ...rules.dates, closedDays };
    const quote = await quoteShippingRequest(
      handle.db,
      { ...rules, feeCoins: 100, dates },
      member.memberId,
      { prizeIds: member.prizeIds },
      now,
    );
    expect(quote).toMatchObject({
      ok: true,
      quote: { feeCoins: 100, promisedDate: promisedShipDate(now, dates), balance: 100 },
    });
    if (quote.ok) expect(quote.quote.promisedDate > closedDays.at(-1)!).toBe(true);
    if (quote.ok)
      expect(quote.quote.items.map((i) => i.cardName)).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(
      await quoteShippingRequest(handle.db, { ...rules, feeCoins: 101 }, member.memberId, {
        prizeIds: member.prizeIds,
      }),
    ).toMatchObject({ ok: false, code: 'INSUFFICIENT_COINS' });
    const other = await createMember(handle.db);
    expect(await quoteShippingRequest(handle.db, rules, other, { prizeIds: member.prizeIds })).toMatchObject({
      ok: false,
      code: 'SHIPPING_PHONE_UNVERIFIED',
    });
  });
});

describe('reading and canceling: the member’s own requests only', () => {
  it('lists newest first with paging and a status filter; another member sees and cancels nothing', async () => {
    const alice = await shippingMember(handle.db, rules, { prizes: 3 });
    const bob = await shippingMember(handle.db, rules, { prizes: 1 });
    const ids: string[] = [];
    for (const [i, prizeId] of alice.prizeIds.entries()) {
      const made = await create(alice, [prizeId], { now: new Date(Date.now() + i * 1000) });
      if (!made.ok) throw new Error(made.code);
      ids.push(made.request.id);
    }
    const first = await listShippingRequests(handle.db, alice.memberId, { limit: 2 });
    expect(first.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await listShippingRequests(handle.db, alice.memberId, { limit: 2, before: first.next! });
    expect(second.items.map((r) => r.id)).toEqual([ids[0]]);
    expect(second.next).toBeNull();
    expect(first.items[0]!.previewItems).toHaveLength(1);

    await cancelShippingRequest(handle.db, rules, alice.memberId, ids[0]!);
    expect(
      (await listShippingRequests(handle.db, alice.memberId, { status: ['canceled'] })).items.map((r) => r.id),
    ).toEqual([ids[0]]);

    expect((await listShippingRequests(handle.db, bob.memberId)).items).toEqual([]);
    expect(await getShippingRequest(handle.db, rules, bob.memberId, ids[1]!)).toBeNull();
    expect(await getShippingRequest(handle.db, rules, alice.memberId, 'not-a-uuid')).toBeNull();
    expect(await cancelShippingRequest(handle.db, rules, bob.memberId, ids[1]!)).toEqual({
      ok: false,
      code: 'SHIPPING_REQUEST_NOT_FOUND',
      details: {},
    });
    expect((await getShippingRequest(handle.db, rules, alice.memberId, ids[1]!))!.status).toBe('requested');
  });

  it('lets the member cancel only while requested', async () => {
    const member = await shippingMember(handle.db, rules, { prizes: 1 });
    const made = await create(member, member.prizeIds);
    if (!made.ok) throw new Error(made.code);
    expect(await prepareShippingRequests(handle.db, commandLineOperator(), rules, [made.request.id])).toMatchObject({
      ok: true,
    });
    expect(await cancelShippingRequest(handle.db, rules, member.memberId, made.request.id)).toEqual({
      ok: false,
      code: 'SHIPPING_NOT_CANCELABLE',
      details: { status: 'preparing', action: 'cancel' },
    });
    expect(await prizeStatuses(member.prizeIds)).toEqual({ [member.prizeIds[0]!]: 'shipping' });
  });
});

describe('a prize is in at most one live request', () => {
  it('is enforced by the database too: a second live row for a prize is refused', async () => {
    const member = await shippingMember(handle.db, rules, { prizes: 1 });
    const made = await create(member, member.prizeIds);
    if (!made.ok) throw new Error(made.code);
    const [original] = await requestsOf(member.memberId);
    const otherId = randomUUID();
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(shippingRequests).values({ ...original!, id: otherId, idemKey: randomUUID() });
        await tx.insert(shippingRequestItems).values({ requestId: otherId, prizeId: member.prizeIds[0]! });
      }),
    ).rejects.toThrow();
    // The shop-wide check sees a prize converted while a live request holds it (rolled back here).
    const rollback = new Error('rollback');
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.update(prizes).set({ status: 'converted' }).where(eq(prizes.id, member.prizeIds[0]!));
        // …and its card, still counted as promised (decision 023), is one too many in reserve.
        const violations = await checkInvariants(tx);
        expect(violations.filter((v) => v.check === 'prize_shipping_mismatch')).toEqual([
          { check: 'prize_shipping_mismatch', prizeId: member.prizeIds[0], status: 'converted', liveRequests: 1 },
        ]);
        expect(violations.filter((v) => v.check !== 'prize_shipping_mismatch')).toEqual([
          expect.objectContaining({ check: 'stock_reserved_mismatch' }),
        ]);
        const [mismatch] = violations.filter((v) => v.check === 'stock_reserved_mismatch');
        expect(Number(mismatch!.reserved) - Number(mismatch!.expected)).toBe(1);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    // Once released (canceled), the prize may be in a new live request.
    await cancelShippingRequest(handle.db, rules, member.memberId, made.request.id);
    expect(await create(member, member.prizeIds)).toMatchObject({ ok: true });
    const rows = await handle.db
      .select({ released: shippingRequestItems.releasedAt })
      .from(shippingRequestItems)
      .where(eq(shippingRequestItems.prizeId, member.prizeIds[0]!));
    expect(rows.map((r) => r.released === null).sort()).toEqual([false, true]);
  });
});

describe('key rotation', () => {
  it('seals each request’s address again under the first key, in batches, then has nothing left', async () => {
    const oldKey = rules.keyring[0]!;
    const newKey = { id: 'rotated', secret: randomBytes(32) };
    const member = await shippingMember(handle.db, rules, { prizes: 3 });
    for (const prizeId of member.prizeIds) await create(member, [prizeId]);
    const rotated = [newKey, oldKey];
    const first = await rekeyShippingRequests(handle.db, rotated, { batchSize: 2 });
    expect(first).toMatchObject({ keyId: 'rotated', remaining: 0 });
    expect(first.rekeyed).toBeGreaterThanOrEqual(3);
    expect(await rekeyShippingRequests(handle.db, rotated, { batchSize: 2 })).toEqual({
      keyId: 'rotated',
      rekeyed: 0,
      remaining: 0,
    });
    const [request] = (await listShippingRequests(handle.db, member.memberId)).items;
    // Opens with the new key alone once the old one is retired.
    expect(await getShippingRequest(handle.db, { keyring: [newKey] }, member.memberId, request!.id)).toMatchObject({
      address: { name: '山田 太郎' },
    });
    expect((await requestsOf(member.memberId)).map((r) => r.addressKeyId)).toEqual(['rotated', 'rotated', 'rotated']);
  });
});

describe('races on PostgreSQL (two connections)', () => {
  it('two requests for one prize: exactly one takes it', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    for (let round = 0; round < 5; round++) {
      const member = await shippingMember(handle.db, rules, { prizes: 2 });
      const [a, b] = await Promise.all([
        create(member, [member.prizeIds[0]!]),
        create(member, [member.prizeIds[0]!, member.prizeIds[1]!]),
      ]);
      expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
      const loser = a.ok ? b : a;
      expect(loser).toMatchObject({ ok: false, code: 'PRIZE_ALREADY_DECIDED' });
      expect(await requestsOf(member.memberId)).toHaveLength(1);
      // The loser left nothing: its other prize is still undecided when it lost.
      if (!b.ok) expect((await prizeStatuses([member.prizeIds[1]!]))[member.prizeIds[1]!]).toBe('pending');
    }
  });

  it('the same key twice at once: one request, the retry answers it', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const member = await shippingMember(handle.db, rules, { prizes: 1 });
    const key = randomUUID();
    const [a, b] = await Promise.all([
      create(member, member.prizeIds, { key }),
      create(member, member.prizeIds, { key }),
    ]);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.request.id).toBe(b.request.id);
      expect([a.replay, b.replay].sort()).toEqual([false, true]);
    }
    expect(await requestsOf(member.memberId)).toHaveLength(1);
  });

  it('a request, the member’s conversion and the deadline job on one prize: exactly one wins', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const winners = new Map<string, number>();
    for (let round = 0; round < 6; round++) {
      const member = await shippingMember(handle.db, rules, { prizes: 1 });
      const [prizeId] = member.prizeIds as [string];
      const due = new Date(Date.now() + (TEST_RULES.prizeDecisionDays + 1) * DAY);
      const [requested, converted, jobbed] = await Promise.all([
        create(member, [prizeId]),
        convertPrizes(handle.db, member.memberId, [prizeId], { freeCoinDays: TEST_RULES.freeCoinDays }),
        autoConvertDuePrizes(handle.db, TEST_RULES.freeCoinDays, due),
      ]);
      const status = (await prizeStatuses([prizeId]))[prizeId];
      const conversions = await handle.db
        .select({ reason: coinLedger.reason })
        .from(coinLedger)
        .where(eq(coinLedger.idemKey, `convert:${prizeId}`));
      const requestWon = requested.ok;
      const memberWon = converted.ok;
      const jobWon = !requestWon && !memberWon && status === 'converted';
      expect([requestWon, memberWon, jobWon].filter(Boolean)).toHaveLength(1);
      expect(status).toBe(requestWon ? 'shipping' : 'converted');
      // A conversion credits once at most; a shipped prize credits nothing.
      expect(conversions.length).toBeLessThanOrEqual(1);
      if (requestWon) expect(conversions).toEqual([]);
      if (memberWon) expect(conversions.map((c) => c.reason)).toEqual(['prize_conversion']);
      if (jobWon) expect(conversions.map((c) => c.reason)).toEqual(['prize_auto_conversion']);
      if (!requestWon) expect(requested).toMatchObject({ ok: false, code: 'PRIZE_ALREADY_DECIDED' });
      expect(typeof jobbed).toBe('number');
      const winner = requestWon ? 'request' : memberWon ? 'member' : 'job';
      winners.set(winner, (winners.get(winner) ?? 0) + 1);
    }
    expect([...winners.values()].reduce((a, b) => a + b, 0)).toBe(6);
  });

  it('the member’s cancel against the desk’s prepare: exactly one wins', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    for (let round = 0; round < 6; round++) {
      const member = await shippingMember(handle.db, rules, { prizes: 1 });
      const made = await create(member, member.prizeIds);
      if (!made.ok) throw new Error(made.code);
      const [canceled, prepared] = await Promise.all([
        cancelShippingRequest(handle.db, rules, member.memberId, made.request.id),
        prepareShippingRequests(handle.db, commandLineOperator(), rules, [made.request.id]),
      ]);
      expect([canceled.ok, prepared.ok].filter(Boolean)).toHaveLength(1);
      const [row] = await requestsOf(member.memberId);
      if (canceled.ok) {
        expect(row!.status).toBe('canceled');
        expect(prepared).toMatchObject({
          ok: false,
          code: 'SHIPPING_STATUS_CONFLICT',
          details: { status: 'canceled' },
        });
        expect((await prizeStatuses(member.prizeIds))[member.prizeIds[0]!]).toBe('kept');
      } else {
        expect(row!.status).toBe('preparing');
        expect(canceled).toMatchObject({ ok: false, code: 'SHIPPING_NOT_CANCELABLE' });
        expect((await prizeStatuses(member.prizeIds))[member.prizeIds[0]!]).toBe('shipping');
      }
      // The audit log has the prepare exactly when it happened.
      const audits = await handle.db.execute(
        sql`select count(*)::int as n from admin_audit_log where target_id = ${made.request.id} and action = 'shipping.prepare'`,
      );
      expect((audits as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(prepared.ok ? 1 : 0);
    }
  });
});
