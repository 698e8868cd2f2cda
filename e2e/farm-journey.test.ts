// The farm and friends at phone size (decisions 044, 045): a member plants a radish, waters it, the test
// shop's farm clock moves forward half an hour (FARM_CLOCK_ADJUSTABLE), and the member harvests the coin;
// then adds a friend from the friend's link and waters the friend's farm once. A visitor who opens a
// friend link signs up and comes back to the friend request, and the invitation event is pushed.
// axe finds nothing serious on the pages walked.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  openSignedInPhone,
  expectNoSeriousAxeViolations,
  waitForHydration,
  confirmSignUpInBrowser,
  screenshot,
} from './support/browser';
import { advanceFarmClock, memberApi, signUpMember, uniqueEmail } from '#tests/http';

const shop = useBrowser();

describe('the farm at phone size', () => {
  it('plants, waters, harvests after the clock moves, adds a friend by link and waters their farm', async () => {
    const host = await signUpMember('farm-host-journey');
    const hostView = (await memberApi('/me/friends', { member: host })).body as { code: string; link: string };
    const { context, page, problems } = await openSignedInPhone(shop, '畑の花子', 'farm-journey');
    try {
      await page.goto('/app/farm');
      await waitForHydration(page);
      await expectNoSeriousAxeViolations(page, 'phone /app/farm, a new farm');
      const plot = () => page.getByRole('button', { name: /^畑1：/ });
      await expect.poll(() => plot().textContent()).toMatch(/空き/);

      await plot().click();
      await page.getByRole('button', { name: /ラディッシュを植える/ }).click();
      await expect.poll(() => plot().textContent()).toMatch(/ラディッシュが成長中/);
      await expectNoSeriousAxeViolations(page, 'phone /app/farm, a radish growing');

      await expect.poll(() => plot().textContent()).toMatch(/水やりできます/);
      await plot().click();
      await page.getByRole('button', { name: '水やりする' }).click();
      // Watered: the plot no longer offers watering (the next window is hours away).
      await expect.poll(() => plot().textContent()).not.toMatch(/水やりできます/);
      await expect.poll(() => plot().textContent()).toMatch(/ラディッシュが成長中/);
      await page.keyboard.press('Escape');

      await advanceFarmClock(30);
      await page.reload();
      await waitForHydration(page);
      await expect.poll(() => plot().textContent()).toMatch(/ラディッシュが収穫できます/);
      await plot().click();
      await page.getByRole('button', { name: /収穫する（\+1コイン）/ }).click();
      await expect.poll(() => plot().textContent()).toMatch(/空き/);
      await expect
        .poll(() => page.getByRole('region', { name: '今日のファーム' }).textContent())
        .toMatch(/1\s*\/\s*30/);
      // The page shows the harvest at once; the server's answer and the wallet follow.
      await expect
        .poll(async () => (await page.evaluate(async () => (await fetch('/api/v1/me/wallet')).json())).free)
        .toBe(1);

      // The friend's link opens the page with the code filled in and the friend named.
      await page.goto(new URL(hostView.link).pathname + new URL(hostView.link).search);
      await waitForHydration(page);
      await expect.poll(() => page.getByLabel('相手のフレンドコード').inputValue()).toBe(hostView.code);
      await expect.poll(() => page.getByTestId('friend-code-owner').textContent()).toMatch(/さんにフレンド申請します/);
      await expectNoSeriousAxeViolations(page, 'phone /app/friends/add from a friend link');
      await page.getByRole('button', { name: /さんに申請する/ }).click();
      await expect
        .poll(() => page.getByTestId('friend-request-message').textContent())
        .toMatch(/フレンド申請を送りました/);

      const incoming = (await memberApi('/me/friends', { member: host })).body.incoming as { friendshipId: number }[];
      expect(incoming).toHaveLength(1);
      expect(
        (await memberApi(`/me/friends/${incoming[0]!.friendshipId}/accept`, { member: host, method: 'POST' })).status,
      ).toBe(200);

      await page.goto('/app/farm');
      await waitForHydration(page);
      const water = page.getByRole('button', { name: /さんの畑に水やり$/ });
      await water.click();
      await expect.poll(() => page.getByRole('button', { name: /：今日は水やり済み$/ }).count()).toBe(1);
      await expectNoSeriousAxeViolations(page, 'phone /app/farm after watering a friend');
      await screenshot(page, 'phone-farm.png', { fullPage: true });
      // The page shows the watering at once; the server's answer, and the friend's coin, follow.
      await expect.poll(async () => (await memberApi('/me/wallet', { member: host })).body.free).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes a visitor from a friend link through the sign-up and back to the friend request', async () => {
    const host = await signUpMember('farm-link-host');
    const hostView = (await memberApi('/me/friends', { member: host })).body as { code: string; link: string };
    const visitor = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      const link = new URL(hostView.link);
      await visitor.page.goto(link.pathname + link.search);
      await visitor.page.waitForURL((url) => url.pathname === '/auth/sign_in');
      await waitForHydration(visitor.page);
      await visitor.page
        .getByRole('link', { name: /新規会員登録/ })
        .first()
        .click();
      await visitor.page.waitForURL((url) => url.pathname === '/auth/sign_up');
      await waitForHydration(visitor.page);
      const email = uniqueEmail('farm-link-visitor');
      await visitor.page.getByLabel('ニックネーム').fill('リンクの次郎');
      await visitor.page.getByLabel('メールアドレス').fill(email);
      await visitor.page.getByLabel('パスワード', { exact: true }).fill('strong-pass-2026');
      await visitor.page.getByRole('checkbox', { name: /利用規約/ }).check();
      await visitor.page.getByRole('button', { name: '登録する' }).click();
      await confirmSignUpInBrowser(visitor.page, email);
      await visitor.page.waitForURL((url) => url.pathname === '/app/friends/add');
      await waitForHydration(visitor.page);
      await expect.poll(() => visitor.page.getByLabel('相手のフレンドコード').inputValue()).toBe(hostView.code);
      await visitor.page.getByRole('button', { name: /さんに申請する/ }).click();
      await expect
        .poll(() => visitor.page.getByTestId('friend-request-message').textContent())
        .toMatch(/フレンド申請を送りました/);
      // The sign-up from the link attached the invitation: the host's invitation page lists the new member.
      const invitation = await memberApi('/me/invitation', { member: host });
      expect(JSON.stringify(invitation.body)).toContain('リンクの次郎');
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });
});
