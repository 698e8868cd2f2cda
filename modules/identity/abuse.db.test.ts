// The abuse guard through the shop's real better-auth (createShopAuth, its HTTP handler), with the
// Turnstile stand-in: repeated wrong passwords make the captcha necessary (per account and per
// address), a good token lets the right password in and clears the account's count, a bad or reused
// token is refused; limits per address recover after their window (a clock the test moves); a known
// and an unknown email read the same answer once limited.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { useTestDatabase } from '#tests/use-test-database';
import { startTurnstileStandin, type TurnstileStandin } from '#devtools/standins/turnstile';
import { createShopAuth, type ShopAuth } from './auth.server';
import { createRateLimiter, type RateLimiter } from './rate-limiter.server';
import { captchaRequired } from './abuse.server';
import { CAPTCHA_HEADER, CLIENT_IP_HEADER } from './constants';
import { authErrorMessage } from './messages';
import { capturingMessenger } from './messenger';
import { createEmailVerificationToken } from 'better-auth/api';

const AUTH_SECRET = 'abuse-test-secret-abuse-test-secret-0123';

const ORIGIN = 'http://localhost:3999';
const SECRET_KEY = 'standin-secret-key';
const PASSWORD = 'correct-horse-1234';
const handle = useTestDatabase('abuse', { poolSize: 4 });
const logger = createLogger('silent');
let turnstile: TurnstileStandin;
const limiters: RateLimiter[] = [];

beforeAll(async () => {
  turnstile = await startTurnstileStandin({ secretKey: SECRET_KEY });
});
afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
  await turnstile?.close();
});

/** A shop's auth with these settings, its limiter on a clock the test moves. */
function shopAuth(settings: Record<string, string> = {}, options: { turnstile?: boolean } = {}) {
  let time = Date.now();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: ORIGIN,
    AUTH_SECRET: AUTH_SECRET,
    LOG_LEVEL: 'silent',
    ...(options.turnstile === false
      ? {}
      : {
          TURNSTILE_SITE_KEY: 'standin-site-key',
          TURNSTILE_SECRET_KEY: SECRET_KEY,
          TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
        }),
    ...settings,
  });
  const limiter = createRateLimiter({ db: handle.db, logger, keyPrefix: `test:${randomUUID()}:`, now: () => time });
  limiters.push(limiter);
  const auth = createShopAuth({ db: handle.db, config, logger, limiter, messenger: capturingMessenger() });
  return { auth, config, limiter, advance: (seconds: number) => (time += seconds * 1000) };
}

let addressCounter = 0;
/** A client address no other test uses (better-auth's own per-address limiter never meets another test). */
const freshAddress = () => `198.51.100.${++addressCounter}`;

async function post(auth: ShopAuth, path: string, body: object, from: string, captcha?: string) {
  const headers = new Headers({ 'content-type': 'application/json', origin: ORIGIN, [CLIENT_IP_HEADER]: from });
  if (captcha !== undefined) headers.set(CAPTCHA_HEADER, captcha);
  const response = await auth.handler(
    new Request(`${ORIGIN}/api/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  const text = await response.text();
  const json = (text ? JSON.parse(text) : null) as { code?: string; message?: string } | null;
  return { status: response.status, code: json?.code, body: text, retryAfter: response.headers.get('retry-after') };
}

async function member(auth: ShopAuth) {
  const email = `abuse-${randomUUID().slice(0, 8)}@example.jp`;
  const response = await post(
    auth,
    '/sign-up/email',
    { email, password: PASSWORD, name: '見張り会員' },
    freshAddress(),
  );
  expect(response.status).toBe(200);
  // Confirm the address as the confirmation mail's link would (sign-in waits for it).
  const token = await createEmailVerificationToken(AUTH_SECRET, email, undefined, 3600);
  const verified = await auth.handler(new Request(`${ORIGIN}/api/auth/verify-email?token=${token}`));
  expect(verified.status).toBe(200);
  return email;
}

const signIn = (auth: ShopAuth, email: string, password: string, from: string, captcha?: string) =>
  post(auth, '/sign-in/email', { email, password }, from, captcha);

describe('the captcha after repeated failures', () => {
  it('does not count new passwords the policy refuses as failures, only wrong codes', async () => {
    const { auth, config, limiter } = shopAuth({ CAPTCHA_AFTER_FAILURES: '3' });
    const from = freshAddress();
    for (let attempt = 0; attempt < 4; attempt++) {
      const weak = await post(auth, '/reset-password', { token: 'not-a-real-token', newPassword: 'short' }, from);
      expect(weak).toMatchObject({ status: 400, code: 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS' });
    }
    expect(await captchaRequired({ limiter, config }, { address: from })).toBe(false);
    for (let attempt = 0; attempt < 3; attempt++) {
      const guess = await post(auth, '/reset-password', { token: `guess-${attempt}`, newPassword: PASSWORD }, from);
      expect(guess).toMatchObject({ status: 400, code: 'INVALID_TOKEN' });
    }
    expect(await captchaRequired({ limiter, config }, { address: from })).toBe(true);
  });

  it('is asked for after CAPTCHA_AFTER_FAILURES wrong passwords; a good token lets the right password in and clears the account', async () => {
    const { auth, config, limiter } = shopAuth({ CAPTCHA_AFTER_FAILURES: '3' });
    const email = await member(auth);
    const [a, b] = [freshAddress(), freshAddress()];
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await signIn(auth, email, 'wrong-password', a)).status).toBe(401);
    }
    expect(await captchaRequired({ limiter, config }, { email, address: a })).toBe(true);

    // Even the right password needs the captcha now, from that address and (same account) from another.
    const missing = await signIn(auth, email, PASSWORD, a);
    expect(missing).toMatchObject({ status: 400, code: 'CAPTCHA_REQUIRED' });
    expect(authErrorMessage(missing.code)).toBe('短時間に何度も失敗したため、確認のためチェックを完了してください。');
    expect(await signIn(auth, ` ${email.toUpperCase()} `, PASSWORD, b)).toMatchObject({
      status: 400,
      code: 'CAPTCHA_REQUIRED',
    });

    // A bad token, then a good one; the good one works once.
    expect(await signIn(auth, email, PASSWORD, a, 'fail-not-a-token')).toMatchObject({
      status: 400,
      code: 'CAPTCHA_INVALID',
    });
    const token = turnstile.passToken();
    expect((await signIn(auth, email, PASSWORD, a, token)).status).toBe(200);
    expect(turnstile.calls.at(-1)).toEqual({ response: token, remoteip: a, success: true });
    expect(await signIn(auth, email, PASSWORD, a, token)).toMatchObject({ status: 400, code: 'CAPTCHA_INVALID' });

    // The success cleared the account's count: another address signs in without a captcha …
    expect(await captchaRequired({ limiter, config }, { email, address: b })).toBe(false);
    expect((await signIn(auth, email, PASSWORD, b)).status).toBe(200);
    // … but the address that failed three times still needs one (for any account).
    expect(await signIn(auth, email, PASSWORD, a)).toMatchObject({ status: 400, code: 'CAPTCHA_REQUIRED' });
  });

  it('counts an unknown email like a known one, and the failures of an address over several accounts', async () => {
    const { auth } = shopAuth({ CAPTCHA_AFTER_FAILURES: '2' });
    const email = await member(auth);
    const from = freshAddress();
    expect((await signIn(auth, 'nobody-1@example.jp', 'guess-1234', from)).status).toBe(401);
    expect((await signIn(auth, 'nobody-2@example.jp', 'guess-1234', from)).status).toBe(401);
    expect(await signIn(auth, email, PASSWORD, from)).toMatchObject({ status: 400, code: 'CAPTCHA_REQUIRED' });
    expect((await signIn(auth, email, PASSWORD, freshAddress())).status).toBe(200);
  });

  it('forgets failures after CAPTCHA_FAILURE_WINDOW_MINUTES', async () => {
    const { auth, advance } = shopAuth({ CAPTCHA_AFTER_FAILURES: '1', CAPTCHA_FAILURE_WINDOW_MINUTES: '15' });
    const email = await member(auth);
    const from = freshAddress();
    expect((await signIn(auth, email, 'wrong-password', from)).status).toBe(401);
    expect((await signIn(auth, email, PASSWORD, from)).code).toBe('CAPTCHA_REQUIRED');
    advance(15 * 60);
    expect((await signIn(auth, email, PASSWORD, from)).status).toBe(200);
  });

  it('is never asked for when Turnstile is not configured: only the limits apply', async () => {
    const { auth, config, limiter } = shopAuth({ CAPTCHA_AFTER_FAILURES: '1' }, { turnstile: false });
    expect(config.turnstile).toBeUndefined();
    const email = await member(auth);
    const from = freshAddress();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await signIn(auth, email, 'wrong-password', from)).status).toBe(401);
    }
    expect(await captchaRequired({ limiter, config }, { email, address: from })).toBe(false);
    expect((await signIn(auth, email, PASSWORD, from)).status).toBe(200);
  });
});

describe('the limits', () => {
  it("leaves the shop's own server-side auth.api calls alone (only HTTP requests are guarded)", async () => {
    const { auth } = shopAuth({ SIGN_UP_ATTEMPTS_PER_MINUTE: '1' }, { turnstile: false });
    const headers = new Headers({ [CLIENT_IP_HEADER]: '192.0.2.99' });
    for (let i = 0; i < 2; i++) {
      const email = `internal-${randomUUID().slice(0, 8)}@example.jp`;
      const response = await auth.api.signUpEmail({
        body: { email, password: PASSWORD, name: '内部会員' },
        headers,
        asResponse: true,
      });
      expect(response.status).toBe(200);
    }
    // The same limit on HTTP requests (better-auth's own limiter, in front, answers it here first).
    const from = freshAddress();
    const signUp = () =>
      post(
        auth,
        '/sign-up/email',
        { email: `web-${randomUUID().slice(0, 8)}@example.jp`, password: PASSWORD, name: 'ウェブ会員' },
        from,
      );
    expect((await signUp()).status).toBe(200);
    expect((await signUp()).status).toBe(429);
  });

  it('answers a known and an unknown email alike once the account limit is reached', async () => {
    const { auth } = shopAuth({ SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES: '2' }, { turnstile: false });
    const known = await member(auth);
    const unknown = `nobody-${randomUUID().slice(0, 8)}@example.jp`;
    const answers = [];
    for (const email of [known, unknown]) {
      // From fresh addresses each time: only the per-account limit can refuse.
      for (let attempt = 0; attempt < 2; attempt++) {
        expect((await signIn(auth, email, 'wrong-password', freshAddress())).status).toBe(401);
      }
      answers.push(await signIn(auth, email, email === known ? PASSWORD : 'guess-1234', freshAddress()));
    }
    const [forKnown, forUnknown] = answers;
    expect(forKnown).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: '900' });
    expect(forUnknown).toEqual(forKnown);
    expect(authErrorMessage(forKnown!.code, forKnown!.status)).toBe(
      '試行回数が多すぎます。しばらく時間をおいてからお試しください。',
    );
  });

  it('limits reset mails per address and lets them through again after the window', async () => {
    const { auth, advance } = shopAuth({ AUTH_MAILS_PER_ADDRESS_PER_HOUR: '1' }, { turnstile: false });
    const from = freshAddress();
    const reset = (email: string) => post(auth, '/request-password-reset', { email }, from);
    // better-auth answers 400 here (no mailer is configured in this test): the guard only counts.
    const first = await reset('one@example.jp');
    expect(first.status).not.toBe(429);
    advance(1800);
    expect(await reset('two@example.jp')).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: '1800' });
    // Another address is not affected.
    expect((await post(auth, '/request-password-reset', { email: 'three@example.jp' }, freshAddress())).status).toBe(
      first.status,
    );
    advance(1800);
    expect((await reset('four@example.jp')).status).toBe(first.status);
  });

  it('limits mails per account, whatever the spelling of the address', async () => {
    const { auth } = shopAuth({ AUTH_MAILS_PER_ACCOUNT_PER_HOUR: '1' }, { turnstile: false });
    const first = await post(auth, '/request-password-reset', { email: 'Taro@Example.jp' }, freshAddress());
    expect(first.status).not.toBe(429);
    expect(await post(auth, '/request-password-reset', { email: ' taro@example.JP' }, freshAddress())).toMatchObject({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
    });
  });
});
