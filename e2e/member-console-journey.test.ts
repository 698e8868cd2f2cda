// An admin on a desktop looks a member up and acts (decision 026): finds them by email in
// /admin/members, opens their page (wallet by lot, ledger, draws, prizes, sessions…), adjusts their
// free coins with a reason after the sheet's confirmation, writes a staff note, and bans them; the
// member's browser is signed out at once. axe on each screen; screenshots for a person to look at.
// The staff role is set beside the running shop (PostgreSQL only).
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants, getBalance } from '#modules/wallet';
import { TEST_RULES } from '#tests/fixtures';
import { uniqueEmail } from '#tests/http';
import { SHIPPING_TEST_PACK } from '#tests/shipping-http';
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

describe('the member console', () => {
  it.skipIf(!databaseUrl)(
    `an admin finds a member, adjusts coins, notes and bans${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set roles beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const member = await openContext(shop.browser, 'phone', shop.baseURL);
      const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        const email = uniqueEmail('console-member');
        await signUpInBrowser(member.page, { name: 'コンソール太郎', email });
        const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await command([
          'coins:grant',
          '--member',
          email,
          '--amount',
          '3000',
          '--kind',
          'paid',
          '--reason',
          '購入テスト',
        ]);
        await command(['coins:grant', '--member', email, '--amount', '500', '--kind', 'free', '--reason', 'お詫び']);
        for (let i = 0; i < 2; i++) {
          const drawn = await member.page.request.post(`/api/v1/gachas/${SHIPPING_TEST_PACK}/draws`, {
            data: { count: 10 },
            headers: { origin: shop.baseURL, 'idempotency-key': randomUUID() },
          });
          expect(drawn.status()).toBe(201);
        }

        const adminEmail = uniqueEmail('console-admin');
        await signUpInBrowser(desk.page, { name: 'かんりしゃ', email: adminEmail });
        await db.update(users).set({ role: 'admin', twoFactorEnabled: true }).where(eq(users.email, adminEmail));

        await desk.page.goto('/admin/members');
        await waitForHydration(desk.page);
        await desk.page.getByLabel('メールアドレス・ニックネーム・会員ID・電話番号').fill(email);
        await desk.page.getByRole('button', { name: '検索' }).click();
        await desk.page.getByRole('link', { name: 'コンソール太郎' }).click();
        await desk.page.getByRole('heading', { name: 'コンソール太郎' }).waitFor();
        await waitForHydration(desk.page);
        await expectNoSeriousAxeViolations(desk.page, 'member page');
        await screenshot(desk.page, `desktop-admin-member.png`, { fullPage: true });

        // A coin adjustment asks first, then lands as one ledger entry.
        // The draws spent the free coins first: 1,500 paid coins are left.
        await desk.page.getByLabel('種類').selectOption('paid');
        await desk.page.getByLabel('枚数（減らすときは -）').fill('-200');
        await desk.page.getByLabel('理由（必須）', { exact: true }).fill('誤付与の取消');
        await desk.page.getByRole('button', { name: '調整する' }).click();
        const sheet = desk.page.getByRole('dialog');
        await sheet.getByText('−200枚').waitFor();
        await screenshot(desk.page, `desktop-admin-member-adjust.png`);
        await sheet.getByRole('button', { name: '調整する' }).click();
        await desk.page.getByText('有償コインを−200枚調整しました').waitFor();
        expect((await getBalance(db, row!.id)).paid).toBe(1300);

        await desk.page.getByLabel('メモ', { exact: true }).fill('電話で問い合わせあり。誤付与分を回収済み。');
        await desk.page.getByRole('button', { name: 'メモを追加' }).click();
        await desk.page.getByText('メモを追加しました。').waitFor();

        // The confirmation keeps Tab inside itself; Escape closes it, back on the button that opened it.
        await desk.page.getByRole('button', { name: '利用停止にする' }).click();
        for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
          await desk.page.keyboard.press(key);
          expect(await desk.page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))), key).toBe(
            true,
          );
        }
        await desk.page.keyboard.press('Escape');
        await desk.page.getByRole('dialog').waitFor({ state: 'detached' });
        expect(await desk.page.evaluate(() => document.activeElement?.textContent)).toBe('利用停止にする');

        await desk.page.getByRole('button', { name: '利用停止にする' }).click();
        const ban = desk.page.getByRole('dialog');
        await ban.getByLabel('会員に伝える理由の区分（必須）').selectOption('multiple_accounts');
        await ban.getByLabel('理由（必須・スタッフのみ閲覧）').fill('規約違反（複数アカウント）');
        await expectNoSeriousAxeViolations(desk.page, 'ban sheet');
        await ban.getByRole('button', { name: '利用停止にする' }).click();
        await desk.page.getByText(/利用停止にしました/).waitFor();
        await desk.page.getByText('ログイン中のセッション（0件）').waitFor();
        await desk.page.getByRole('button', { name: '利用停止を解除' }).waitFor();
        await screenshot(desk.page, `desktop-admin-member-banned.png`, { fullPage: true });

        // The member's browser is signed out at once.
        await member.page.goto('/shop');
        await member.page.waitForURL(/\/auth\/sign_in/);
      } finally {
        await member.context.close();
        await desk.context.close();
      }
    },
  );
});
