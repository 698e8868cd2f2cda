// Due process for a banned member (issue 34 item 6, decision 084): an admin on a desktop bans a member with
// the category 「複数アカウントの利用」; the member's phone is signed out, and the mailed link opens their
// statement (category, coins, prizes) where they appeal once; the admin who banned may not decide, a second
// admin lifts the ban with a statement; the member reads the outcome and signs in again. A held member finds
// the hold on /mypage and its statement at /mypage/standing. axe on every screen; screenshots to look at.
// Roles and coins are set beside the running shop (PostgreSQL only).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration, screenshot } from './support/browser';
import { signUpAdmin, signUpMemberWithCoins } from './support/accounts';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

/** The statement link in the mails to an address, from the developer outbox (as the member reads mail). */
async function statementLinkTo(email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${shop.baseURL}/dev/outbox.json?to=${encodeURIComponent(email)}`);
    if (response.ok) {
      const { messages } = (await response.json()) as { messages: { links?: string[] }[] };
      for (const message of messages)
        for (const link of message.links ?? []) if (link.includes('/standing/')) return new URL(link).pathname;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no statement link to ${email} in the outbox`);
}

const skipped = databaseUrl ? '' : ' (skipped: needs PostgreSQL to set roles beside the running shop)';

describe('a restricted member’s statement and appeal', () => {
  it.skipIf(!databaseUrl)(
    `a banned member reads why in the mailed link, appeals once, and a second admin lifts the ban${skipped}`,
    async () => {
      const member = await openContext(shop.browser, 'phone', shop.baseURL);
      const first = await openContext(shop.browser, 'desktop', shop.baseURL);
      const second = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        const target = await signUpMemberWithCoins(member.page, handle!.db, {
          name: 'いぎもうしたて',
          label: 'appeal-member',
          paid: 1_500,
        });
        await signUpAdmin(first.page, handle!.db, { name: 'ていしかんりしゃ', label: 'appeal-admin-a' });
        await signUpAdmin(second.page, handle!.db, { name: 'はんだんかんりしゃ', label: 'appeal-admin-b' });

        // 1. The first admin bans, choosing the category the member will read.
        await first.page.goto(`/admin/members/${target.id}`);
        await waitForHydration(first.page);
        await first.page.getByRole('button', { name: '利用停止にする' }).click();
        const dialog = first.page.getByRole('dialog');
        await dialog.getByLabel('会員に伝える理由の区分（必須）').selectOption('multiple_accounts');
        await dialog.getByLabel('理由（必須・スタッフのみ閲覧）').fill('同一端末で5アカウント');
        await expectNoSeriousAxeViolations(first.page, 'the ban dialog with its category');
        await screenshot(first.page, 'desktop-admin-ban-category.png');
        await dialog.getByRole('button', { name: '利用停止にする' }).click();
        await first.page.getByText(/利用停止にしました/).waitFor();

        // 2. The member is signed out; the mailed link opens the statement.
        await member.page.goto('/mypage');
        await waitForHydration(member.page);
        await member.page.getByRole('heading', { name: 'ログインしてください' }).waitFor();
        await member.page.goto(await statementLinkTo(target.email));
        await waitForHydration(member.page);
        const statement = member.page.getByTestId('standing-statement');
        await statement.getByRole('heading', { name: '利用停止中です' }).waitFor();
        await expect.poll(() => statement.textContent()).toContain('複数アカウントの利用');
        const holdings = member.page.getByTestId('standing-holdings');
        expect(await holdings.textContent()).toContain('有償コイン1,500枚');
        // The staff's own words stay with the staff.
        expect(await member.page.content()).not.toContain('同一端末で5アカウント');
        await expectNoSeriousAxeViolations(member.page, 'phone / the statement by link');
        await screenshot(member.page, 'phone-standing-statement.png', { fullPage: true });

        // 3. One appeal.
        await statement.getByLabel('異議を申し立てる').fill('家族と同じ端末を使っていただけで、アカウントは1つです。');
        await statement.getByRole('button', { name: '異議申し立てを送信する' }).click();
        await member.page.getByText(/異議申し立てを受け付けました（受付番号 Q-/).waitFor();
        await member.page.getByTestId('appeal-pending').waitFor();
        expect(await statement.getByRole('button', { name: '異議申し立てを送信する' }).count()).toBe(0);
        await screenshot(member.page, 'phone-standing-appeal-sent.png');

        // 4. The admin who banned may not decide; the second admin lifts it, after a confirmation.
        await first.page.reload();
        await waitForHydration(first.page);
        await first.page.getByText('この制限を行ったため、判断は別のスタッフが行います。').waitFor();
        await second.page.goto(`/admin/members/${target.id}`);
        await waitForHydration(second.page);
        const section = second.page.getByRole('region', { name: '利用制限と異議申し立て' });
        await section.getByRole('radio', { name: '制限を解除' }).check();
        await section
          .getByLabel('会員への説明（必須・会員にメールで届きます）')
          .fill('確認の結果、ご家族の端末と判明しました。制限を解除します。');
        await section.getByRole('button', { name: '判断を送る' }).click();
        const confirm = second.page.getByRole('dialog');
        await confirm.getByText('判断はあとから変更できません。', { exact: false }).waitFor();
        await expectNoSeriousAxeViolations(second.page, 'the appeal decision');
        await screenshot(second.page, 'desktop-admin-appeal-decision.png');
        await confirm.getByRole('button', { name: '判断を送る' }).click();
        await second.page.getByText(/「制限を解除」と判断しました（制限を解除しました）/).waitFor();

        // 5. The member reads the outcome on the same link, and signs in again.
        await member.page.reload();
        await waitForHydration(member.page);
        await member.page.getByTestId('appeal-outcome').waitFor();
        expect(await member.page.getByTestId('appeal-outcome').textContent()).toContain(
          '異議申し立ての結果: 制限を解除',
        );
        await statement.getByRole('heading', { name: '利用停止は解除されました' }).waitFor();
        await expectNoSeriousAxeViolations(member.page, 'phone / the outcome');
        await screenshot(member.page, 'phone-standing-outcome.png', { fullPage: true });
        await member.page.goto('/auth/sign_in?redirect=%2Fmypage');
        await waitForHydration(member.page);
        await member.page.getByLabel('メールアドレス').first().fill(target.email);
        await member.page.getByLabel('パスワード', { exact: true }).fill('strong-pass-2026');
        await member.page.getByRole('button', { name: 'ログイン', exact: true }).click();
        await member.page.waitForURL((url) => url.pathname === '/mypage');
      } finally {
        await member.context.close();
        await first.context.close();
        await second.context.close();
      }
    },
  );

  it.skipIf(!databaseUrl)(`a held member finds the hold on マイページ and its statement${skipped}`, async () => {
    const member = await openContext(shop.browser, 'phone', shop.baseURL);
    const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
    try {
      const target = await signUpMemberWithCoins(member.page, handle!.db, {
        name: 'ほりゅう',
        label: 'hold-member',
        paid: 1_500,
      });
      await signUpAdmin(desk.page, handle!.db, { name: 'ほりゅうかんりしゃ', label: 'hold-admin' });
      await desk.page.goto(`/admin/members/${target.id}`);
      await waitForHydration(desk.page);
      await desk.page.getByRole('button', { name: '購入・発送を停止' }).click();
      const dialog = desk.page.getByRole('dialog');
      await dialog.getByLabel('会員に伝える理由の区分（必須）').selectOption('identity_check');
      await dialog.getByLabel('理由（必須・スタッフのみ閲覧）').fill('住所確認');
      await dialog.getByRole('button', { name: '停止する' }).click();
      await desk.page.getByText(/コイン購入と発送依頼を停止しました/).waitFor();

      await member.page.goto('/mypage');
      await waitForHydration(member.page);
      const notice = member.page.getByTestId('mypage-restriction');
      expect(await notice.textContent()).toContain('購入・発送の保留中です（理由の区分：本人確認のため）');
      await screenshot(member.page, 'phone-mypage-hold-notice.png');
      await notice.getByRole('link', { name: '明細と異議申し立て' }).click();
      await member.page.waitForURL((url) => url.pathname === '/mypage/standing');
      await waitForHydration(member.page);
      await member.page.getByRole('heading', { name: '購入・発送の保留中です' }).waitFor();
      expect(await member.page.getByTestId('standing-holdings').textContent()).toContain('有償コイン1,500枚');
      await expectNoSeriousAxeViolations(member.page, 'phone / the statement on mypage');
      await screenshot(member.page, 'phone-mypage-standing.png', { fullPage: true });
    } finally {
      await member.context.close();
      await desk.context.close();
    }
  });
});
