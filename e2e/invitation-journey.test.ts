// A friend's invitation at phone size (decision 038): a visitor opens the inviter's link /r?code=…, lands
// on the home page that leads to the sign-up, signs up there, and the friend-invitation analytics event
// (invitee_user_id, inviter_user_id) is pushed once; the inviter's /mypage/invitation then lists the
// invitee. axe finds nothing serious on the pages walked.
import { describe, it, expect } from 'vitest';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  confirmSignUpInBrowser,
  addSessionCookies,
  screenshot,
} from './support/browser';
import { cookieFrom, uniqueEmail, signUpByForm, shopUrl } from '#tests/http';

const shop = useBrowser();

/** Every analytics event the pages push, kept across page loads (the tag manager's view). */
const RECORD_EVENTS = `(() => {
  const layer = [];
  const push = layer.push.bind(layer);
  layer.push = (...events) => {
    const kept = JSON.parse(localStorage.getItem('e2e-events') || '[]');
    localStorage.setItem('e2e-events', JSON.stringify(kept.concat(events)));
    return push(...events);
  };
  window.dataLayer = layer;
})();`;

describe('a friend invitation at phone size', () => {
  it('goes from the link to the sign-up, and the inviter sees the new member', async () => {
    const inviterSignUp = await signUpByForm({
      name: '招待する太郎',
      email: uniqueEmail('inviter-journey'),
      password: 'invite-journey-1',
      agreeToTerms: 'on',
    });
    const inviterCookie = cookieFrom(inviterSignUp.headers);
    const bearer = /session_token=([^;]+)/.exec(inviterCookie)![1]!;
    const view = (await (
      await fetch(`${shopUrl()}/api/v1/me/invitation`, { headers: { authorization: `Bearer ${bearer}` } })
    ).json()) as { code: string; link: string };

    const visitor = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await visitor.context.addInitScript(RECORD_EVENTS);
      await visitor.page.goto(`/r?code=${view.code}`);
      await visitor.page.waitForURL((url) => url.pathname === '/');
      await waitForHydration(visitor.page);
      const notice = visitor.page.getByRole('region', { name: '友達招待' });
      await expect.poll(() => notice.textContent()).toContain(`招待コード ${view.code}`);
      await expectNoSeriousAxeViolations(visitor.page, 'phone / with an invitation');
      await notice.getByRole('link', { name: '新規会員登録へ進む' }).click();
      await visitor.page.waitForURL((url) => url.pathname === '/auth/sign_up');
      await waitForHydration(visitor.page);
      await expect.poll(() => visitor.page.getByRole('region', { name: '友達招待' }).count()).toBe(1);
      await expectNoSeriousAxeViolations(visitor.page, 'phone /auth/sign_up with an invitation');
      const email = uniqueEmail('invitee-journey');
      await visitor.page.getByLabel('ニックネーム').fill('招待された花子');
      await visitor.page.getByLabel('メールアドレス').fill(email);
      await visitor.page.getByLabel('パスワード', { exact: true }).fill('strong-pass-2026');
      await visitor.page.getByRole('checkbox', { name: /利用規約/ }).check();
      await visitor.page.getByRole('button', { name: '登録する' }).click();
      await confirmSignUpInBrowser(visitor.page, email);
      await visitor.page.waitForURL((url) => url.pathname === '/');
      await waitForHydration(visitor.page);
      const events = async () =>
        JSON.parse((await visitor.page.evaluate(() => localStorage.getItem('e2e-events'))) ?? '[]') as {
          event: string;
          invitee_user_id?: string;
          inviter_user_id?: string;
        }[];
      await expect.poll(async () => (await events()).filter((e) => e.event === 'friend_invitation').length).toBe(1);
      const [event] = (await events()).filter((e) => e.event === 'friend_invitation');
      expect(event!.invitee_user_id).toBeTruthy();
      expect(event!.inviter_user_id).toBeTruthy();
      expect(event!.invitee_user_id).not.toBe(event!.inviter_user_id);
      // the invitation's own page for the invitee says who invited them
      await visitor.page.goto('/mypage/invitation');
      await waitForHydration(visitor.page);
      await expect.poll(() => visitor.page.getByText('招待する太郎さんの招待で登録しました').count()).toBe(1);
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.context.close();
    }

    const inviter = await openContext(shop.browser, 'phone', shop.baseURL);
    try {
      await addSessionCookies(inviter.context, inviterCookie, shop.baseURL);
      await inviter.page.goto('/mypage/invitation');
      await waitForHydration(inviter.page);
      await expect.poll(() => inviter.page.getByTestId('invitation-code').textContent()).toBe(view.code);
      const list = inviter.page.getByRole('list', { name: '招待したお友達' });
      await expect.poll(() => list.textContent()).toMatch(/招待された花子.*登録済み/);
      await expectNoSeriousAxeViolations(inviter.page, 'phone /mypage/invitation');
      await screenshot(inviter.page, 'phone-invitation.png', { fullPage: true });
      // the copy button answers
      await inviter.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shop.baseURL });
      await inviter.page.getByRole('button', { name: 'コピー' }).click();
      await expect
        .poll(() => inviter.page.getByRole('status').filter({ hasText: 'コピー' }).textContent())
        .toMatch(/コピー(しました|できませんでした)/);
      expect(inviter.problems).toEqual([]);
    } finally {
      await inviter.context.close();
    }
  });
});
