// Orders in the admin area over HTTP: members meet not-found, staff without orders:read get 403; the
// list filters by status, method and member email and always shows the review queue's count; an
// order's page shows what was sold; the refund needs orders:refund, asks for a reason, refunds at the
// sandbox provider, takes the coins back and is audited; bad input is a Japanese 4xx.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, paymentOrders, users } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { memberCode } from '#modules/identity';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

async function member(label: string) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'orders-pass-1', agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: row!.id, email, cookie, bearer: /session_token=([^;]+)/.exec(cookie)![1]! };
}

async function api(path: string, bearer: string, body?: unknown) {
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: body === undefined ? 'GET' : path === '/me/age-declaration' ? 'PUT' : 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A member who bought 1,000 coins in the sandbox: the order id and receipt number. */
async function paidOrder(label: string) {
  const buyer = await member(label);
  await api('/me/age-declaration', buyer.bearer, { minor: false });
  const started = await api('/me/purchases', buyer.bearer, { packId: 'coin-1000', method: 'sandbox' });
  expect(started.status).toBe(201);
  const paid = await postForm(
    new URL(started.body.redirectUrl).pathname,
    { decision: 'approve' },
    { cookie: buyer.cookie },
  );
  expect(paid.status).toBe(303);
  const order = await api(`/purchases/${started.body.purchase.id}`, buyer.bearer);
  expect(order.body.purchase.status).toBe('paid');
  return { buyer, orderId: order.body.purchase.id as string, receiptNo: order.body.purchase.receiptNo as string };
}

async function staffWith(label: string, permissions: string[]) {
  const who = await member(label);
  await grantStaff(handle!.db, who.email, permissions);
  return who.cookie;
}

describe.skipIf(!databaseUrl)(
  `orders in the admin area${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('lists and shows orders to orders:read, refunds with orders:refund after a reason, audited', async () => {
      const { buyer, orderId, receiptNo } = await paidOrder('orders-buyer');
      const path = `/admin/orders/${orderId}`;
      expect((await get('/admin/orders', { cookie: buyer.cookie })).status).toBe(404);
      const shipper = await staffWith('orders-shipper', ['shipping:read']);
      expect((await get('/admin/orders', { cookie: shipper })).status).toBe(403);
      expect((await get(path, { cookie: shipper })).status).toBe(403);

      const reader = await staffWith('orders-reader', ['orders:read']);
      const list = await get(`/admin/orders?memberId=${encodeURIComponent(buyer.email)}&method=sandbox`, {
        cookie: reader,
      });
      expect(list.status).toBe(200);
      expect(list.body).toContain(receiptNo);
      expect(list.body).toContain('確認中の注文');
      // The buyer as staff see members: the number マイページ shows and the nickname; found by the number too.
      const tag = new RegExp(`data-member-tag="${memberCode(buyer.id)}"[^>]*>.*?orders-buyer`);
      expect(list.body).toMatch(tag);
      const byCode = await get(`/admin/orders?memberId=${memberCode(buyer.id).toLowerCase()}`, { cookie: reader });
      expect(byCode.body).toContain(receiptNo);
      const other = await get('/admin/orders?method=stripe&memberId=' + buyer.id, { cookie: reader });
      expect(other.body).not.toContain(receiptNo);
      expect((await get(`/admin/orders?receiptNo=${receiptNo}`, { cookie: reader })).body).toContain(orderId);
      const bad = await get('/admin/orders?from=yesterday', { cookie: reader });
      expect(bad.status).toBe(200);
      expect(bad.body).toContain('2027-05-10 の形で');
      const shown = await get(path, { cookie: reader });
      expect(shown.status).toBe(200);
      expect(shown.body).toContain('1,000コイン');
      expect(shown.body).toContain('購入完了');
      expect(shown.body).toMatch(tag);
      expect(shown.body).not.toContain('全額返金する');
      expect((await postForm(path, { intent: 'refund', reason: 'テスト' }, { cookie: reader })).status).toBe(403);
      expect((await get('/admin/orders/00000000-0000-4000-8000-000000000000', { cookie: reader })).status).toBe(404);

      const refunder = await staffWith('orders-refunder', ['orders:read', 'orders:refund']);
      expect((await get(path, { cookie: refunder })).body).toContain('全額返金する');
      const noReason = await postForm(path, { intent: 'refund', reason: ' ' }, { cookie: refunder });
      expect(noReason.status).toBe(400);
      expect(noReason.body).toContain('返金の理由');
      const refunded = await postForm(
        path,
        { intent: 'refund', reason: 'お客様都合（二重購入）' },
        { cookie: refunder },
      );
      expect(refunded.status, refunded.body.slice(0, 300)).toBe(200);
      expect(refunded.body).toContain('返金しました');
      expect((await api('/me/wallet', buyer.bearer)).body).toMatchObject({ paid: 0, free: 0 });
      expect((await get(path, { cookie: refunder })).body).toContain('返金済み');
      const again = await postForm(path, { intent: 'refund', reason: 'もう一度' }, { cookie: refunder });
      expect(again.status).toBeGreaterThanOrEqual(400);
      expect(again.status).toBeLessThan(500);
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, orderId))
        .orderBy(asc(adminAuditLog.id));
      expect(audit.map((a) => a.action)).toEqual(['order.refund']);
    });

    it('decides an order held for review: the reason in words, credit after asking, once, audited', async () => {
      const buyer = await member('orders-review');
      await api('/me/age-declaration', buyer.bearer, { minor: false });
      const started = await api('/me/purchases', buyer.bearer, { packId: 'coin-1000', method: 'sandbox' });
      expect(started.status).toBe(201);
      const orderId = started.body.purchase.id as string;
      // Held as a payment that arrived after its order was canceled, with the month's cap taken meanwhile
      // (the payments module's own tests reach this state through the provider's events).
      await handle!.db
        .update(paymentOrders)
        .set({ status: 'review', failureReason: 'late_payment_over_cap', providerPaymentId: `late-${orderId}` })
        .where(eq(paymentOrders.id, orderId));
      const path = `/admin/orders/${orderId}`;
      const reader = await staffWith('review-reader', ['orders:read']);
      const readerView = await get(path, { cookie: reader });
      expect(readerView.body).toContain('期限後に届いた支払いで、月の購入上限を超える');
      expect(readerView.body).not.toContain('コインを付与して完了する');
      expect(
        (await postForm(path, { intent: 'review', decision: 'credit', reason: 'x' }, { cookie: reader })).status,
      ).toBe(403);
      const decider = await staffWith('review-decider', ['orders:read', 'orders:refund']);
      expect((await get(path, { cookie: decider })).body).toContain('コインを付与して完了する');
      const noReason = await postForm(path, { intent: 'review', decision: 'credit', reason: '' }, { cookie: decider });
      expect(noReason.status).toBe(400);
      expect(noReason.body).toContain('判断の理由を500文字以内で入力してください。');
      const wrong = await postForm(
        path,
        { intent: 'review', decision: 'approve-all', reason: 'x' },
        { cookie: decider },
      );
      expect(wrong.status).toBe(400);
      const credited = await postForm(
        path,
        { intent: 'review', decision: 'credit', reason: '本人に確認済み' },
        { cookie: decider },
      );
      expect(credited.status).toBe(200);
      expect(credited.body).toContain('コインを付与して「支払い済み」にしました。');
      expect((await api('/me/wallet', buyer.bearer)).body).toMatchObject({ paid: 1000 });
      const again = await postForm(
        path,
        { intent: 'review', decision: 'credit', reason: 'もう一度' },
        { cookie: decider },
      );
      expect(again.status).toBe(409);
      expect(again.body).toContain('この注文は確認中ではありません');
      expect((await api('/me/wallet', buyer.bearer)).body).toMatchObject({ paid: 1000 });
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, orderId));
      expect(audit.map((a) => a.action)).toEqual(['order.review.credit']);
    });

    it('adds and edits coin packs (packs:write, audited), and the coin shop follows', async () => {
      const reader = await staffWith('packs-reader', ['orders:read']);
      expect((await get('/admin/coin-packs', { cookie: reader })).status).toBe(403);
      const cookie = await staffWith('packs-writer', ['packs:write']);
      const id = `test-${Date.now().toString(36)}`;
      const fields = {
        id,
        name: 'テスト 2,000コイン',
        priceJpy: '2000',
        paidCoins: '2000',
        bonusCoins: '40',
        sortOrder: '25',
      };
      const made = await postForm('/admin/coin-packs', { intent: 'create', ...fields, active: 'on' }, { cookie });
      expect(made.status).toBe(200);
      expect(made.body).toContain('「テスト 2,000コイン」を追加しました');
      const twice = await postForm('/admin/coin-packs', { intent: 'create', ...fields, active: 'on' }, { cookie });
      expect(twice.status).toBe(409);
      const badPrice = await postForm('/admin/coin-packs', { intent: 'save', ...fields, priceJpy: '0' }, { cookie });
      expect(badPrice.status).toBe(400);
      expect(badPrice.body).toContain('価格（円）は1以上です');
      const buyer = await member('packs-buyer');
      const listed = async () =>
        ((await api('/coin-shop', buyer.bearer)).body.packs as { id: string }[]).map((p) => p.id);
      expect(await listed()).toContain(id);
      // Stopped: saved without the 販売中 box, and the shop no longer offers it.
      const stopped = await postForm('/admin/coin-packs', { intent: 'save', ...fields }, { cookie });
      expect(stopped.status).toBe(200);
      expect(stopped.body).toContain('販売停止中');
      expect(await listed()).not.toContain(id);
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, id));
      expect(audit.map((a) => a.action)).toEqual(['coinpack.set', 'coinpack.set']);
    });

    it('shows the unused paid balance at a base date to orders:read', async () => {
      const cookie = await staffWith('report-reader', ['orders:read']);
      const page = await get('/admin/reports/unused-paid', { cookie });
      expect(page.status).toBe(200);
      expect(page.body).toContain('未使用残高');
      expect(page.body).toMatch(/¥[\d,]+/);
      expect((await get('/admin/reports/unused-paid?date=2026-03-31', { cookie })).status).toBe(200);
      const bad = await get('/admin/reports/unused-paid?date=2026-04-01', { cookie });
      expect(bad.status).toBe(400);
      const packsOnly = await staffWith('report-packs', ['packs:write']);
      expect((await get('/admin/reports/unused-paid', { cookie: packsOnly })).status).toBe(403);
    });

    it('streams a list as CSV to the permission that reads it, and records the export', async () => {
      const { receiptNo } = await paidOrder('export-buyer');
      const cookie = await staffWith('export-reader', ['orders:read']);
      const response = await fetch(`${shopUrl()}/admin/exports/orders.csv`, { headers: { cookie } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/csv');
      expect(response.headers.get('content-disposition')).toMatch(
        /attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"/,
      );
      const csv = await response.text();
      expect(csv.split('\r\n')[0]).toContain('order_id,receipt_no,member_id,status');
      expect(csv).toContain(receiptNo);
      expect((await get('/admin/exports/ledger.csv', { cookie })).status).toBe(403);
      expect((await get('/admin/exports/passwords.csv', { cookie })).status).toBe(404);
      expect((await get('/admin/exports/orders', { cookie })).status).toBe(404);
      const audit = await handle!.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.action, 'export.orders'));
      expect(audit.length).toBeGreaterThanOrEqual(1);
    });
  },
);
