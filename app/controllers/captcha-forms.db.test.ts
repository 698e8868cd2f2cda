// The captcha on every form whose check the abuse guard may hold back (docs/decisions/014), through
// the pages' own loaders and actions, the shop's real better-auth and the Turnstile stand-in: the new
// password of a reset link, the phone code on /mypage/settings/phonenumber and on /auth/sign_in, and
// the TOTP and backup code step. For each: after repeated failures a post without the widget's token
// is refused in Japanese and the page then shows the widget; a bad token is refused; a good one passes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { signUpConfirmed, totpCodeOf, wrongTotpCodeOf } from '#tests/identity';
import { answerOf, renderRoute } from '#tests/route-answers';
import { startTurnstileStandin, type TurnstileStandin } from '#devtools/standins/turnstile';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { createMaintenanceCache } from '#modules/shop';
import type { ShopServices } from '#server/services';
import { users } from '#db/schema';
import {
  capturingMessenger,
  createRateLimiter,
  createShopAuth,
  toSessionMember,
  type RateLimiter,
} from '#modules/identity/server';
import { AUTH_ERROR_MESSAGES } from '#modules/identity';
import type { ShopRequest } from '#server/context';
import type { PhoneFormState } from '~/components/PhoneCodeSteps';
import { actionPageAction, actionPageLoader } from './auth-action.server';
import { PHONE_SETTINGS_PATH, phoneSettingsAction } from './phone-number.server';
import { signInPageAction } from './sign-in/action.server';
import SignInPage, { loader as signInLoader } from '~/routes/auth/sign-in';
import AuthActionPage from '~/routes/auth/action';
import PhoneSettingsPage from '~/routes/mypage/settings-phonenumber';

const ORIGIN = 'http://shop.test';
const PASSWORD = 'password-1234';
const SECRET_KEY = 'standin-secret-key';
const SITE_KEY = 'standin-site-key';
const REQUIRED = AUTH_ERROR_MESSAGES.CAPTCHA_REQUIRED!;
const INVALID = AUTH_ERROR_MESSAGES.CAPTCHA_INVALID!;

const handle = testDatabase('captcha_forms', { poolSize: 4 });
const messenger = capturingMessenger();
let turnstile: TurnstileStandin;
let limiter: RateLimiter;
let services: ShopServices;

beforeAll(async () => {
  turnstile = await startTurnstileStandin({ secretKey: SECRET_KEY });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: ORIGIN,
    AUTH_SECRET: 'captcha-forms-secret-captcha-forms-secret-1',
    LOG_LEVEL: 'silent',
    CAPTCHA_AFTER_FAILURES: '3',
    // The stand-in's siteverify is honoured only in the sandbox.
    PAYMENT_SANDBOX: 'true',
    TURNSTILE_SITE_KEY: SITE_KEY,
    TURNSTILE_SECRET_KEY: SECRET_KEY,
    TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
  });
  const logger = createLogger('silent');
  limiter = createRateLimiter({ db: handle.db, logger, keyPrefix: `test:${randomUUID()}:` });
  const auth = createShopAuth({ db: handle.db, config, logger, messenger, limiter });
  services = {
    config,
    database: handle,
    db: handle.db,
    auth,
    logger,
    buildId: 'test',
    maintenance: createMaintenanceCache(handle.db, { maxAgeMs: 0 }),
    messenger,
    limiter,
  } as ShopServices;
});
afterAll(async () => {
  await limiter?.close();
  await turnstile?.close();
});

/** What the widget's settings must be: the stand-in's script and the public site key. */
const widget = () => ({ siteKey: SITE_KEY, scriptUrl: turnstile.scriptUrl });

let addressCounter = 0;
/** A client address no other test uses: each form's failures are counted from one address of its own. */
const freshAddress = () => `203.0.113.${++addressCounter}`;

let sequence = 0;
async function signUp(from: string) {
  const email = `captcha-${Date.now().toString(36)}-${++sequence}@example.jp`;
  return signUpConfirmed(
    services.auth,
    services.config.AUTH_SECRET,
    { email, password: PASSWORD, name: `確認テスト${sequence}` },
    new Headers({ 'x-shop-client-ip': from }),
  );
}

/** The page's view of a request: the member as the server resolved it from the cookie. */
async function shopFor(cookie: string): Promise<ShopRequest> {
  const session = cookie ? await services.auth.api.getSession({ headers: new Headers({ cookie }) }) : null;
  return {
    requestId: 'test',
    nonce: 'n',
    member: session ? toSessionMember(session.user as typeof session.user & { role?: string }) : null,
    services,
  };
}

/** A form posted from `from` (the shop's client-address header) with the member's cookies. */
const formPost = (path: string, from: string, cookie: string, fields: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, 'x-shop-client-ip': from, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

/** A page opened from `from` with the member's cookies. */
const pageGet = (path: string, from: string, cookie = '') =>
  new Request(`${ORIGIN}${path}`, { headers: { cookie, 'x-shop-client-ip': from } });

const cookieOf = (setCookies: string[], fragment: string) =>
  setCookies.map((line) => line.split(';')[0]!).find((pair) => pair.includes(fragment) && !pair.endsWith('='));

/** The page's HTML as the server renders it (a member in the root's data for members' pages). */
const renderPage = (
  page: Parameters<typeof renderRoute>[0],
  url: string,
  answers: { loaderData?: unknown; actionData?: unknown; member?: boolean },
) =>
  renderRoute(page, url, {
    ...answers,
    root: { member: answers.member ? { id: 'm', name: '会員', role: 'user' } : null },
  });

/** Whether the HTML holds the widget: its box and the hidden field its token goes into. */
const showsWidget = (html: string) => html.includes('data-captcha') && html.includes('name="captchaToken"');

describe('the new password of a reset link', () => {
  it('after failures from the address: the page opens with the widget, a post without a token is refused in Japanese, a good token sets the password', async () => {
    const from = freshAddress();
    const member = await signUp(freshAddress());
    const asked = await services.auth.handler(
      new Request(`${ORIGIN}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-shop-client-ip': freshAddress() },
        body: JSON.stringify({ email: member.email }),
      }),
    );
    expect(asked.status).toBe(200);
    const mail = messenger.sent.filter((m) => m.channel === 'mail' && m.to === member.email).at(-1)!;
    const link = new URL(mail.vars.url!);
    const pageUrl = `/auth/action${link.search}`;
    const fields = { password: 'brand-new-pass-42', confirm: 'brand-new-pass-42' };

    // Before any failure: no widget.
    const opened = answerOf(await actionPageLoader(await shopFor(''), pageGet(pageUrl, from)));
    expect(opened.body).toMatchObject({ state: 'confirm', mode: 'resetPassword', captcha: null });
    expect(showsWidget(renderPage(AuthActionPage, pageUrl, { loaderData: opened.body }))).toBe(false);

    // Three guessed codes from this address (each a dead link) make the captcha necessary here.
    for (let guess = 0; guess < 3; guess++) {
      const dead = answerOf(
        await actionPageAction(
          await shopFor(''),
          formPost(`/auth/action?mode=resetPassword&oobCode=guessed-code-${guess}`, from, '', fields),
        ),
      );
      expect(dead.body).toMatchObject({ state: 'dead', reason: 'expired' });
    }

    // The page opened before those failures has no widget: the refusal asks for it and brings it.
    const refused = answerOf(await actionPageAction(await shopFor(''), formPost(pageUrl, from, '', fields)));
    expect(refused).toMatchObject({ status: 400, body: { state: 'invalid', formError: REQUIRED, captcha: widget() } });
    const html = renderPage(AuthActionPage, pageUrl, { loaderData: opened.body, actionData: refused.body });
    expect(showsWidget(html)).toBe(true);
    expect(html).toContain(REQUIRED);

    // Opened now, the page shows the widget at once.
    const reopened = answerOf(await actionPageLoader(await shopFor(''), pageGet(pageUrl, from)));
    expect(reopened.body).toMatchObject({ captcha: widget() });
    expect(showsWidget(renderPage(AuthActionPage, pageUrl, { loaderData: reopened.body }))).toBe(true);

    const bad = answerOf(
      await actionPageAction(await shopFor(''), formPost(pageUrl, from, '', { ...fields, captchaToken: 'fail-token' })),
    );
    expect(bad).toMatchObject({ status: 400, body: { state: 'invalid', formError: INVALID, captcha: widget() } });

    const token = turnstile.passToken();
    const done = answerOf(
      await actionPageAction(await shopFor(''), formPost(pageUrl, from, '', { ...fields, captchaToken: token })),
    );
    expect([done.status, done.location]).toEqual([302, '/auth/action?done=resetPassword']);
    expect(turnstile.calls.at(-1)).toEqual({ response: token, remoteip: from, success: true });
  });
});

let numberSequence = 0;
/** A mobile number no other test uses, as a member types it and in E.164. */
function freshNumber() {
  const digits = String(30_000_000 + ++numberSequence);
  return { typed: `090-${digits.slice(0, 4)}-${digits.slice(4)}`, e164: `+8190${digits}` };
}
const lastCodeTo = (e164: string) =>
  messenger.sent.filter((message) => message.channel === 'sms' && message.to === e164).at(-1)!.vars.code!;
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
const phoneOf = (answer: ReturnType<typeof answerOf>) => answer.body!.phone as PhoneFormState;

/**
 * A page's phone steps through its action up to the captcha: the code sent (no widget), three wrong
 * codes (the third answer brings the widget), the right code without a token (refused in Japanese; the
 * page shows the widget and keeps the code), then with a bad token. Answers the right code.
 */
async function phoneCodeUntilCaptcha(
  post: (fields: Record<string, string>) => Promise<ReturnType<typeof answerOf>>,
  page: (actionData: unknown) => string,
  number: { typed: string; e164: string },
): Promise<string> {
  const sent = await post({ intent: 'phone-send', phoneNumber: number.typed });
  expect(phoneOf(sent)).toMatchObject({ step: 'code', phoneNumber: number.e164, captcha: null });
  expect(showsWidget(page(sent.body))).toBe(false);
  const code = lastCodeTo(number.e164);

  const wrongs = [];
  for (let attempt = 0; attempt < 3; attempt++)
    wrongs.push(phoneOf(await post({ intent: 'phone-verify', phoneNumber: number.e164, code: wrong(code) })));
  expect(wrongs.map((state) => state.captcha)).toEqual([null, null, widget()]);
  expect(wrongs[2]!.fieldErrors?.code).toBe('認証コードが正しくありません（残り2回）');

  // A post without the token (a page opened before the failures): refused, and the answer brings the widget.
  const refused = await post({ intent: 'phone-verify', phoneNumber: number.e164, code });
  expect(refused.status).toBe(400);
  expect(phoneOf(refused)).toMatchObject({ step: 'code', formError: REQUIRED, captcha: widget() });
  expect(phoneOf(refused).fieldErrors).toBeUndefined();
  const html = page(refused.body);
  // One widget, in the code's form (the sign-in page's password form has none).
  expect(html.match(/data-captcha/g)).toHaveLength(1);
  expect(html).toContain(REQUIRED);

  const bad = await post({ intent: 'phone-verify', phoneNumber: number.e164, code, captchaToken: 'fail-token' });
  expect(phoneOf(bad)).toMatchObject({ step: 'code', formError: INVALID, captcha: widget() });
  return code;
}

describe('the phone code on /mypage/settings/phonenumber', () => {
  it('the third wrong code brings the widget; without a token the right code is refused in Japanese; with one it verifies', async () => {
    const from = freshAddress();
    const member = await signUp(freshAddress());
    const number = freshNumber();
    const settings = async (fields: Record<string, string>) =>
      answerOf(
        await phoneSettingsAction(
          await shopFor(member.cookie),
          formPost(PHONE_SETTINGS_PATH, from, member.cookie, fields),
        ),
      );
    const page = (actionData: unknown) =>
      renderPage(PhoneSettingsPage, PHONE_SETTINGS_PATH, {
        member: true,
        loaderData: { current: null, canRemove: false, notice: null },
        actionData,
      });
    const code = await phoneCodeUntilCaptcha(settings, page, number);

    const token = turnstile.passToken();
    const verified = await settings({ intent: 'phone-verify', phoneNumber: number.e164, code, captchaToken: token });
    expect([verified.status, verified.location]).toEqual([302, `${PHONE_SETTINGS_PATH}?done=verified`]);
    expect(turnstile.calls.at(-1)).toEqual({ response: token, remoteip: from, success: true });
    const [row] = await handle.db.select({ phone: users.phoneNumber }).from(users).where(eq(users.id, member.id));
    expect(row!.phone).toBe(number.e164);
  });
});

/** The sign-in page's loader, as the route runs it for this request. */
const signInPageData = async (request: Request) =>
  signInLoader({
    request,
    params: {},
    context: { get: () => ({ requestId: 't', nonce: 'n', member: null, services }) },
  } as never);

describe('the phone code on /auth/sign_in', () => {
  it('after failures the code step carries the widget; a good token signs the member in', async () => {
    const from = freshAddress();
    const member = await signUp(freshAddress());
    const number = freshNumber();
    await handle.db
      .update(users)
      .set({ phoneNumber: number.e164, phoneNumberVerified: true })
      .where(eq(users.id, member.id));
    const signIn = async (fields: Record<string, string>) =>
      answerOf(
        await signInPageAction(
          await shopFor(''),
          formPost('/auth/sign_in', from, '', { redirect: '/shop', ...fields }),
        ),
      );
    const pageUrl = '/auth/sign_in?redirect=%2Fshop';
    const loaderData = await signInPageData(pageGet(pageUrl, from));
    const page = (actionData: unknown) => renderPage(SignInPage, pageUrl, { loaderData, actionData });
    const code = await phoneCodeUntilCaptcha(signIn, page, number);

    const token = turnstile.passToken();
    const signedIn = await signIn({ intent: 'phone-verify', phoneNumber: number.e164, code, captchaToken: token });
    expect([signedIn.status, signedIn.location]).toEqual([302, '/shop']);
    expect(turnstile.calls.at(-1)).toEqual({ response: token, remoteip: from, success: true });
    const session = await services.auth.api.getSession({
      headers: new Headers({ cookie: cookieOf(signedIn.setCookies, 'session_token=')! }),
    });
    expect(session?.user.id).toBe(member.id);
  });
});

/** Turns TOTP on for the member through better-auth's endpoints; answers its URI and backup codes. */
async function turnOnTotp(cookie: string) {
  const post = (path: string, body: object) =>
    services.auth.handler(
      new Request(`${ORIGIN}/api/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, cookie, 'x-shop-client-ip': freshAddress() },
        body: JSON.stringify(body),
      }),
    );
  const enabled = await post('/two-factor/enable', { password: PASSWORD });
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  expect((await post('/two-factor/verify-totp', { code: await totpCodeOf(totpURI) })).status).toBe(200);
  return { totpURI, backupCodes };
}

describe('the code step of /auth/sign_in', () => {
  it('TOTP: the third wrong code brings the widget; on another network the refusal brings it; a good token and the code sign in', async () => {
    const from = freshAddress();
    const member = await signUp(freshAddress());
    const { totpURI } = await turnOnTotp(member.cookie);
    const signIn = async (fields: Record<string, string>, cookie: string, address: string) =>
      answerOf(await signInPageAction(await shopFor(''), formPost('/auth/sign_in', address, cookie, fields)));

    const first = await signIn({ email: member.email, password: PASSWORD, redirect: '/shop' }, '', from);
    expect([first.status, first.location]).toEqual([302, '/auth/sign_in?step=code&redirect=%2Fshop']);
    const stepUrl = first.location!;
    const challenge = cookieOf(first.setCookies, 'two_factor=')!;
    const opened = await signInPageData(pageGet(stepUrl, from, challenge));
    expect(opened.secondStepCaptcha).toBeNull();
    expect(showsWidget(renderPage(SignInPage, stepUrl, { loaderData: opened }))).toBe(false);

    const step = (fields: Record<string, string>, address: string) =>
      signIn({ intent: 'second-factor', step: 'code', redirect: '/shop', ...fields }, challenge, address);
    const wrongs = [];
    for (let attempt = 0; attempt < 3; attempt++)
      wrongs.push(await step({ code: await wrongTotpCodeOf(totpURI) }, from));
    expect(wrongs.map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(wrongs.map((answer) => answer.body!.captcha)).toEqual([null, null, widget()]);
    // Opened again from that address, the step shows the widget before the next code.
    const reopened = await signInPageData(pageGet(stepUrl, from, challenge));
    expect(reopened.secondStepCaptcha).toEqual(widget());
    expect(showsWidget(renderPage(SignInPage, stepUrl, { loaderData: reopened }))).toBe(true);

    // The member's phone moves to another network (better-auth allows 3 code tries per address in
    // 10 s, too): the page cannot tell, but the guard counted the challenge itself, so the right code
    // without a token is refused in Japanese and the answer brings the widget.
    const elsewhere = freshAddress();
    const refused = await step({ code: await totpCodeOf(totpURI) }, elsewhere);
    expect(refused.body).toMatchObject({ step: 'code', formError: REQUIRED, captcha: widget(), restart: false });
    const html = renderPage(SignInPage, stepUrl, { loaderData: opened, actionData: refused.body });
    expect(showsWidget(html)).toBe(true);
    expect(html).toContain(REQUIRED);

    const bad = await step({ code: await totpCodeOf(totpURI), captchaToken: 'fail-token' }, elsewhere);
    expect(bad.body).toMatchObject({ formError: INVALID, captcha: widget() });

    const token = turnstile.passToken();
    const signedIn = await step({ code: await totpCodeOf(totpURI), captchaToken: token }, elsewhere);
    expect([signedIn.status, signedIn.location]).toEqual([302, '/shop']);
    expect(cookieOf(signedIn.setCookies, 'session_token=')).toBeDefined();
    expect(turnstile.calls.at(-1)).toEqual({ response: token, remoteip: elsewhere, success: true });
  });

  it('backup code: from an address that failed, the password and the backup code each pass with a token only', async () => {
    const from = freshAddress();
    const member = await signUp(freshAddress());
    const { backupCodes } = await turnOnTotp(member.cookie);
    const signIn = async (fields: Record<string, string>, cookie = '') =>
      answerOf(await signInPageAction(await shopFor(''), formPost('/auth/sign_in', from, cookie, fields)));
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await signIn({ email: member.email, password: 'wrong-password-1' })).status).toBe(401);

    const password = await signIn({ email: member.email, password: PASSWORD });
    expect(password.body).toMatchObject({ formError: REQUIRED, captcha: widget() });
    expect(showsWidget(renderPage(SignInPage, '/auth/sign_in', { loaderData: null, actionData: password.body }))).toBe(
      true,
    );
    const first = await signIn({ email: member.email, password: PASSWORD, captchaToken: turnstile.passToken() });
    expect(first.location).toBe('/auth/sign_in?step=code');
    const challenge = cookieOf(first.setCookies, 'two_factor=')!;

    const backupUrl = '/auth/sign_in?step=backup';
    const opened = await signInPageData(pageGet(backupUrl, from, challenge));
    expect(opened.secondStepCaptcha).toEqual(widget());
    expect(showsWidget(renderPage(SignInPage, backupUrl, { loaderData: opened }))).toBe(true);

    const step = (fields: Record<string, string>) =>
      signIn({ intent: 'second-factor', step: 'backup', code: backupCodes[0]!, ...fields }, challenge);
    expect((await step({})).body).toMatchObject({ step: 'backup', formError: REQUIRED, captcha: widget() });
    expect((await step({ captchaToken: 'fail-token' })).body).toMatchObject({ formError: INVALID, captcha: widget() });
    const signedIn = await step({ captchaToken: turnstile.passToken() });
    expect([signedIn.status, signedIn.location]).toEqual([302, '/']);
    expect(cookieOf(signedIn.setCookies, 'session_token=')).toBeDefined();
  });
});
