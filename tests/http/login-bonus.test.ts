// The login bonus over HTTP against the built shop (decision 033): the API's state and claim (a second
// claim the same Japan-time day is a Japanese 409 naming the next time), visitors refused with 401 and
// sent to sign in from /myinbox/bonus/logs, the claim button's form on the page, and a history that shows
// the member's own claims only. Works on either database engine.
import { describe, it, expect, beforeAll } from 'vitest';
import { get, postForm, memberApi, signUpMember, type SignedUpMember } from '#tests/http';

type Member = SignedUpMember;
const signUp = (label: string) => signUpMember(label, 'login-bonus-1');
const api = memberApi;

/** '2026-11-24' as the history page writes it. */
const dayText = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return `${year}年${month}月${date}日`;
};

let alice: Member;
let bob: Member;
beforeAll(async () => {
  alice = await signUp('bonus-alice');
  bob = await signUp('bonus-bob');
});

describe('the login bonus', () => {
  it('refuses visitors: 401 from the API, sign-in from the history page', async () => {
    expect(await api('/me/login-bonus')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect((await api('/me/login-bonus', { method: 'POST' })).status).toBe(401);
    const page = await get('/myinbox/bonus/logs');
    expect(page.status).toBe(302);
    expect(page.location).toBe('/auth/sign_in?redirect=%2Fmyinbox%2Fbonus%2Flogs');
    const post = await postForm('/myinbox/bonus/logs', {});
    expect(post.status).toBe(302);
    expect(post.location).toMatch(/^\/auth\/sign_in\?redirect=/);
  });

  it('claims once a day by the API; the second claim is a Japanese 409 with the next time', async () => {
    const before = await api('/me/login-bonus', { member: alice });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ enabled: true, claimed: false, streakDay: 1, coins: 10 });
    const day: string = before.body.day;
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const claim = await api('/me/login-bonus', { member: alice, method: 'POST', key: 'bonus-alice-1' });
    expect(claim.status).toBe(200);
    // The app's retry with the same key gets the first answer, not a refusal.
    expect(await api('/me/login-bonus', { member: alice, method: 'POST', key: 'bonus-alice-1' })).toEqual(claim);
    expect(claim.body).toEqual({ day, streakDay: 1, coins: 10, nextClaimAt: before.body.nextClaimAt });
    // The next claim opens at 00:00 in Japan, which is 15:00 UTC.
    expect(claim.body.nextClaimAt).toMatch(/T15:00:00\.000Z$/);
    const again = await api('/me/login-bonus', { member: alice, method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('LOGIN_BONUS_ALREADY_CLAIMED');
    expect(again.body.error.details.nextClaimAt).toBe(claim.body.nextClaimAt);
    expect(again.body.error.message).toMatch(
      /^本日のログインボーナスは受け取り済みです。次回は.+0:00（日本時間）から受け取れます。$/,
    );
    expect((await api('/me/login-bonus', { member: alice })).body).toMatchObject({ claimed: true, coins: 10 });
    const wallet = await api('/me/wallet', { member: alice });
    expect(wallet.body.free).toBe(10);
    const entries = await api('/me/wallet/entries', { member: alice });
    expect(entries.body.items[0]).toMatchObject({ reason: 'login_bonus', reasonLabel: 'ログインボーナス', amount: 10 });
  });

  it('shows the card with its button, claims by the page form, and lists only the member’s own days', async () => {
    const card = await get('/mypage', { cookie: bob.cookie });
    expect(card.status).toBe(200);
    expect(card.body).toContain('ログインボーナス');
    expect(card.body).toMatch(/10<!-- -->コインを受け取る/);
    const page = await get('/myinbox/bonus/logs', { cookie: bob.cookie });
    expect(page.body).toContain('受け取り履歴はまだありません');
    expect(page.body).toContain('action="/myinbox/bonus/logs"');
    const claim = await postForm('/myinbox/bonus/logs', {}, { cookie: bob.cookie });
    expect(claim.status).toBeLessThan(400);
    const again = await postForm('/myinbox/bonus/logs', {}, { cookie: bob.cookie });
    expect(again.status).toBe(409);
    expect(again.body).toContain('本日のログインボーナスは受け取り済みです。');

    const { day } = (await api('/me/login-bonus', { member: bob })).body as { day: string };
    const bobs = await get('/myinbox/bonus/logs', { cookie: bob.cookie });
    expect(bobs.body).toContain(dayText(day));
    expect(bobs.body).toMatch(/連続<!-- -->1<!-- -->日目/);
    expect(bobs.body).toContain('受け取り済みです');
    // After the claim the /mypage card is gone: it is shown only while today's bonus waits.
    expect((await get('/mypage', { cookie: bob.cookie })).body).not.toMatch(/コインを受け取る/);
    // Alice and Bob claimed today, but a member that never claimed sees none of their days.
    const carol = await signUp('bonus-carol');
    const carols = await get('/myinbox/bonus/logs', { cookie: carol.cookie });
    expect(carols.body).toContain('受け取り履歴はまだありません');
    expect(carols.body).not.toContain(dayText(day));
  });
});
