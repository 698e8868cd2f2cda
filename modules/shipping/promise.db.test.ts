// The promised date kept, on a real database: a request not shipped by the end of its 発送予定日 earns
// its member the compensation once (by the job, or when it ships or is canceled late), never when it
// left in time; two overlapping job runs pay once (PostgreSQL, two connections). And the kept prizes'
// storage mails: the reminders and the conversion notice.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES } from '#tests/fixtures';
import { shippingMember, testShippingRules } from '#tests/shipping';
import { coinLedger, outboundMessages, shippingRequests } from '#db/schema';
import { commandLineOperator } from '#modules/admin';
import { autoConvertDuePrizes, keepPrizes } from '#modules/draw';
import {
  cancelShippingRequest,
  compensateLateShipments,
  createShippingRequest,
  getShippingRequest,
  prepareShippingRequests,
  sendKeptPrizeReminders,
  shipShippingRequest,
  storageConversionNotifier,
} from './index';

const handle = useTestDatabase('shipping-promise', { poolSize: 4 });
const rules = testShippingRules({ lateCompensationCoins: 100 });
const DAY = 86_400_000;
const desk = commandLineOperator();

async function requestAt(now: Date) {
  const member = await shippingMember(handle.db, rules, { prizes: 1 });
  const made = await createShippingRequest(handle.db, rules, {
    memberId: member.memberId,
    addressId: member.addressId,
    prizeIds: member.prizeIds,
    idempotencyKey: randomUUID(),
    now,
  });
  if (!made.ok) throw new Error(made.code);
  const [row] = await handle.db.select().from(shippingRequests).where(eq(shippingRequests.id, made.request.id));
  return { ...member, id: made.request.id, deadline: row!.shipDeadline };
}

const compensations = (requestId: string) =>
  handle.db
    .select({ amount: coinLedger.amount, kind: coinLedger.kind })
    .from(coinLedger)
    .where(and(eq(coinLedger.ref, requestId), eq(coinLedger.reason, 'shipping_compensation')));

const mails = (memberId: string, template: string) =>
  handle.db
    .select({ text: outboundMessages.textBody })
    .from(outboundMessages)
    .where(and(eq(outboundMessages.memberId, memberId), eq(outboundMessages.template, template)));

describe('the promised date', () => {
  it('compensates once when the promised day ends without shipment, never a moment before', async () => {
    const r = await requestAt(new Date(Date.now() - 20 * DAY));
    const before = new Date(r.deadline.getTime() - 1);
    await compensateLateShipments(handle.db, rules, before);
    expect(await compensations(r.id)).toEqual([]);
    expect((await getShippingRequest(handle.db, rules, r.memberId, r.id, before))!.late).toBe(false);

    await compensateLateShipments(handle.db, rules, r.deadline);
    await compensateLateShipments(handle.db, rules, new Date());
    expect(await compensations(r.id)).toEqual([{ amount: 100, kind: 'free' }]);
    const view = await getShippingRequest(handle.db, rules, r.memberId, r.id);
    expect(view).toMatchObject({ late: true, compensationCoins: 100, status: 'requested' });
    expect(view!.events.at(-1)).toMatchObject({ kind: 'compensated', status: 'requested', actor: 'system' });
    const mail = await mails(r.memberId, 'shipping-compensated');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('100コイン');
  });

  it('pays nothing for a parcel that left in time, nor after a cancel in time, nor when the setting is 0', async () => {
    const onTime = await requestAt(new Date(Date.now() - 20 * DAY));
    await prepareShippingRequests(handle.db, desk, rules, [onTime.id], new Date(onTime.deadline.getTime() - DAY));
    await shipShippingRequest(
      handle.db,
      desk,
      rules,
      { requestId: onTime.id, carrier: 'yamato', trackingNumber: '123456789012' },
      new Date(onTime.deadline.getTime() - 1),
    );
    const canceled = await requestAt(new Date(Date.now() - 20 * DAY));
    await cancelShippingRequest(
      handle.db,
      rules,
      canceled.memberId,
      canceled.id,
      new Date(canceled.deadline.getTime() - 1),
    );
    const free = await requestAt(new Date(Date.now() - 20 * DAY));
    await compensateLateShipments(handle.db, { ...rules, lateCompensationCoins: 0 }, new Date());
    expect(await compensations(free.id)).toEqual([]);
    await compensateLateShipments(handle.db, rules, new Date());
    expect(await compensations(onTime.id)).toEqual([]);
    expect(await compensations(canceled.id)).toEqual([]);
    expect(await compensations(free.id)).toHaveLength(1);
    expect((await getShippingRequest(handle.db, rules, onTime.memberId, onTime.id))!.late).toBe(false);
  });

  it('pays a late request when it ships or is canceled before the job came by, once', async () => {
    const shipped = await requestAt(new Date(Date.now() - 20 * DAY));
    await prepareShippingRequests(handle.db, desk, rules, [shipped.id]);
    await shipShippingRequest(handle.db, desk, rules, {
      requestId: shipped.id,
      carrier: 'sagawa',
      trackingNumber: '1234567890',
    });
    const canceled = await requestAt(new Date(Date.now() - 20 * DAY));
    await cancelShippingRequest(handle.db, rules, canceled.memberId, canceled.id);
    await compensateLateShipments(handle.db, rules, new Date());
    expect(await compensations(shipped.id)).toHaveLength(1);
    expect(await compensations(canceled.id)).toHaveLength(1);
    const events = (await getShippingRequest(handle.db, rules, shipped.memberId, shipped.id))!.events.map(
      (e) => e.kind,
    );
    expect(events).toEqual(['requested', 'preparing', 'compensated', 'shipped']);
  });

  it('two overlapping job runs credit each late request exactly once', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const late = [];
    for (let i = 0; i < 6; i++) late.push(await requestAt(new Date(Date.now() - 20 * DAY)));
    const now = new Date();
    const [first, second] = await Promise.all([
      compensateLateShipments(handle.db, rules, now, 2),
      compensateLateShipments(handle.db, rules, now, 2),
    ]);
    expect(first + second).toBeGreaterThanOrEqual(late.length);
    for (const r of late) {
      expect(await compensations(r.id)).toEqual([{ amount: 100, kind: 'free' }]);
      expect(await mails(r.memberId, 'shipping-compensated')).toHaveLength(1);
    }
    expect(await compensateLateShipments(handle.db, rules, now)).toBe(0);
  });

  it('a run skips a request another transaction holds, and a later run pays it once', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const r = await requestAt(new Date(Date.now() - 20 * DAY));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = handle.db.transaction(async (tx) => {
      await tx.select().from(shippingRequests).where(eq(shippingRequests.id, r.id)).for('update');
      locked();
      await held;
    });
    await isLocked;
    await compensateLateShipments(handle.db, rules, new Date());
    expect(await compensations(r.id)).toEqual([]);
    release();
    await holder;
    await Promise.all([
      compensateLateShipments(handle.db, rules, new Date()),
      compensateLateShipments(handle.db, rules, new Date()),
    ]);
    expect(await compensations(r.id)).toHaveLength(1);
  });
});

describe('the kept prizes’ storage mails', () => {
  it('reminds the member before the end of storage and tells them after the conversion', async () => {
    const member = await shippingMember(handle.db, rules, { prizes: 2 });
    const start = new Date();
    await keepPrizes(handle.db, member.memberId, member.prizeIds, { storageDays: rules.storageDays, now: start });
    const end = start.getTime() + rules.storageDays * DAY;
    await sendKeptPrizeReminders(handle.db, rules, new Date(end - 7 * DAY + 1000));
    await sendKeptPrizeReminders(handle.db, rules, new Date(end - 7 * DAY + 2000));
    const reminders = await mails(member.memberId, 'prize-storage-reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain('2枚');
    expect(reminders[0]!.text).toContain('あと7日');
    await autoConvertDuePrizes(
      handle.db,
      TEST_RULES.freeCoinDays,
      new Date(end),
      200,
      storageConversionNotifier(rules.site),
    );
    const converted = await mails(member.memberId, 'prize-storage-converted');
    expect(converted).toHaveLength(1);
    expect(converted[0]!.text).toContain('2枚');
  });
});
