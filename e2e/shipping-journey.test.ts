// A won card reaches the member's door. On a phone, a member who won a 10連 asks for two cards to be
// shipped from the prize box (choose, confirm, request). On a desktop, a staff member with the
// shipping permissions sets up the second factor the admin area asks for, finds the request in the
// desk's queue, marks it 発送準備中, then 発送済み with a tracking number; the member sees the carrier's
// tracking link; the desk marks it 配達完了 and the member sees that too. axe on every screen.
// Coins, the phone and the staff role are set beside the running shop (PostgreSQL only).
import { randomUUID } from 'node:crypto';
import { scaledTimeout } from '#tests/settings';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  setUpStaffTotp,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { TEST_RULES } from '#tests/fixtures';
import { uniqueEmail } from '#tests/http';
import { SHIPPING_TEST_PACK, verifyPhoneOf } from '#tests/shipping-http';
import { runAdminCommand } from '../scripts/shop-admin';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

async function command(args: string[]) {
  const said: string[] = [];
  const code = await runAdminCommand(handle!.db, args, (line) => said.push(line), {
    lifetimes: TEST_RULES.coinLifetimes,
  });
  expect(code, said.join('\n')).toBe(0);
}

describe('a won card shipped and followed', () => {
  it.skipIf(!databaseUrl)(
    `member on a phone asks, the desk on a desktop prepares, ships and delivers${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set coins and roles beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const member = await openContext(shop.browser, 'phone', shop.baseURL);
      const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        // ── The member wins ten cards and has an address and a verified phone.
        const email = uniqueEmail('ship-journey');
        await signUpInBrowser(member.page, { name: 'はっそう', email });
        const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await command(['coins:grant', '--member', email, '--amount', '1000', '--kind', 'paid', '--reason', 'テスト']);
        await verifyPhoneOf(db, row!.id);
        const drawn = await member.page.request.post(`/api/v1/gachas/${SHIPPING_TEST_PACK}/draws`, {
          data: { count: 10 },
          headers: { origin: shop.baseURL, 'idempotency-key': randomUUID() },
        });
        expect(drawn.status()).toBe(201);
        const won = ((await drawn.json()) as { items: { id: string; cardName: string }[] }).items;
        await member.page.goto('/mypage/addresses?new=1');
        await waitForHydration(member.page);
        await member.page.getByLabel('氏名').fill('山田 太郎');
        await member.page.getByLabel('フリガナ').fill('やまだ たろう');
        await member.page.getByLabel('郵便番号').pressSequentially('1000001');
        await member.page.getByText('東京都千代田区千代田を入力しました').waitFor();
        await member.page.getByLabel('町域・番地').fill('千代田1-1');
        await member.page.getByLabel('電話番号').fill('090-1234-5678');
        await member.page.getByRole('button', { name: 'この住所を登録する' }).click();
        await member.page.getByText('住所を登録しました。').waitFor();

        // ── From the prize box: choose two cards, confirm, request.
        await member.page.goto('/mypage');
        await waitForHydration(member.page);
        await member.page
          .getByRole('navigation', { name: 'タブメニュー' })
          .getByRole('link', { name: '獲得商品' })
          .click();
        await member.page.getByRole('link', { name: '発送を申し込む' }).click();
        await member.page.getByRole('heading', { name: '発送の申し込み', level: 1 }).waitFor();
        for (const prize of won.slice(0, 2))
          await member.page.locator(`input[name=prize][value="${prize.id}"]`).check();
        await expectNoSeriousAxeViolations(member.page, 'shipping choice');
        await member.page.getByRole('button', { name: '確認へ進む' }).click();
        await member.page.getByText('発送予定日').first().waitFor();
        await expectNoSeriousAxeViolations(member.page, 'shipping confirmation');
        await screenshot(member.page, `phone-shipping-confirm.png`, { fullPage: true });
        await member.page.getByRole('button', { name: '発送を申し込む' }).click();
        await member.page.waitForURL(/\/mypage\/shipping\/[0-9a-f-]{36}/);
        await member.page.getByText('発送のお申し込みを受け付けました').waitFor();
        const requestId = new URL(member.page.url()).pathname.split('/').pop()!;
        await expectNoSeriousAxeViolations(member.page, 'shipping request');

        // ── A staff member: the shipping permissions, then the second factor the admin area asks for.
        const staffEmail = uniqueEmail('ship-desk');
        const password = 'desk-pass-2026';
        await signUpInBrowser(desk.page, { name: '発送担当', email: staffEmail, password });
        await command([
          'staff:grant',
          '--member',
          staffEmail,
          '--role',
          'staff',
          '--permissions',
          'shipping:read,shipping:write,packs:write',
        ]);
        await desk.page.goto('/admin');
        await setUpStaffTotp(desk.page, password);

        // ── The desk: the queue, a tick, 発送準備中.
        await desk.page.goto('/admin');
        await waitForHydration(desk.page);
        await desk.page
          .getByRole('link', { name: /発送デスク/ })
          .first()
          .click();
        await desk.page.getByRole('heading', { name: '発送デスク', level: 1 }).waitFor();
        await desk.page.goto(`/admin/shipping?memberId=${row!.id}`);
        await waitForHydration(desk.page);
        await desk.page.getByRole('checkbox', { name: `依頼 ${requestId.slice(0, 8)} を選ぶ` }).check();
        await desk.page.getByText('1件を選択中').waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'desk queue');
        await screenshot(desk.page, `desktop-desk-queue.png`, { fullPage: true });
        await desk.page.getByRole('button', { name: '発送準備中にする' }).click();
        await desk.page.getByText('1件を「発送準備中」にしました').waitFor();
        // The pick list and packing slip open in a new tab for the printer.
        const [printed] = await Promise.all([
          desk.context.waitForEvent('page'),
          desk.page.getByRole('button', { name: 'ピッキングリスト・納品書を印刷' }).click(),
        ]);
        await printed.getByRole('heading', { name: /ピッキングリスト（1件・2枚）/ }).waitFor();
        await printed.getByRole('region', { name: '納品書 #1' }).getByText('山田 太郎 様').waitFor();
        await expectNoSeriousAxeViolations(printed, 'pick list');
        await screenshot(printed, `desktop-desk-batch.png`, { fullPage: true });
        await printed.close();

        // ── The request from the queue.
        await desk.page.getByRole('link', { name: requestId.slice(0, 8) }).click();
        await desk.page.getByRole('heading', { name: /発送依頼/, level: 1 }).waitFor();
        await waitForHydration(desk.page);
        await desk.page.getByText('千代田1-1').waitFor();

        // ── One card turns out damaged while packing: a better card is received into stock and sent instead.
        await desk.page.goto('/admin/stock');
        await waitForHydration(desk.page);
        await desk.page.getByLabel('カード名', { exact: true }).fill('代わりのホロカード');
        await desk.page.getByLabel('グレード（例: PSA10）').fill('PSA10');
        await desk.page.getByLabel('枚数').fill('1');
        await desk.page.getByLabel('参考価値（コイン）').fill('50000');
        await desk.page.getByRole('button', { name: '入庫する' }).click();
        await desk.page.getByText('「代わりのホロカード」を1枚入庫しました').waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'stock');
        await screenshot(desk.page, `desktop-stock.png`, { fullPage: true });
        await desk.page.goto(`/admin/shipping/${requestId}`);
        await waitForHydration(desk.page);
        await desk.page.getByRole('button', { name: '在庫なし・破損を報告' }).first().click();
        const sheet = desk.page.getByRole('dialog');
        await sheet.getByLabel(/破損/).check();
        const offered = await sheet.locator('option', { hasText: '代わりのホロカード' }).getAttribute('value');
        await sheet.getByLabel('代わりのカード').selectOption(offered!);
        await expectNoSeriousAxeViolations(desk.page, 'missing card sheet');
        await screenshot(desk.page, `desktop-missing-card.png`);
        await sheet.getByRole('button', { name: '記録して会員に知らせる' }).click();
        await desk.page.getByText('代わりに「代わりのホロカード」を送ります').waitFor();
        await desk.page.getByText(/代わりに送るカード: 代わりのホロカード/).waitFor();

        // ── Shipped with a tracking number (a wrong one first).
        await desk.page.getByLabel('運送会社').selectOption('yamato');
        await desk.page.getByLabel('追跡番号').fill('12345');
        await desk.page.getByRole('button', { name: '発送済みにする' }).click();
        await desk.page.getByRole('alert').filter({ hasText: '12桁' }).waitFor();
        await desk.page.getByLabel('追跡番号').fill('1234-5678-9012');
        await desk.page.getByRole('button', { name: '発送済みにする' }).click();
        await desk.page.getByText('「発送済み」にしました').waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'desk request');
        await screenshot(desk.page, `desktop-desk-request.png`, { fullPage: true });

        // ── The member sees the carrier's tracking link.
        await member.page.reload();
        await waitForHydration(member.page);
        const tracking = member.page.getByRole('link', { name: 'ヤマト運輸の配送状況を見る' });
        await tracking.waitFor();
        expect(await tracking.getAttribute('href')).toContain('kuronekoyamato.co.jp');
        await member.page.getByText('123456789012').first().waitFor();
        await member.page
          .getByText(/代わりのホロカード/)
          .first()
          .waitFor();
        // The request's own "accepted" line was news once; now the status speaks.
        expect(await member.page.getByText('発送のお申し込みを受け付けました').count()).toBe(0);
        await expectNoSeriousAxeViolations(member.page, 'shipped request');
        await screenshot(member.page, `phone-shipping-shipped.png`, { fullPage: true });

        // ── Delivered, and the member sees it.
        await desk.page.getByRole('button', { name: '配達完了にする' }).click();
        await desk.page.getByText('「配達完了」にしました').waitFor();
        await member.page.reload();
        await member.page.getByText('配達完了').first().waitFor();

        expect(member.problems).toEqual([]);
        expect(desk.problems).toEqual([]);
      } finally {
        await member.context.close();
        await desk.context.close();
      }
    },
    // Room for the staff's second-factor set-up to wait out a refused code (e2e/support/browser.ts).
    scaledTimeout(180_000),
  );
});
