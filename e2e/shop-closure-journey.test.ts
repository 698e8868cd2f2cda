// The shop closes (decision 085, 資金決済法 第20条): an admin on a desktop announces the closure on /admin/closure
// (review, the typed 「閉店する」); a member with paid coins sees the notice on a phone, reads the refund page and
// applies with a bank account (asked first); the admin records the transfer (asked first, with its reference);
// the member's paid balance is 0 and their page says the transfer is done. A banned member (no session) opens the
// statement link of their mail on a phone and applies there. axe on each screen; screenshots to look at. The closure stops the whole shop, so the journey runs on a shop of its own (PostgreSQL: roles and coins are
// set beside it).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration, screenshot } from './support/browser';
import { signUpAdmin, signUpMemberWithCoins } from './support/accounts';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { and, eq } from 'drizzle-orm';
import { outboundMessages, shopClosureRefunds } from '#db/schema';
import { banMemberAsOperator, commandLineOperator } from '#modules/admin';
import { checkInvariants, getBalance } from '#modules/wallet';
import { useShopAt } from '#tests/http';
import { startOwnShop, type OwnShop } from '#tests/own-shop';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
let own: OwnShop | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  own = await startOwnShop('closure-journey', { SIGN_UP_ATTEMPTS_PER_MINUTE: '100', PAGE_CACHE_SECONDS: '0' });
  useShopAt(own.base);
  shop.baseURL = own.base;
  handle = await openDatabase({ databaseUrl: own.database.databaseUrl!, dataDir: own.database.dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
  useShopAt(null);
  await own?.stop();
});

/** A Japan-time datetime-local value `days` from now. */
const localIn = (days: number) => new Date(Date.now() + days * 86_400_000 + 9 * 3600_000).toISOString().slice(0, 16);

describe('閉店と払戻し', () => {
  it.skipIf(!databaseUrl)(
    `an admin announces the closure, a member applies on a phone, the transfer is recorded and their paid coins are 0${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set roles beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const member = await openContext(shop.browser, 'phone', shop.baseURL);
      const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        const target = await signUpMemberWithCoins(member.page, db, {
          name: 'へいてんかいいん',
          label: 'heiten-member',
          paid: 2_500,
        });
        await signUpAdmin(desk.page, db, { name: 'へいてんかんり', label: 'heiten-kanri' });
        await desk.page.goto('/admin/closure');
        await waitForHydration(desk.page);
        await desk.page.getByLabel(/払戻しの申出期限/).fill(localIn(90));
        await desk.page
          .getByLabel(/公告文/)
          .fill(
            '当ショップは事業を終了いたします。未使用の有償コインは1コイン1円で払い戻します。お問い合わせはお問い合わせフォームへ。',
          );
        await desk.page.getByRole('button', { name: '確認へ進む' }).click();
        await desk.page.getByRole('heading', { name: '閉店を告知しますか？' }).waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'desktop / closure review');
        await screenshot(desk.page, 'desktop-admin-closure-review.png');
        await desk.page.getByLabel(/確認のため「閉店する」/).fill('閉店する');
        await desk.page.getByRole('button', { name: '閉店を告知する' }).click();
        await desk.page
          .getByText(/閉店を告知しました/)
          .first()
          .waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'desktop / closure announced');
        await screenshot(desk.page, 'desktop-admin-closure-announced.png');

        // The member, on a phone: the notice on every page, the refund page, the application.
        await member.page.goto('/');
        const banner = member.page.getByTestId('closure-banner');
        await banner.waitFor();
        expect(await banner.textContent()).toContain('販売を終了しました');
        await screenshot(member.page, 'phone-closure-banner.png');
        await banner.getByRole('link', { name: '払戻しを申し込む' }).click();
        await member.page.waitForURL(/\/mypage\/refund$/);
        await waitForHydration(member.page);
        expect(await member.page.getByTestId('refund-yen').textContent()).toBe('2,500円');
        await member.page.getByLabel('銀行名').fill('ステラ銀行');
        await member.page.getByLabel('支店名').fill('本店');
        await member.page.getByLabel('口座番号').fill('1234567');
        await member.page.getByLabel('口座名義（カナ）').fill('へいてん かいいん');
        await member.page.getByRole('button', { name: '内容を確認する' }).click();
        await member.page.getByText('この口座で払戻しを申し込みますか？').waitFor();
        await expectNoSeriousAxeViolations(member.page, 'phone / refund confirmation');
        await screenshot(member.page, 'phone-refund-confirm.png', { fullPage: true });
        await member.page.getByRole('button', { name: '申し込む' }).click();
        await member.page.getByText('払戻しのお申し込みを受け付けました').waitFor();
        expect(await member.page.getByTestId('refund-status').textContent()).toContain('****567');
        await expectNoSeriousAxeViolations(member.page, 'phone / refund applied');
        await screenshot(member.page, 'phone-refund-applied.png', { fullPage: true });

        // The admin records the transfer (asked first, with the bank's reference).
        await desk.page.goto('/admin/closure');
        await waitForHydration(desk.page);
        await desk.page.getByText('ステラ銀行 本店 普通 1234567 ヘイテン カイイン').waitFor();
        await desk.page.getByRole('button', { name: '振込を記録' }).click();
        const dialog = desk.page.getByRole('dialog', { name: '払戻しの振込を記録しますか？' });
        await dialog.getByLabel(/振込の参照番号/).fill('FURI-2026-0001');
        await expectNoSeriousAxeViolations(desk.page, 'desktop / record the transfer');
        await screenshot(desk.page, 'desktop-admin-refund-confirm.png');
        await dialog.getByRole('button', { name: '振込済みとして記録する' }).click();
        await desk.page
          .getByText(/払戻しを記録しました（2,500円/)
          .first()
          .waitFor();
        expect((await getBalance(db, target.id)).paid).toBe(0);

        await member.page.goto('/mypage/refund');
        await waitForHydration(member.page);
        expect(await member.page.getByTestId('refund-paid').textContent()).toBe('0枚');
        await member.page.getByRole('heading', { name: 'お振込み済み' }).waitFor();
        await expectNoSeriousAxeViolations(member.page, 'phone / refund paid');
        await screenshot(member.page, 'phone-refund-paid.png', { fullPage: true });

        // A banned member has no session: the ban's mail links to their statement, where they apply.
        const banned = await openContext(shop.browser, 'phone', shop.baseURL);
        try {
          const carol = await signUpMemberWithCoins(banned.page, db, {
            name: 'ていしかいいん',
            label: 'heiten-banned',
            paid: 1_200,
          });
          const outcome = await banMemberAsOperator(db, commandLineOperator(), carol.id, {
            reason: '規約違反',
            expiresAt: null,
            category: 'terms_other',
            site: { name: 'テスト', origin: shop.baseURL },
          });
          expect(outcome.ok).toBe(true);
          const [mail] = await db
            .select({ text: outboundMessages.textBody })
            .from(outboundMessages)
            .where(
              and(eq(outboundMessages.recipient, carol.email), eq(outboundMessages.template, 'account-restricted')),
            );
          const link = /\/standing\/[A-Za-z0-9_-]{43}/.exec(mail!.text ?? '')![0];
          await banned.page.goto(link);
          await waitForHydration(banned.page);
          const section = banned.page.getByTestId('standing-refund');
          await section.getByRole('heading', { name: '閉店にともなう払戻しのお申し込み' }).waitFor();
          // The banner's application link stays on this page: a banned member cannot sign in to マイページ.
          const bannerLink = banned.page.getByTestId('closure-banner').getByRole('link', { name: '払戻しを申し込む' });
          expect(await bannerLink.getAttribute('href')).toBe(`${link}#standing-refund`);
          expect(await section.getByTestId('refund-yen').textContent()).toBe('1,200円');
          await section.getByLabel('銀行名').fill('ステラ銀行');
          await section.getByLabel('支店名').fill('駅前');
          await section.getByLabel('口座番号').fill('7654321');
          await section.getByLabel('口座名義（カナ）').fill('テイシ カイイン');
          await section.getByRole('button', { name: '内容を確認する' }).click();
          await section.getByText('この口座で払戻しを申し込みますか？').waitFor();
          await screenshot(banned.page, 'phone-standing-refund-confirm.png', { fullPage: true });
          await section.getByRole('button', { name: '申し込む' }).click();
          await banned.page
            .getByText('払戻しのお申し込みを受け付けました。ご登録の口座へ順次お振込みします。')
            .waitFor();
          expect(await section.getByTestId('refund-status').textContent()).toContain('****321');
          // The statement and its appeal are still on the page below.
          expect(await banned.page.getByText('利用停止').count()).toBeGreaterThan(0);
          await expectNoSeriousAxeViolations(banned.page, 'phone / banned member applied by link');
          await screenshot(banned.page, 'phone-standing-refund-applied.png', { fullPage: true });
          const applications = await db
            .select({ id: shopClosureRefunds.id })
            .from(shopClosureRefunds)
            .where(eq(shopClosureRefunds.memberId, carol.id));
          expect(applications).toHaveLength(1);
        } finally {
          await banned.context.close();
        }
      } finally {
        await member.context.close();
        await desk.context.close();
      }
    },
  );
});
