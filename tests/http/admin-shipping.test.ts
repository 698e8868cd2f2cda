// The fulfilment desk over HTTP, as the built shop serves it: who may open /admin/shipping (a member
// meets not-found, staff without shipping:read get 403, staff with read only cannot change anything),
// the queue, a request with its address (audited), the pick list and the label CSV, preparing, shipping
// with a checked tracking number, the CSV import all or nothing with a report by line, delivered, the
// internal note and the shop's cancel, and the member seeing each step on their own page. An inquiry the
// member sends from the request's page is shown first on the desk's page and must be seen before the
// request is marked shipped; the shop's cancel is a quiet control that asks 「この依頼をキャンセルしますか？」
// (in Chromium, with screenshots at 390 px and desktop); members appear by number and nickname.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import { asc, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, inquiries } from '#db/schema';
import { memberCode } from '#modules/identity';
import { checkInvariants } from '#modules/wallet';
import { grantStaff } from '#tests/staff';
import { get, postForm, shopUrl } from '#tests/http';
import { memberWithShippingRequest, type ShippingMember } from '#tests/shipping-http';
import { addSessionCookies, launchChromium, openContext, waitForHydration } from '../../e2e/support/browser';
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

/** A signed-up member made staff with these permissions and a second factor (as TOTP setup leaves it). */
async function staffWith(member: ShippingMember, permissions: string[]) {
  await grantStaff(handle!.db, member.email, permissions);
  return member.cookie;
}

/** A multipart form post (the CSV upload), from the shop's own origin like a browser's. */
async function postFile(
  path: string,
  fields: Record<string, string>,
  file: { name: string; body: string },
  cookie: string,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([file.body], { type: 'text/csv' }), file.name);
  const response = await fetch(`${shopUrl()}${path}`, {
    method: 'POST',
    body: form,
    headers: { cookie, origin: shopUrl() },
    redirect: 'manual',
  });
  return { status: response.status, body: await response.text() };
}

const auditActions = async (requestId: string) =>
  (
    await handle!.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, requestId))
      .orderBy(asc(adminAuditLog.id))
  ).map((r) => r.action);

describe.skipIf(!databaseUrl)(
  `the fulfilment desk${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles and coins)'}`,
  () => {
    it('answers members 404, staff without shipping:read 403, and read-only staff 403 on every change', async () => {
      const owner = await memberWithShippingRequest(handle!.db, 'desk-owner');
      const path = `/admin/shipping/${owner.requestId}`;
      for (const page of ['/admin/shipping', path, `/admin/shipping/batch?id=${owner.requestId}`])
        expect((await get(page, { cookie: owner.cookie })).status, page).toBe(404);
      expect((await get(`/admin/shipping/labels.csv?id=${owner.requestId}`, { cookie: owner.cookie })).status).toBe(
        404,
      );

      const auditor = await memberWithShippingRequest(handle!.db, 'desk-auditor');
      const auditorCookie = await staffWith(auditor, ['audit:read']);
      // Every way in to the addresses: the queue, the request, the printed batch and the label CSV.
      for (const page of [
        '/admin/shipping',
        path,
        `/admin/shipping/batch?id=${owner.requestId}`,
        `/admin/shipping/labels.csv?id=${owner.requestId}`,
      ]) {
        const refused = await get(page, { cookie: auditorCookie });
        expect(refused.status, page).toBe(403);
        expect(refused.body, page).not.toContain('千代田区');
      }
      const home = await get('/admin', { cookie: auditorCookie });
      expect(home.body).not.toContain('発送デスク');

      const reader = await memberWithShippingRequest(handle!.db, 'desk-reader');
      const readerCookie = await staffWith(reader, ['shipping:read']);
      const queue = await get(`/admin/shipping?memberId=${owner.id}`, { cookie: readerCookie });
      expect(queue.status).toBe(200);
      expect(queue.body).toContain(owner.requestId.slice(0, 8));
      expect(queue.body).not.toContain(reader.requestId.slice(0, 8));
      // By the member's email address too (as a member writes to support), and nothing for an unknown one.
      const byEmail = await get(`/admin/shipping?memberId=${encodeURIComponent(owner.email.toUpperCase())}`, {
        cookie: readerCookie,
      });
      expect(byEmail.body).toContain(owner.requestId.slice(0, 8));
      expect(byEmail.body).not.toContain(reader.requestId.slice(0, 8));
      const unknown = await get('/admin/shipping?memberId=nobody%40example.jp', { cookie: readerCookie });
      expect(unknown.body).toContain('条件に合う発送依頼はありません');
      const badDate = await get('/admin/shipping?from=2027-13-99x', { cookie: readerCookie });
      expect(badDate.status).toBe(200);
      expect(badDate.body).toContain('2027-05-10 の形で');
      expect(queue.body).not.toContain('発送準備中にする</button>');
      const shown = await get(path, { cookie: readerCookie });
      expect(shown.status).toBe(200);
      expect(shown.body).toContain('千代田区');
      expect(shown.body).not.toContain('発送済みにする');
      for (const intent of ['prepare', 'ship', 'note', 'cancelByShop'])
        expect((await postForm(path, { intent }, { cookie: readerCookie })).status, intent).toBe(403);
      expect(
        (await postForm('/admin/shipping', { intent: 'prepare', id: owner.requestId }, { cookie: readerCookie }))
          .status,
      ).toBe(403);
      // Reading the address was recorded; nothing else happened.
      expect(await auditActions(owner.requestId)).toEqual(['address.view']);
      expect((await get(`/mypage/shipping/${owner.requestId}`, { cookie: owner.cookie })).body).toContain('受付済み');
    });

    it('runs a request from the queue to the doorstep, and the member sees each step', async () => {
      const member = await memberWithShippingRequest(handle!.db, 'desk-member');
      const desk = await memberWithShippingRequest(handle!.db, 'desk-staff');
      const cookie = await staffWith(desk, ['shipping:read', 'shipping:write']);
      const path = `/admin/shipping/${member.requestId}`;

      const queue = await get(`/admin/shipping?status=requested&memberId=${member.id}`, { cookie });
      expect(queue.status).toBe(200);
      expect(queue.body).toContain(member.requestId.slice(0, 8));
      expect(queue.body).toContain('受付済み');

      // The pick list and packing slip, and the label CSV, open the address (each audited).
      const printed = await get(`/admin/shipping/batch?id=${member.requestId}`, { cookie });
      expect(printed.status).toBe(200);
      expect(printed.body).toContain('ピッキングリスト');
      expect(printed.body).toContain('納品書');
      expect(printed.body).toContain('山田 太郎');
      const labels = await fetch(
        `${shopUrl()}/admin/shipping/labels.csv?id=${member.requestId}&shipDate=2027-05-10&item=`,
        { headers: { cookie } },
      );
      expect(labels.status).toBe(200);
      expect(labels.headers.get('content-type')).toContain('text/csv');
      const bytes = new Uint8Array(await labels.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM Excel and the label software read
      const csv = new TextDecoder().decode(bytes);
      expect(csv).toContain(member.requestId);
      expect(csv).toContain('2027/05/10');
      expect(csv).toContain('トレーディングカード');
      expect((await get(`/admin/shipping/labels.csv?id=${member.requestId}&shipDate=明日`, { cookie })).status).toBe(
        400,
      );
      expect((await get('/admin/shipping/batch?id=nope', { cookie })).status).toBe(400);

      const prepared = await postForm('/admin/shipping', { intent: 'prepare', id: member.requestId }, { cookie });
      expect(prepared.status).toBe(200);
      expect(prepared.body).toContain('1件を「発送準備中」にしました');
      expect((await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie })).body).toContain(
        '発送準備中',
      );
      // Preparing twice is refused, in Japanese, and changes nothing.
      const again = await postForm(path, { intent: 'prepare' }, { cookie });
      expect(again.status).toBe(409);
      expect(again.body).toContain('「発送準備中」のため');

      // A 佐川 number given as ヤマト is refused, naming the format; the request stays in preparation.
      const wrong = await postForm(
        path,
        { intent: 'ship', carrier: 'yamato', trackingNumber: '1234-5678-90' },
        { cookie },
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatch(/role="alert"[^>]*>[^<]*12桁/);
      const shipped = await postForm(
        path,
        { intent: 'ship', carrier: 'yamato', trackingNumber: '1234-5678-9012' },
        { cookie },
      );
      expect(shipped.status).toBe(200);
      expect(shipped.body).toContain('「発送済み」にしました');
      const seen = await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie });
      expect(seen.body).toContain('発送済み');
      expect(seen.body).toContain('123456789012');
      expect(seen.body).toContain('toi.kuronekoyamato.co.jp');

      const noted = await postForm(path, { intent: 'note', note: '箱が小さいので厚紙を追加' }, { cookie });
      expect(noted.status).toBe(200);
      expect((await get(path, { cookie })).body).toContain('箱が小さいので厚紙を追加');
      expect((await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie })).body).not.toContain('厚紙');
      const tooLong = await postForm(path, { intent: 'note', note: 'あ'.repeat(2001) }, { cookie });
      expect(tooLong.status).toBe(400);

      const delivered = await postForm(path, { intent: 'deliver' }, { cookie });
      expect(delivered.status).toBe(200);
      expect((await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie })).body).toContain('配達完了');
      expect((await postForm(path, { intent: 'fly' }, { cookie })).status).toBe(400);

      const actions = await auditActions(member.requestId);
      for (const action of [
        'address.view',
        'address.export',
        'shipping.prepare',
        'shipping.ship',
        'shipping.note',
        'shipping.deliver',
      ])
        expect(actions, action).toContain(action);
    });

    it('imports a shipped CSV all or nothing, with every faulty line reported', async () => {
      const first = await memberWithShippingRequest(handle!.db, 'desk-csv-1');
      const second = await memberWithShippingRequest(handle!.db, 'desk-csv-2');
      const cookie = await staffWith(first, ['shipping:read', 'shipping:write']);
      for (const m of [first, second])
        expect((await postForm('/admin/shipping', { intent: 'prepare', id: m.requestId }, { cookie })).status).toBe(
          200,
        );

      const header = 'request_id,carrier,tracking_number\r\n';
      const faulty = await postFile(
        '/admin/shipping',
        { intent: 'importCsv' },
        {
          name: 'shipped.csv',
          body: `${header}${first.requestId},yamato,123456789012\r\n${second.requestId},sagawa,12345\r\nnot-an-id,クロネコ,1\r\n`,
        },
        cookie,
      );
      expect(faulty.status).toBe(422);
      expect(faulty.body).toContain('取り込みませんでした');
      expect(faulty.body).toMatch(/<td[^>]*>3<\/td>/);
      expect(faulty.body).toMatch(/<td[^>]*>4<\/td>/);
      // The good first row was not applied either.
      expect((await get(`/mypage/shipping/${first.requestId}`, { cookie: first.cookie })).body).not.toContain(
        '発送済み',
      );

      const columns = await postFile(
        '/admin/shipping',
        { intent: 'importCsv' },
        { name: 'x.csv', body: 'id,who\r\n1,2\r\n' },
        cookie,
      );
      expect(columns.status).toBe(422);
      expect(columns.body).toContain('何も反映していません');
      const empty = await postFile('/admin/shipping', { intent: 'importCsv' }, { name: 'x.csv', body: '' }, cookie);
      expect(empty.status).toBe(400);
      expect(empty.body).toContain('CSVファイルを選んでください');
      const huge = await postFile(
        '/admin/shipping',
        { intent: 'importCsv' },
        { name: 'big.csv', body: header + `${first.requestId},yamato,123456789012\r\n`.repeat(4000) },
        cookie,
      );
      expect(huge.status).toBeGreaterThanOrEqual(400);
      expect(huge.status).toBeLessThan(500);
      expect(huge.body).toMatch(/大きすぎます/);

      const good = await postFile(
        '/admin/shipping',
        { intent: 'importCsv' },
        {
          name: 'shipped.csv',
          body: `${header}${first.requestId},ヤマト運輸,1234-5678-9012\r\n${second.requestId},sagawa,1234567890\r\n`,
        },
        cookie,
      );
      expect(good.status).toBe(200);
      expect(good.body).toContain('2件を「発送済み」にしました');
      expect((await get(`/mypage/shipping/${second.requestId}`, { cookie: second.cookie })).body).toContain(
        '1234567890',
      );
    });

    it('cancels for the shop after asking, with a note the member reads and the cards back in the box', async () => {
      const member = await memberWithShippingRequest(handle!.db, 'desk-cancel');
      const cookie = await staffWith(await memberWithShippingRequest(handle!.db, 'desk-canceler'), [
        'shipping:read',
        'shipping:write',
      ]);
      const path = `/admin/shipping/${member.requestId}`;
      const page = await get(path, { cookie });
      // A quiet control apart from the desk's moves: a small text button, never the red or pink one.
      const control = /<button[^>]*>この依頼をキャンセルする（運営）<\/button>/.exec(page.body)?.[0] ?? '';
      expect(control).not.toBe('');
      expect(control).toContain('text-xs');
      expect(control).not.toMatch(/bg-red-600|bg-primary/);
      const canceled = await postForm(
        path,
        { intent: 'cancelByShop', noteForMember: 'カードの状態確認のため、いったんキャンセルしました。' },
        { cookie },
      );
      expect(canceled.status).toBe(200);
      expect(canceled.body).toContain('キャンセルしました');
      const seen = await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie });
      expect(seen.body).toContain('キャンセル');
      expect(seen.body).toContain('カードの状態確認のため');
      const choose = await get('/mypage/shipping/new', { cookie: member.cookie });
      for (const id of member.prizeIds) expect(choose.body).toContain(id);
      expect((await postForm(path, { intent: 'deliver' }, { cookie })).status).toBe(409);
      expect((await get('/admin/shipping/00000000-0000-4000-8000-000000000000', { cookie })).status).toBe(404);
    });

    it('shows what the member asked about a request first, and ships it only once that was seen', async () => {
      const member = await memberWithShippingRequest(handle!.db, 'desk-asked');
      const desk = await memberWithShippingRequest(handle!.db, 'desk-asked-staff');
      const cookie = await staffWith(desk, ['shipping:read', 'shipping:write', 'inquiries:read', 'members:read']);
      const path = `/admin/shipping/${member.requestId}`;
      const before = await get(path, { cookie });
      expect(before.body).not.toContain('この依頼へのお問い合わせ');
      // The member's request page opens the contact form with this request chosen.
      const own = await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie });
      const contactPath = /href="(\/contact\?category=shipping&amp;related=[^"]+)"/
        .exec(own.body)?.[1]
        ?.replaceAll('&amp;', '&');
      expect(contactPath).toBe(`/contact?category=shipping&related=shipping_request%3A${member.requestId}`);
      const form = await get(contactPath!, { cookie: member.cookie });
      expect(form.body).toMatch(new RegExp(`<option value="shipping_request:${member.requestId}" selected`));
      expect(form.body).toMatch(/<option value="shipping" selected/);
      const post = new FormData();
      for (const [name, value] of Object.entries({
        category: 'shipping',
        email: member.email,
        subject: '住所を変えたいです',
        message: '引っ越したので、発送先を変更できますか。',
        related: `shipping_request:${member.requestId}`,
      }))
        post.set(name, value);
      const sent = await fetch(`${shopUrl()}/contact`, {
        method: 'POST',
        body: post,
        headers: { origin: shopUrl(), cookie: member.cookie },
        redirect: 'manual',
      });
      expect(sent.status).toBe(302);
      const [inquiry] = await handle!.db.select().from(inquiries).where(eq(inquiries.relatedId, member.requestId));
      expect(inquiry).toBeDefined();

      // The desk's page: the open inquiry first (above the address), linked, with its subject.
      const shown = await get(path, { cookie });
      const banner = shown.body.indexOf('この依頼へのお問い合わせ 1件（未完了）');
      expect(banner).toBeGreaterThan(0);
      expect(banner).toBeLessThan(shown.body.indexOf('お届け先'));
      expect(shown.body).toContain(`href="/admin/inquiries/${inquiry!.id}"`);
      expect(shown.body).toContain(inquiry!.reference);
      expect(shown.body).toContain('住所を変えたいです');
      // The member as staff see them, here and in the queue and the inquiries: number and nickname.
      const tag = new RegExp(`data-member-tag="${memberCode(member.id)}"[^>]*>.*?はっそう`);
      expect(shown.body).toMatch(tag);
      expect((await get(`/admin/shipping?memberId=${memberCode(member.id)}`, { cookie })).body).toMatch(tag);
      expect((await get(`/admin/inquiries?q=${inquiry!.reference}`, { cookie })).body).toMatch(tag);
      expect((await get(`/admin/inquiries/${inquiry!.id}`, { cookie })).body).toMatch(tag);

      // Shipping without having seen it (no scripts, or a page older than the inquiry) is refused, naming it.
      expect((await postForm(path, { intent: 'prepare' }, { cookie })).status).toBe(200);
      const ship = { intent: 'ship', carrier: 'yamato', trackingNumber: '1234-5678-9012' };
      const unseen = await postForm(path, ship, { cookie });
      expect(unseen.status).toBe(409);
      expect(unseen.body).toContain(`この依頼へのお問い合わせ（${inquiry!.reference}）が未完了です`);
      expect(await auditActions(member.requestId)).not.toContain('shipping.ship');
      const seen = await postForm(path, { ...ship, inquiriesSeen: inquiry!.id }, { cookie });
      expect(seen.status).toBe(200);
      expect(seen.body).toContain('「発送済み」にしました');

      // A closed inquiry is no longer shown.
      await handle!.db.update(inquiries).set({ status: 'closed' }).where(eq(inquiries.id, inquiry!.id));
      expect((await get(path, { cookie })).body).not.toContain('この依頼へのお問い合わせ');
    });

    it('asks before shipping a request with an open inquiry, and asks 「この依頼をキャンセルしますか？」 in Chromium', async () => {
      const member = await memberWithShippingRequest(handle!.db, 'desk-dialog');
      const desk = await memberWithShippingRequest(handle!.db, 'desk-dialog-staff');
      const cookie = await staffWith(desk, ['shipping:read', 'shipping:write', 'inquiries:read', 'members:read']);
      const path = `/admin/shipping/${member.requestId}`;
      expect((await postForm(path, { intent: 'prepare' }, { cookie })).status).toBe(200);
      const post = new FormData();
      for (const [name, value] of Object.entries({
        category: 'shipping',
        email: member.email,
        subject: '発送を止めてください',
        message: 'まとめて送りたいので、いったん止めてもらえますか。',
        related: `shipping_request:${member.requestId}`,
      }))
        post.set(name, value);
      const sent = await fetch(`${shopUrl()}/contact`, {
        method: 'POST',
        body: post,
        headers: { origin: shopUrl(), cookie: member.cookie },
        redirect: 'manual',
      });
      expect(sent.status).toBe(302);
      const [inquiry] = await handle!.db.select().from(inquiries).where(eq(inquiries.relatedId, member.requestId));

      const shots = 'test-results/screenshots';
      fs.mkdirSync(shots, { recursive: true });
      const browser = await launchChromium();
      try {
        for (const viewport of ['phone', 'desktop'] as const) {
          const { context, page, problems } = await openContext(browser, viewport, shopUrl());
          await addSessionCookies(context, cookie, shopUrl());
          await page.goto(path);
          await waitForHydration(page);
          await page.getByRole('heading', { name: 'この依頼へのお問い合わせ 1件（未完了）' }).waitFor();
          await page.screenshot({ path: `${shots}/${viewport}-desk-request-inquiry.png`, fullPage: true });

          // The shop's cancel: its dialog's words, and nothing happens when the operator steps back.
          await page.getByRole('button', { name: 'この依頼をキャンセルする（運営）' }).click();
          const cancel = page.getByRole('dialog');
          expect(await cancel.getByRole('heading').textContent()).toBe('この依頼をキャンセルしますか？');
          await page.screenshot({ path: `${shots}/${viewport}-desk-cancel-dialog.png` });
          await cancel.getByRole('button', { name: 'やめる' }).click();
          await cancel.waitFor({ state: 'detached' });

          // Shipping asks first, naming the open inquiry.
          await page.getByLabel('運送会社').selectOption('yamato');
          await page.getByLabel('追跡番号').fill('1234-5678-9012');
          await page.getByRole('button', { name: '発送済みにする' }).click();
          const ask = page.getByRole('dialog');
          await ask.getByText(inquiry!.reference).waitFor();
          await ask.getByText('発送を止めてください').waitFor();
          await page.screenshot({ path: `${shots}/${viewport}-desk-ship-confirmation.png` });
          if (viewport === 'phone') {
            await ask.getByRole('button', { name: 'やめる' }).click();
            await ask.waitFor({ state: 'detached' });
          } else {
            await ask.getByRole('button', { name: '確認して発送済みにする' }).click();
            await page.getByText('「発送済み」にしました').waitFor();
          }
          expect(problems).toEqual([]);
          await context.close();
        }
      } finally {
        await browser.close();
      }
      expect((await auditActions(member.requestId)).filter((a) => a === 'shipping.ship')).toHaveLength(1);
    });
  },
);

describe.skipIf(!databaseUrl)(
  `stock and missing cards at the desk${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop)'}`,
  () => {
    it('receives and counts cards at /admin/stock (packs:write), refusing bad input in Japanese', async () => {
      const clerk = await memberWithShippingRequest(handle!.db, 'stock-clerk');
      expect((await get('/admin/stock', { cookie: clerk.cookie })).status).toBe(404);
      const desk = await staffWith(clerk, ['shipping:read']);
      expect((await get('/admin/stock', { cookie: desk })).status).toBe(403);
      expect((await postForm('/admin/stock', { intent: 'receive' }, { cookie: desk })).status).toBe(403);

      const buyer = await memberWithShippingRequest(handle!.db, 'stock-buyer');
      const cookie = await staffWith(buyer, ['packs:write']);
      const name = `検品テスト ${Date.now()}`;
      const received = await postForm(
        '/admin/stock',
        { intent: 'receive', cardName: name, cardSet: 'SV9', cardNumber: '001/100', count: '3', valueCoins: '5000' },
        { cookie },
      );
      expect(received.status).toBe(200);
      expect(received.body).toContain(`「${name}」を3枚入庫しました`);
      const listed = await get(`/admin/stock?query=${encodeURIComponent(name)}`, { cookie });
      expect(listed.body).toContain(name);
      const id = new RegExp(`name="stockCardId" value="([0-9a-f-]{36})"`).exec(listed.body)?.[1];
      expect(id).toBeDefined();

      const noCount = await postForm(
        '/admin/stock',
        { intent: 'receive', cardName: name, valueCoins: '1' },
        { cookie },
      );
      expect(noCount.status).toBe(400);
      expect(noCount.body).toMatch(/role="alert"[^>]*>[^<]*枚数/);
      const noReason = await postForm('/admin/stock', { intent: 'adjust', stockCardId: id!, onHand: '2' }, { cookie });
      expect(noReason.status).toBe(400);
      expect(noReason.body).toContain('棚卸しの理由を入力してください');
      const counted = await postForm(
        '/admin/stock',
        { intent: 'adjust', stockCardId: id!, onHand: '2', note: '1枚にキズ、破棄' },
        { cookie },
      );
      expect(counted.status).toBe(200);
      expect(counted.body).toContain('在庫を2枚にしました');
      expect(await auditActions(id!)).toEqual(['stock.receive', 'stock.adjust']);
    });

    it('sends a substitute of equal or higher value, or compensates in coins, and the member is told', async () => {
      const member = await memberWithShippingRequest(handle!.db, 'missing-member');
      const staff = await memberWithShippingRequest(handle!.db, 'missing-staff');
      const cookie = await staffWith(staff, ['shipping:read', 'shipping:write', 'packs:write']);
      const name = `代替テスト ${Date.now()}`;
      expect(
        (
          await postForm(
            '/admin/stock',
            { intent: 'receive', cardName: name, cardGrade: 'PSA10', count: '1', valueCoins: '9999999' },
            { cookie },
          )
        ).status,
      ).toBe(200);
      const path = `/admin/shipping/${member.requestId}`;
      const page = await get(path, { cookie });
      expect(page.body).toContain('在庫なし・破損を報告');
      const [first, second] = member.prizeIds;
      const substituteId = new RegExp(`name="stockCardId" value="([0-9a-f-]{36})"`).exec(
        (await get(`/admin/stock?query=${encodeURIComponent(name)}`, { cookie })).body,
      )?.[1];
      expect(substituteId).toBeDefined();
      // The request's page offers it (worth more than any prize of the pack, one available) in its data.
      expect(page.body).toContain(substituteId);

      const noChoice = await postForm(
        path,
        { intent: 'reportMissing', prizeId: first!, condition: 'missing' },
        { cookie },
      );
      expect(noChoice.status).toBe(400);
      expect(noChoice.body).toContain('代わりのカードか、コインでの補償かを選んでください');
      const substituted = await postForm(
        path,
        {
          intent: 'reportMissing',
          prizeId: first!,
          condition: 'damaged',
          resolution: 'substitute',
          stockCardId: substituteId!,
        },
        { cookie },
      );
      expect(substituted.status, substituted.body.slice(0, 400)).toBe(200);
      expect(substituted.body).toContain(`代わりに「${name}」を送ります`);
      const twice = await postForm(
        path,
        { intent: 'reportMissing', prizeId: first!, condition: 'damaged', resolution: 'compensation', coins: '100000' },
        { cookie },
      );
      expect(twice.status).toBeGreaterThanOrEqual(400);
      expect(twice.status).toBeLessThan(500);

      const tooLow = await postForm(
        path,
        { intent: 'reportMissing', prizeId: second!, condition: 'missing', resolution: 'compensation', coins: '0' },
        { cookie },
      );
      expect(tooLow.status).toBeGreaterThanOrEqual(400);
      expect(tooLow.status).toBeLessThan(500);
      expect(tooLow.body).toMatch(/role="alert"[^>]*>[^<]*コイン/);
      const compensated = await postForm(
        path,
        {
          intent: 'reportMissing',
          prizeId: second!,
          condition: 'missing',
          resolution: 'compensation',
          coins: '100000',
        },
        { cookie },
      );
      expect(compensated.status, compensated.body.slice(0, 400)).toBe(200);
      expect(compensated.body).toContain('100,000コインで補償しました');

      const seen = await get(`/mypage/shipping/${member.requestId}`, { cookie: member.cookie });
      expect(seen.body).toContain(name);
      const slip = await get(`/admin/shipping/batch?id=${member.requestId}`, { cookie });
      expect(slip.body).toContain('の代わりのカード');
      expect(await auditActions(member.requestId)).toContain('shipping.card_missing');
    });
  },
);
