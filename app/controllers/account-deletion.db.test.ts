// The pages of the second factor and of 退会, through their actions with the real better-auth: the
// security page's setup, the sign-in code step, the staff guard, and the deletion (re-authentication,
// the tombstone, sessions gone, the old password dead, the address free again, the notice mail, the
// ledger and orders still balancing after every test, and no member deleting another).
import {
  identityTestServices,
  memberRequest,
  signUpConfirmed,
  totpCodeOf,
  wrongTotpCodeOf,
  TEST_ORIGIN as ORIGIN,
  type IdentityTestServices,
} from '#tests/identity';
import { answerOf } from '#tests/route-answers';
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { accounts, memberAddresses, paymentOrders, sessions, twoFactors, users, coinLedger } from '#db/schema';
import type { CapturedMessage } from '#modules/identity/server';
import { publicNicknames } from '#modules/identity';
import { getBalance, grantCoins } from '#modules/wallet';
import { countPrizesByStatus, drawLots } from '#modules/draw';
import { createAddress } from '#modules/shipping';
import { testAddressInput, testKeyring } from '#tests/shipping';
import { checkoutAsMember, sandboxHarness } from '#modules/payments/testing';
import type { ShopRequest } from '#server/context';
import { deletionPageAction, deletionPageLoader } from './account-deletion.server';
import { securityPageAction, securityPageLoader } from './second-factor.server';
import { secondStepAction } from './sign-in/second-factor.server';
import { requireStaff, STAFF_SECOND_FACTOR_PATH } from './staff.server';
import { takeOneTimeNotice } from './one-time-notice.server';

const PASSWORD = 'password-1234';
const handle = testDatabase('account_deletion', { poolSize: 4, invariants: 'afterEach' });
let services: IdentityTestServices;
let sent: CapturedMessage[];

beforeAll(() => {
  services = identityTestServices(handle);
  sent = services.messenger.sent;
});

let address = 0;
const nextAddress = () => `10.30.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

interface Member {
  id: string;
  email: string;
  cookie: string;
}

const cookieOf = (setCookies: string[], fragment = 'session_token=') =>
  setCookies.map((line) => line.split(';')[0]!).find((pair) => pair.includes(fragment) && !pair.endsWith('='));

let sequence = 0;
async function signUp(email = `del-${Date.now().toString(36)}-${++sequence}@example.jp`): Promise<Member> {
  const member = await signUpConfirmed(
    services.auth,
    services.config.AUTH_SECRET,
    { email, password: PASSWORD, name: `退会テスト${++sequence}` },
    new Headers({ 'x-shop-client-ip': nextAddress() }),
  );
  return { id: member.id, email, cookie: member.cookie };
}

/** The page's view of a request: the member as the server resolved it from the cookie. */
const shopFor = (cookie: string) => memberRequest(services, cookie);

const formRequest = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, 'x-shop-client-ip': nextAddress(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

async function pendingUriOf(memberId: string, email: string) {
  const { pendingTotpUri } = await import('#modules/identity/server');
  return (await pendingTotpUri(services.auth, handle.db, { memberId, email, issuer: services.config.SITE_NAME }))!;
}

/** Sets TOTP up through the security page; answers the member's new cookie, URI and backup codes. */
async function setUpThroughPage(member: Member) {
  const path = '/mypage/settings/security';
  const start = answerOf(
    await securityPageAction(
      await shopFor(member.cookie),
      formRequest(path, member.cookie, { intent: 'start', password: PASSWORD }),
    ),
  );
  expect(start.status).toBe(200);
  const page = await securityPageLoader(await shopFor(member.cookie), new Request(`${ORIGIN}${path}`));
  expect(page.signedIn && page.pending?.qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
  const svg = Buffer.from(
    (page as { pending: { qrDataUrl: string } }).pending.qrDataUrl.split(',')[1]!,
    'base64',
  ).toString();
  expect(svg).toContain('<svg');
  const uri = await pendingUriOf(member.id, member.email);
  const wrong = answerOf(
    await securityPageAction(
      await shopFor(member.cookie),
      formRequest(path, member.cookie, { intent: 'confirm', code: '12345' }),
    ),
  );
  expect(wrong.status).toBe(400);
  expect(wrong.body!.message).toBe('認証アプリに表示されている6桁の数字を入力してください。');
  const confirmed = answerOf(
    await securityPageAction(
      await shopFor(member.cookie),
      formRequest(path, member.cookie, { intent: 'confirm', code: await totpCodeOf(uri) }),
    ),
  );
  expect(confirmed.status).toBe(200);
  const backupCodes = confirmed.body!.backupCodes as string[];
  expect(backupCodes).toHaveLength(10);
  // better-auth replaced the session: the page hands the new cookie back.
  const cookie = cookieOf(confirmed.setCookies)!;
  expect(cookie).toBeDefined();
  return { ...member, cookie, uri, backupCodes };
}

describe('the security page and the sign-in code step', () => {
  it('sets TOTP up, then the sign-in page asks for the code and continues to redirect', async () => {
    const member = await setUpThroughPage(await signUp());
    const page = await securityPageLoader(
      await shopFor(member.cookie),
      new Request(`${ORIGIN}/mypage/settings/security`),
    );
    expect(page).toMatchObject({ signedIn: true, enabled: true, backupCodesLeft: 10, pending: null });

    const { action } = await import('~/routes/auth/sign-in');
    const signInForm = (fields: Record<string, string>, cookie = '') =>
      action({
        request: formRequest('/auth/sign_in', cookie, fields),
        context: { get: () => ({ requestId: 't', nonce: 'n', member: null, services }) },
      } as never);
    const first = answerOf(await signInForm({ email: member.email, password: PASSWORD, redirect: '/shop?x=1' }));
    expect(first.status).toBe(302);
    expect(first.location).toBe('/auth/sign_in?step=code&redirect=%2Fshop%3Fx%3D1');
    const twoFactor = cookieOf(first.setCookies, 'two_factor=')!;
    expect(twoFactor).toBeDefined();
    expect(cookieOf(first.setCookies)).toBeUndefined();

    const shop = { requestId: 't', nonce: 'n', member: null, services };
    const wrong = answerOf(
      await secondStepAction(shop, formRequest('/auth/sign_in', twoFactor, {}), {
        step: 'code',
        code: await wrongTotpCodeOf(member.uri),
        redirect: '/shop?x=1',
      }),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body!.formError).toContain('認証コードが正しくありません');
    const right = answerOf(
      await secondStepAction(shop, formRequest('/auth/sign_in', twoFactor, {}), {
        step: 'code',
        code: `${(await totpCodeOf(member.uri)).slice(0, 3)} ${(await totpCodeOf(member.uri)).slice(3)}`,
        redirect: '/shop?x=1',
        trustDevice: 'on',
      }),
    );
    expect(right.status).toBe(302);
    expect(right.location).toBe('/shop?x=1');
    expect(cookieOf(right.setCookies)).toBeDefined();
    expect(cookieOf(right.setCookies, 'trust_device=')).toBeDefined();

    // A backup code on the backup step; an expired challenge (no cookie) asks to start again.
    const second = answerOf(await signInForm({ email: member.email, password: PASSWORD }));
    const challenge = cookieOf(second.setCookies, 'two_factor=')!;
    const backup = answerOf(
      await secondStepAction(shop, formRequest('/auth/sign_in', challenge, {}), {
        step: 'backup',
        code: member.backupCodes[0]!,
      }),
    );
    expect(backup.status).toBe(302);
    expect(backup.location).toBe('/');
    const stale = answerOf(
      await secondStepAction(shop, formRequest('/auth/sign_in', '', {}), { step: 'code', code: '123456' }),
    );
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ restart: true });
    expect(stale.body!.formError).toContain('もう一度ログイン');
  });

  it('disabling on the page needs the password and a current code', async () => {
    const member = await setUpThroughPage(await signUp());
    const path = '/mypage/settings/security';
    const disable = async (fields: Record<string, string>) =>
      answerOf(
        await securityPageAction(
          await shopFor(member.cookie),
          formRequest(path, member.cookie, { intent: 'disable', ...fields }),
        ),
      );
    expect((await disable({ password: PASSWORD })).status).toBe(400);
    const wrongPassword = await disable({ password: 'wrong-password-1', code: await totpCodeOf(member.uri) });
    expect(wrongPassword.body!.message).toBe('パスワードが正しくありません。');
    const off = await disable({ password: PASSWORD, code: await totpCodeOf(member.uri) });
    expect(off.status).toBe(200);
    const [row] = await handle.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, member.id));
    expect(row!.on).toBe(false);
  });
});

describe('requireStaff', () => {
  const page = `${ORIGIN}/admin`;
  const thrown = async (shop: ShopRequest) => {
    try {
      await requireStaff(shop, new Request(page));
      return null;
    } catch (answer) {
      return answerOf(answer);
    }
  };
  it('sends visitors to sign in, hides staff pages from members, and sends staff without TOTP to set it up', async () => {
    expect((await thrown({ requestId: 't', nonce: 'n', member: null, services }))!.location).toBe(
      '/auth/sign_in?redirect=%2Fadmin',
    );
    const member = await signUp();
    expect((await thrown(await shopFor(member.cookie)))!.status).toBe(404);

    await handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, member.id));
    const refused = await thrown(await shopFor(member.cookie));
    expect(refused!.location).toBe(STAFF_SECOND_FACTOR_PATH);
    const notice = await securityPageLoader(
      await shopFor(member.cookie),
      new Request(`${ORIGIN}${STAFF_SECOND_FACTOR_PATH}`),
    );
    expect(notice).toMatchObject({ staffNotice: true });

    const withTotp = await setUpThroughPage(member);
    expect(await thrown(await shopFor(withTotp.cookie))).toBeNull();
  });
});

describe('退会', () => {
  async function memberWithHistory() {
    const member = await signUp();
    await grantCoins(handle.db, {
      memberId: member.id,
      kind: 'paid',
      amount: 3000,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `del:paid:${member.id}`,
      lifetimeDays: TEST_RULES.coinLifetimes,
    });
    await grantCoins(handle.db, {
      memberId: member.id,
      kind: 'free',
      amount: 500,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: `del:free:${member.id}`,
      lifetimeDays: TEST_RULES.coinLifetimes,
    });
    const gachaId = await createPublishedPack(handle.db, { lots: 20, price: 100 });
    const drawn = await drawLots(handle.db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member.id,
      gachaId,
      count: 1,
      idempotencyKey: `del:draw:${member.id}`,
    });
    expect(drawn.ok).toBe(true);
    await checkoutAsMember(handle.db, sandboxHarness(handle.db).gateway, member.id);
    return member;
  }

  const deleteAs = async (member: Member, fields: Record<string, string>) =>
    answerOf(
      await deletionPageAction(
        await shopFor(member.cookie),
        formRequest('/mypage/settings/delete', member.cookie, fields),
      ),
    );

  it('shows what is forfeited: the coin balance and the undecided prizes', async () => {
    const member = await memberWithHistory();
    const page = await deletionPageLoader(await shopFor(member.cookie));
    expect(page).toMatchObject({
      signedIn: true,
      coins: { paid: 3000, free: 400, total: 3400 },
      prizes: { pending: 1, kept: 0 },
      hasPassword: true,
      phrase: '退会する',
      reauthMinutes: 10,
    });
  });

  it('needs the phrase and the password', async () => {
    const member = await signUp();
    const noPhrase = await deleteAs(member, { confirmation: '退会', password: PASSWORD });
    expect(noPhrase.status).toBe(400);
    expect(noPhrase.body!.message).toBe('確認のため「退会する」と入力してください。');
    const noPassword = await deleteAs(member, { confirmation: '退会する' });
    expect(noPassword.status).toBe(400);
    const wrong = await deleteAs(member, { confirmation: '退会する', password: 'wrong-password-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body!.message).toBe('パスワードが正しくありません。');
    const [row] = await handle.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.deletedAt).toBeNull();
    expect(sent.filter((m) => m.to === member.email && m.template === 'account-deleted')).toEqual([]);
  });

  it('leaves a tombstone, ends every session, mails the old address, keeps the ledger and orders', async () => {
    const member = await memberWithHistory();
    const secondDevice = await services.auth.api.signInEmail({
      body: { email: member.email, password: PASSWORD },
      headers: new Headers({ 'x-shop-client-ip': nextAddress() }),
      asResponse: true,
    });
    const otherCookie = cookieOf(secondDevice.headers.getSetCookie())!;
    await setUpThroughPage(member).then((m) => (member.cookie = m.cookie));
    const ledgerBefore = await handle.db.select().from(coinLedger).where(eq(coinLedger.memberId, member.id));
    const ordersBefore = await handle.db.select().from(paymentOrders).where(eq(paymentOrders.memberId, member.id));
    expect(ordersBefore).toHaveLength(1);
    const keyring = testKeyring();
    for (const town of ['千代田1-1', '丸の内2-2'])
      expect((await createAddress(handle.db, keyring, member.id, testAddressInput({ town }))).ok).toBe(true);

    const done = await deleteAs(member, { confirmation: ' 退会する ', password: PASSWORD });
    expect(done.status).toBe(302);
    expect(done.location).toBe('/');
    // Signed out (better-auth clears its cookie) and a one-time notice for the top page.
    expect(done.setCookies.some((line) => line.includes('session_token=') && /Max-Age=0/i.test(line))).toBe(true);
    const noticeCookie = done.setCookies.find((line) => line.startsWith('oripa_notice='))!.split(';')[0]!;
    const notice = takeOneTimeNotice(new Request(ORIGIN, { headers: { cookie: noticeCookie } }));
    expect(notice.message).toContain('退会手続きが完了しました');
    expect(notice.clear).toMatch(/Max-Age=0/);

    const [row] = await handle.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({
      name: '退会済み会員',
      email: `deleted-${member.id}@invalid`,
      image: null,
      banned: true,
      role: 'user',
      twoFactorEnabled: false,
    });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect(await handle.db.select().from(accounts).where(eq(accounts.userId, member.id))).toEqual([]);
    expect(await handle.db.select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);
    expect(await services.auth.api.getSession({ headers: new Headers({ cookie: otherCookie }) })).toBeNull();
    // The address book goes with the account, in the same transaction.
    expect(await handle.db.select().from(memberAddresses).where(eq(memberAddresses.memberId, member.id))).toEqual([]);

    // The notice went to the old address, queued before it was erased.
    expect(sent.filter((m) => m.to === member.email && m.template === 'account-deleted')).toEqual([
      { channel: 'mail', to: member.email, template: 'account-deleted', vars: {}, memberId: member.id },
    ]);
    // The money stays where it was: the ledger rows and the order, under the tombstone's id.
    expect(await handle.db.select().from(coinLedger).where(eq(coinLedger.memberId, member.id))).toEqual(ledgerBefore);
    expect(await handle.db.select().from(paymentOrders).where(eq(paymentOrders.memberId, member.id))).toHaveLength(1);
    expect((await getBalance(handle.db, member.id)).total).toBe(3400);
    expect((await countPrizesByStatus(handle.db, member.id)).pending).toBe(1);
    // Public boards never show the old nickname.
    expect((await publicNicknames(handle.db, [member.id])).get(member.id)).toBe('退会済み会員');

    // The old password signs nobody in; the address can sign up anew, as a new member.
    const again = await services.auth.api
      .signInEmail({
        body: { email: member.email, password: PASSWORD },
        headers: new Headers({ 'x-shop-client-ip': nextAddress() }),
      })
      .catch((error: { body?: { code?: string } }) => error.body?.code);
    expect(again).toBe('INVALID_EMAIL_OR_PASSWORD');
    const fresh = await signUp(member.email);
    expect(fresh.id).not.toBe(member.id);
    expect((await getBalance(handle.db, fresh.id)).total).toBe(0);
  });

  it('a member can only ever delete the member of their own session', async () => {
    const a = await signUp();
    const b = await signUp();
    expect((await createAddress(handle.db, testKeyring(), b.id, testAddressInput())).ok).toBe(true);
    // A's session with B's id in every field a form could carry, and B's password.
    const forged = await deletionPageAction(
      { ...(await shopFor(a.cookie)), member: { ...(await shopFor(a.cookie)).member!, id: b.id } },
      formRequest('/mypage/settings/delete', a.cookie, {
        confirmation: '退会する',
        password: PASSWORD,
        memberId: b.id,
        userId: b.id,
      }),
    );
    // Both have the same password in this test: the session decides who is deleted, and it is A.
    expect(answerOf(forged).status).toBe(302);
    const [rowA] = await handle.db.select().from(users).where(eq(users.id, a.id));
    const [rowB] = await handle.db.select().from(users).where(eq(users.id, b.id));
    expect(rowA!.deletedAt).not.toBeNull();
    expect(rowB!.deletedAt).toBeNull();
    expect(rowB!.email).toBe(b.email);
    expect(await handle.db.select().from(memberAddresses).where(eq(memberAddresses.memberId, b.id))).toHaveLength(1);
    // Without a session nothing happens at all.
    const none = answerOf(
      await deletionPageAction(
        { requestId: 't', nonce: 'n', member: null, services },
        formRequest('/mypage/settings/delete', '', { confirmation: '退会する' }),
      ),
    );
    expect(none.status).toBe(401);
  });

  it('a member without a password deletes only with a fresh sign-in (REAUTH_MAX_AGE_MINUTES)', async () => {
    const member = await signUp();
    await handle.db.delete(accounts).where(eq(accounts.userId, member.id));
    const page = await deletionPageLoader(await shopFor(member.cookie));
    expect(page).toMatchObject({ hasPassword: false });
    await handle.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(sessions.userId, member.id));
    const stale = await deleteAs(member, { confirmation: '退会する' });
    expect(stale.status).toBe(401);
    expect(stale.body!.message).toContain('もう一度ログイン');
    await handle.db.update(sessions).set({ createdAt: new Date() }).where(eq(sessions.userId, member.id));
    const fresh = await deleteAs(member, { confirmation: '退会する' });
    expect(fresh.status).toBe(302);
  });
});
