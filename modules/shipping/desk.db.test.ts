// The fulfilment desk on a real database: the queue (overdue first, filters, counts), every move with
// its audit entry in the same transaction (a refused move leaves neither change nor entry), the
// permissions, tracking numbers checked against the carrier, a CSV file applied all or nothing,
// returned parcels re-shipped or converted, the shop's cancel, the internal note, and addresses read
// only with an audit entry.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { shippingMember, testShippingRules } from '#tests/shipping';
import { digestOf } from '#tests/audit-digest';
import { adminAuditLog, coinLedger, outboundMessages, prizes, shippingRequests } from '#db/schema';
import { commandLineOperator, type AdminPermission, type Operator } from '#modules/admin';
import { getBalance } from '#modules/wallet';
import {
  cancelShippingRequestByShop,
  convertReturnedRequest,
  createShippingRequest,
  exportLabelCsv,
  getShippingRequest,
  getShippingRequestForDesk,
  listShippingQueue,
  markShippingDelivered,
  markShippingReturned,
  prepareShippingRequests,
  reshipReturnedRequest,
  setShippingInternalNote,
  shipShippingRequest,
  shipShippingRequestsFromCsv,
  shippingBatchForDesk,
  shippingQueueFilterSchema,
} from './index';

const handle = useTestDatabase('shipping-desk', { poolSize: 2 });
const rules = testShippingRules();
const desk = commandLineOperator();
const csvLimits = { maxBytes: 100_000, maxRows: 100 };
const DAY = 86_400_000;

function staff(...permissions: AdminPermission[]): Operator {
  return {
    memberId: randomUUID(),
    label: 'staff@example.jp',
    role: 'staff',
    permissions: new Set(permissions),
    requestId: 'req-test',
    address: '203.0.113.7',
  };
}

/** A member's request of `prizes` cards, made at `now`. */
async function request(options: { prizes?: number; now?: Date; fee?: number; coins?: number } = {}) {
  const feeRules = { ...rules, feeCoins: options.fee ?? 0 };
  const member = await shippingMember(handle.db, rules, { prizes: options.prizes ?? 1, coins: options.coins });
  const made = await createShippingRequest(
    handle.db,
    { ...feeRules, keyring: rules.keyring },
    {
      memberId: member.memberId,
      addressId: member.addressId,
      prizeIds: member.prizeIds,
      idempotencyKey: randomUUID(),
      now: options.now,
    },
  );
  if (!made.ok) throw new Error(made.code);
  return { ...member, id: made.request.id };
}

const auditOf = (requestId: string) =>
  handle.db
    .select({
      action: adminAuditLog.action,
      actor: adminAuditLog.actorLabel,
      permission: adminAuditLog.permission,
      before: adminAuditLog.before,
      after: adminAuditLog.after,
      requestId: adminAuditLog.requestId,
    })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, requestId))
    .orderBy(adminAuditLog.id);

const statusOf = async (requestId: string) =>
  (await handle.db.select().from(shippingRequests).where(eq(shippingRequests.id, requestId)))[0]!;

const templatesTo = async (memberId: string) =>
  (
    await handle.db
      .select({ template: outboundMessages.template })
      .from(outboundMessages)
      .where(eq(outboundMessages.memberId, memberId))
      .orderBy(outboundMessages.createdAt)
  ).map((m) => m.template);

describe('moves and their audit entries', () => {
  it('prepares, ships with a checked tracking number, delivers: each audited and told', async () => {
    const r = await request();
    const operator = staff('shipping:write', 'shipping:read');
    expect(await prepareShippingRequests(handle.db, operator, rules, [r.id])).toEqual({
      ok: true,
      value: { prepared: 1 },
    });
    // Another carrier's format is refused naming it; nothing changes, nothing is audited.
    const wrong = await shipShippingRequest(handle.db, operator, rules, {
      requestId: r.id,
      carrier: 'yamato',
      trackingNumber: 'EJ123456789JP',
    });
    expect(wrong).toMatchObject({ ok: false, code: 'TRACKING_NUMBER_FORMAT' });
    if (!wrong.ok) expect(String(wrong.details.message)).toContain('日本郵便の形式');
    expect((await auditOf(r.id)).map((a) => a.action)).toEqual(['shipping.prepare']);

    expect(
      await shipShippingRequest(handle.db, operator, rules, {
        requestId: r.id,
        carrier: 'yamato',
        trackingNumber: '１２３４－５６７８－９０１２',
      }),
    ).toEqual({ ok: true, value: { carrier: 'yamato', trackingNumber: '123456789012' } });
    expect(await markShippingDelivered(handle.db, operator, rules, r.id)).toEqual({
      ok: true,
      value: { status: 'delivered' },
    });

    const audit = await auditOf(r.id);
    expect(audit.map((a) => [a.action, a.permission, a.actor, a.requestId])).toEqual([
      ['shipping.prepare', 'shipping:write', 'staff@example.jp', 'req-test'],
      ['shipping.ship', 'shipping:write', 'staff@example.jp', 'req-test'],
      ['shipping.deliver', 'shipping:write', 'staff@example.jp', 'req-test'],
    ]);
    expect(audit[1]).toMatchObject({
      before: { status: 'preparing', trackingNumber: null },
      after: { status: 'shipped', carrier: 'yamato', trackingNumber: '123456789012' },
    });
    expect(JSON.stringify(audit)).not.toContain('山田'); // the address never goes into the log

    const view = await getShippingRequest(handle.db, rules, r.memberId, r.id);
    expect(view).toMatchObject({
      status: 'delivered',
      carrierName: 'ヤマト運輸',
      trackingUrl: expect.stringContaining('toi.kuronekoyamato.co.jp'),
    });
    expect(view!.events.map((e) => [e.kind, e.actor])).toEqual([
      ['requested', 'member'],
      ['preparing', 'staff'],
      ['shipped', 'staff'],
      ['delivered', 'staff'],
    ]);
    expect(view!.events[2]!.note).toContain('123456789012');
    expect(await templatesTo(r.memberId)).toEqual([
      'shipping-requested',
      'shipping-preparing',
      'shipping-shipped',
      'shipping-delivered',
    ]);
    const [shippedMail] = await handle.db
      .select({ text: outboundMessages.textBody })
      .from(outboundMessages)
      .where(and(eq(outboundMessages.memberId, r.memberId), eq(outboundMessages.template, 'shipping-shipped')));
    expect(shippedMail!.text).toContain('https://toi.kuronekoyamato.co.jp/');
  });

  it('refuses an illegal move, a missing request and a missing permission: no change, no entry', async () => {
    const r = await request();
    expect(await markShippingDelivered(handle.db, desk, rules, r.id)).toEqual({
      ok: false,
      code: 'SHIPPING_STATUS_CONFLICT',
      details: { status: 'requested', action: 'deliver', requestId: r.id },
    });
    expect(
      await shipShippingRequest(handle.db, desk, rules, {
        requestId: r.id,
        carrier: 'sagawa',
        trackingNumber: '1234567890',
      }),
    ).toMatchObject({ ok: false, code: 'SHIPPING_STATUS_CONFLICT', details: { status: 'requested', action: 'ship' } });
    expect(await markShippingReturned(handle.db, desk, rules, randomUUID())).toMatchObject({
      ok: false,
      code: 'SHIPPING_REQUEST_NOT_FOUND',
    });
    const reader = staff('shipping:read');
    expect(await prepareShippingRequests(handle.db, reader, rules, [r.id])).toEqual({
      ok: false,
      code: 'PERMISSION_DENIED',
      details: { permission: 'shipping:write' },
    });
    expect(await setShippingInternalNote(handle.db, reader, r.id, 'x')).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await shipShippingRequestsFromCsv(handle.db, reader, rules, 'x', csvLimits)).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const nobody = staff('packs:write');
    expect(await getShippingRequestForDesk(handle.db, nobody, rules, r.id)).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await listShippingQueue(handle.db, nobody, shippingQueueFilterSchema.parse({}))).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(
      await exportLabelCsv(handle.db, nobody, rules, [r.id], { shipDate: '2030-01-01', itemDescription: 'カード' }),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect((await statusOf(r.id)).status).toBe('requested');
    expect(await auditOf(r.id)).toEqual([]);
  });

  it('prepares a batch all or none: one request in another status stops it and is named', async () => {
    const [a, b, c] = [await request(), await request(), await request()];
    await prepareShippingRequests(handle.db, desk, rules, [b.id]);
    const refused = await prepareShippingRequests(handle.db, desk, rules, [a.id, b.id, c.id]);
    expect(refused).toMatchObject({
      ok: false,
      code: 'SHIPPING_STATUS_CONFLICT',
      details: { requestId: b.id, status: 'preparing' },
    });
    expect([(await statusOf(a.id)).status, (await statusOf(c.id)).status]).toEqual(['requested', 'requested']);
    expect([...(await auditOf(a.id)), ...(await auditOf(c.id))]).toEqual([]);
    expect(await templatesTo(a.memberId)).toEqual(['shipping-requested']);
    expect(await prepareShippingRequests(handle.db, desk, rules, [a.id, c.id])).toEqual({
      ok: true,
      value: { prepared: 2 },
    });
  });

  it('returns, re-ships and ships again; a second return converts the cards to coins', async () => {
    const r = await request({ prizes: 3 });
    await prepareShippingRequests(handle.db, desk, rules, [r.id]);
    await shipShippingRequest(handle.db, desk, rules, {
      requestId: r.id,
      carrier: 'sagawa',
      trackingNumber: '1234567890',
    });
    expect(await markShippingReturned(handle.db, desk, rules, r.id)).toEqual({
      ok: true,
      value: { status: 'returned' },
    });
    expect(await reshipReturnedRequest(handle.db, desk, rules, r.id)).toEqual({
      ok: true,
      value: { status: 'preparing' },
    });
    await shipShippingRequest(handle.db, desk, rules, {
      requestId: r.id,
      carrier: 'japanpost',
      trackingNumber: '1234-5678-9012',
    });
    await markShippingReturned(handle.db, desk, rules, r.id);

    const before = await getBalance(handle.db, r.memberId);
    const converted = await convertReturnedRequest(handle.db, desk, rules, r.id);
    expect(converted).toMatchObject({ ok: true, value: { items: 3 } });
    if (!converted.ok) return;
    expect((await getBalance(handle.db, r.memberId)).free - before.free).toBe(converted.value.coins);
    const statuses = await handle.db
      .select({ status: prizes.status })
      .from(prizes)
      .where(inArray(prizes.id, r.prizeIds));
    expect(statuses.map((p) => p.status)).toEqual(['converted', 'converted', 'converted']);
    const entries = await handle.db
      .select({ reason: coinLedger.reason })
      .from(coinLedger)
      .where(inArray(coinLedger.ref, r.prizeIds));
    expect(entries.every((e) => e.reason === 'prize_conversion')).toBe(true);
    expect((await statusOf(r.id)).status).toBe('canceled');
    expect((await auditOf(r.id)).map((a) => a.action)).toEqual([
      'shipping.prepare',
      'shipping.ship',
      'shipping.return',
      'shipping.reship',
      'shipping.ship',
      'shipping.return',
      'shipping.convert_returned',
    ]);
    expect(await templatesTo(r.memberId)).toEqual([
      'shipping-requested',
      'shipping-preparing',
      'shipping-shipped',
      'shipping-returned',
      'shipping-reshipping',
      'shipping-shipped',
      'shipping-returned',
      'shipping-converted',
    ]);
    // Re-shipped with its own number: the request shows the latest parcel.
    expect(await getShippingRequest(handle.db, rules, r.memberId, r.id)).toMatchObject({
      carrier: 'japanpost',
      trackingNumber: '123456789012',
    });
  });

  it('cancels for the shop before shipment: prizes back, fee refunded, the member told why', async () => {
    const feeRules = { ...rules, feeCoins: 50 };
    const r = await request({ fee: 50, coins: 50 });
    await prepareShippingRequests(handle.db, desk, rules, [r.id]);
    const canceled = await cancelShippingRequestByShop(handle.db, desk, feeRules, r.id, {
      noteForMember: 'カードの状態不良のため、キャンセルいたしました。',
    });
    expect(canceled).toEqual({ ok: true, value: { refundCoins: 50, items: 1 } });
    // The draw took 10 of the free coins; the fee took the other 40 free and 10 paid: each kind comes back.
    expect(await getBalance(handle.db, r.memberId)).toMatchObject({ paid: 10, free: 40 });
    const view = await getShippingRequest(handle.db, rules, r.memberId, r.id);
    expect(view!.events.at(-1)).toMatchObject({
      kind: 'canceled',
      actor: 'staff',
      note: 'カードの状態不良のため、キャンセルいたしました。',
    });
    expect((await templatesTo(r.memberId)).at(-1)).toBe('shipping-canceled-by-shop');
    expect((await auditOf(r.id)).map((a) => a.action)).toEqual(['shipping.prepare', 'shipping.cancel']);
    // Nothing leaves a shipped parcel by cancel.
    const shipped = await request();
    await prepareShippingRequests(handle.db, desk, rules, [shipped.id]);
    await shipShippingRequest(handle.db, desk, rules, {
      requestId: shipped.id,
      carrier: 'yamato',
      trackingNumber: '123456789012',
    });
    expect(await cancelShippingRequestByShop(handle.db, desk, rules, shipped.id)).toMatchObject({
      ok: false,
      code: 'SHIPPING_STATUS_CONFLICT',
      details: { status: 'shipped', action: 'cancelByShop' },
    });
  });

  it('keeps an internal note the member never sees, audited before and after', async () => {
    const r = await request();
    expect(await setShippingInternalNote(handle.db, desk, r.id, ' 建物名を電話で確認済み ')).toEqual({
      ok: true,
      value: { internalNote: '建物名を電話で確認済み' },
    });
    await setShippingInternalNote(handle.db, desk, r.id, '');
    expect((await statusOf(r.id)).internalNote).toBeNull();
    expect((await auditOf(r.id)).map((a) => [a.action, a.before, a.after])).toEqual([
      [
        'shipping.note',
        expect.objectContaining({ internalNote: null }),
        expect.objectContaining({ internalNote: digestOf('建物名を電話で確認済み') }),
      ],
      [
        'shipping.note',
        expect.objectContaining({ internalNote: digestOf('建物名を電話で確認済み') }),
        expect.objectContaining({ internalNote: null }),
      ],
    ]);
    await setShippingInternalNote(handle.db, desk, r.id, 'メモ');
    expect(JSON.stringify(await getShippingRequest(handle.db, rules, r.memberId, r.id))).not.toContain('メモ');
  });
});

describe('shipping from a CSV file, all or nothing', () => {
  const csv = (rows: string[][]) =>
    ['request_id,carrier,tracking_number', ...rows.map((r) => r.join(','))].join('\r\n') + '\r\n';

  it('ships every row of a good file, one audit entry per request', async () => {
    const [a, b] = [await request(), await request()];
    await prepareShippingRequests(handle.db, desk, rules, [a.id, b.id]);
    const done = await shipShippingRequestsFromCsv(
      handle.db,
      desk,
      rules,
      csv([
        [a.id, 'ヤマト運輸', '1234-5678-9012'],
        [b.id, 'sagawa', '123456789012'],
      ]),
      csvLimits,
    );
    expect(done).toMatchObject({ ok: true });
    expect([(await statusOf(a.id)).status, (await statusOf(b.id)).status]).toEqual(['shipped', 'shipped']);
    expect((await auditOf(b.id)).at(-1)).toMatchObject({ action: 'shipping.ship', after: { csvLine: 3 } });
  });

  it('applies nothing when one request is not in preparation or not found, and lists every such line', async () => {
    const [a, b] = [await request(), await request()];
    await prepareShippingRequests(handle.db, desk, rules, [a.id]);
    const missing = randomUUID();
    const refused = await shipShippingRequestsFromCsv(
      handle.db,
      desk,
      rules,
      csv([
        [a.id, 'yamato', '123456789012'],
        [b.id, 'yamato', '123456789013'],
        [missing, 'yamato', '123456789014'],
      ]),
      csvLimits,
    );
    expect(refused).toMatchObject({
      ok: false,
      code: 'SHIPPING_CSV_REFUSED',
      details: {
        rows: [
          { line: 3, column: 'request_id', code: 'SHIPPING_STATUS_CONFLICT' },
          { line: 4, column: 'request_id', code: 'SHIPPING_REQUEST_NOT_FOUND' },
        ],
      },
    });
    if (!refused.ok) expect(String((refused.details.rows as { message: string }[])[0]!.message)).toContain('3行目');
    expect((await statusOf(a.id)).status).toBe('preparing');
    expect((await auditOf(a.id)).map((x) => x.action)).toEqual(['shipping.prepare']);
    expect(await templatesTo(a.memberId)).not.toContain('shipping-shipped');
  });

  it('applies nothing when a row is malformed or the file cannot be read', async () => {
    const a = await request();
    await prepareShippingRequests(handle.db, desk, rules, [a.id]);
    const badRow = await shipShippingRequestsFromCsv(
      handle.db,
      desk,
      rules,
      csv([
        [a.id, 'yamato', '123456789012'],
        ['not-an-id', 'yamato', 'EJ123456789JP'],
      ]),
      csvLimits,
    );
    expect(badRow).toMatchObject({ ok: false, code: 'SHIPPING_CSV_REFUSED', details: { rows: expect.any(Array) } });
    const badFile = await shipShippingRequestsFromCsv(handle.db, desk, rules, 'id,who\r\n1,2\r\n', csvLimits);
    expect(badFile).toMatchObject({
      ok: false,
      code: 'SHIPPING_CSV_REFUSED',
      details: { file: { code: 'CSV_HEADER' } },
    });
    const huge = await shipShippingRequestsFromCsv(handle.db, desk, rules, 'x'.repeat(200), {
      maxBytes: 100,
      maxRows: 10,
    });
    expect(huge).toMatchObject({ details: { file: { code: 'CSV_TOO_LARGE' } } });
    expect((await statusOf(a.id)).status).toBe('preparing');
  });
});

describe('reading addresses and the queue', () => {
  it('opens an address only with shipping:read, and records each view and export', async () => {
    const r = await request({ prizes: 2 });
    const reader = staff('shipping:read');
    const shown = await getShippingRequestForDesk(handle.db, reader, rules, r.id);
    expect(shown).toMatchObject({
      ok: true,
      value: {
        memberId: r.memberId,
        address: { name: '山田 太郎', postalCode: '1000001' },
        actions: ['prepare', 'cancelByShop'],
        internalNote: null,
      },
    });
    const batch = await shippingBatchForDesk(handle.db, reader, rules, [r.id]);
    expect(batch).toMatchObject({ ok: true, value: [{ requestId: r.id, items: [{}, {}] }] });
    const exported = await exportLabelCsv(handle.db, reader, rules, [r.id], {
      shipDate: '2030-05-10',
      itemDescription: 'トレーディングカード',
    });
    expect(exported.ok && exported.value).toContain('"東京都千代田区千代田1-1"');
    expect(exported.ok && exported.value).toContain('"山田 太郎"');
    expect((await auditOf(r.id)).map((a) => [a.action, a.permission])).toEqual([
      ['address.view', 'shipping:read'],
      ['address.view', 'shipping:read'],
      ['address.export', 'shipping:read'],
    ]);
    expect(await getShippingRequestForDesk(handle.db, reader, rules, randomUUID())).toMatchObject({
      code: 'SHIPPING_REQUEST_NOT_FOUND',
    });
  });

  it('puts overdue requests first, then by promised date; filters; counts each status', async () => {
    const now = new Date();
    const late = await request({ now: new Date(now.getTime() - 20 * DAY) });
    const soon = await request({ now: new Date(now.getTime() - DAY) });
    const later = await request({ now });
    const done = await request({ now: new Date(now.getTime() - 30 * DAY) });
    await prepareShippingRequests(handle.db, desk, rules, [done.id]);
    await shipShippingRequest(handle.db, desk, rules, {
      requestId: done.id,
      carrier: 'yamato',
      trackingNumber: '123456789012',
    });

    const queue = await listShippingQueue(handle.db, desk, shippingQueueFilterSchema.parse({}), now);
    if (!queue.ok) throw new Error(queue.code);
    const order = queue.queue.items.map((i) => i.id);
    const ours = order.filter((id) => [late.id, soon.id, later.id, done.id].includes(id));
    expect(ours).toEqual([late.id, done.id, soon.id, later.id]);
    expect(queue.queue.items.find((i) => i.id === late.id)).toMatchObject({ overdue: true, itemCount: 1 });
    expect(queue.queue.items.find((i) => i.id === done.id)).toMatchObject({ overdue: false, status: 'shipped' });
    expect(queue.queue.counts.shipped).toBeGreaterThanOrEqual(1);
    expect(queue.queue.counts.overdue).toBeGreaterThanOrEqual(1);

    const mine = await listShippingQueue(
      handle.db,
      desk,
      shippingQueueFilterSchema.parse({ memberId: late.memberId }),
      now,
    );
    expect(mine.ok && mine.queue.items.map((i) => i.id)).toEqual([late.id]);
    expect(mine.ok && mine.queue.counts).toMatchObject({ requested: 1, shipped: 0, overdue: 1 });
    const shipped = await listShippingQueue(
      handle.db,
      desk,
      shippingQueueFilterSchema.parse({ status: 'shipped' }),
      now,
    );
    expect(shipped.ok && shipped.queue.items.every((i) => i.status === 'shipped')).toBe(true);
    expect(shipped.ok && shipped.queue.items.map((i) => i.id)).toContain(done.id);
    const laterRow = await statusOf(later.id);
    const byDate = await listShippingQueue(
      handle.db,
      desk,
      shippingQueueFilterSchema.parse({ from: laterRow.promisedDate, to: laterRow.promisedDate }),
      now,
    );
    if (!byDate.ok) throw new Error(byDate.code);
    // The request promised inside the range is listed (an empty answer fails here), and only such requests:
    // late and done were promised days before it.
    const datedIds = byDate.queue.items.map((i) => i.id);
    expect(datedIds).toContain(later.id);
    expect(datedIds).not.toContain(late.id);
    expect(datedIds).not.toContain(done.id);
    expect(new Set(byDate.queue.items.map((i) => i.promisedDate))).toEqual(new Set([laterRow.promisedDate]));
    // The range's ends: from its promised date it is in, from the day after it is out.
    const dayAfter = new Date(Date.parse(`${laterRow.promisedDate}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    const laterFrom = async (from: string) => {
      const listed = await listShippingQueue(
        handle.db,
        desk,
        shippingQueueFilterSchema.parse({ memberId: later.memberId, from }),
        now,
      );
      return listed.ok ? listed.queue.items.map((i) => i.id) : listed.code;
    };
    expect(await laterFrom(laterRow.promisedDate)).toEqual([later.id]);
    expect(await laterFrom(dayAfter)).toEqual([]);
    expect(shippingQueueFilterSchema.safeParse({ from: '2030/01/01' }).success).toBe(false);
  });
});
