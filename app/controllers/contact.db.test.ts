// The contact form's captcha and limits through the page's own loader and action, with the Turnstile
// stand-in: a visitor's post needs the widget's token (none or a bad one is refused in Japanese and
// stores nothing; a good one sends), a member is not asked, and the loader offers the widget to
// visitors only. Also: the email limit counts per address typed, whatever the case.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { answerOf } from '#tests/route-answers';
import { createMember } from '#tests/fixtures';
import { startTurnstileStandin, type TurnstileStandin } from '#devtools/standins/turnstile';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import type { ShopServices } from '#server/services';
import { inquiries } from '#db/schema';
import { createRateLimiter, type RateLimiter } from '#modules/identity/server';
import type { ShopRequest } from '#server/context';
import { contactAction, contactLoader } from './contact.server';

const ORIGIN = 'http://shop.test';
const SECRET_KEY = 'standin-secret-key';
const handle = testDatabase('contact_form', { poolSize: 2 });
let turnstile: TurnstileStandin;
let limiter: RateLimiter;
let services: ShopServices;

beforeAll(async () => {
  turnstile = await startTurnstileStandin({ secretKey: SECRET_KEY });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: ORIGIN,
    AUTH_SECRET: 'contact-form-secret-contact-form-secret-1234',
    LOG_LEVEL: 'silent',
    PAYMENT_SANDBOX: 'true',
    TURNSTILE_SITE_KEY: 'standin-site-key',
    TURNSTILE_SECRET_KEY: SECRET_KEY,
    TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
    CONTACT_INQUIRIES_PER_EMAIL_PER_DAY: '2',
  });
  const logger = createLogger('silent');
  limiter = createRateLimiter({ db: handle.db, logger, keyPrefix: `test:${randomUUID()}:` });
  // No better-auth: the contact form never calls it.
  services = { config, database: handle, db: handle.db, logger, buildId: 'test', limiter } as unknown as ShopServices;
});
afterAll(async () => {
  await limiter?.close();
  await turnstile?.close();
});

let addresses = 0;
const shopFor = (member: { id: string; email: string } | null): ShopRequest => ({
  requestId: 'test',
  nonce: 'n',
  member: member ? { ...member, name: '会員', emailVerified: true, image: null, role: 'user', joinedAt: null } : null,
  services,
});
const post = (fields: Record<string, string>, from = `203.0.113.${++addresses}`) =>
  new Request(`${ORIGIN}/contact`, {
    method: 'POST',
    headers: { 'x-shop-client-ip': from, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
const fields = (email: string, extra: Record<string, string> = {}) => ({
  category: 'account',
  email,
  subject: 'ログインできません',
  message: 'パスワードを忘れました。',
  ...extra,
});
/** The action's answer, whether returned (data) or thrown (the redirect after sending). */
const answer = async (shop: ShopRequest, request: Request) => {
  try {
    return answerOf(await contactAction(shop, request));
  } catch (thrown) {
    if (thrown instanceof Response) return answerOf(thrown);
    throw thrown;
  }
};
const stored = async (email: string) =>
  (await handle.db.select().from(inquiries).where(eq(inquiries.email, email))).length;

describe('the contact form with Turnstile configured', () => {
  it('offers the widget to visitors and not to members', async () => {
    const visitor = await contactLoader(shopFor(null), new Request(`${ORIGIN}/contact`));
    expect(visitor.captcha).toMatchObject({ siteKey: 'standin-site-key' });
    const id = await createMember(handle.db);
    const member = await contactLoader(shopFor({ id, email: `${id}@example.test` }), new Request(`${ORIGIN}/contact`));
    expect(member.captcha).toBeNull();
    expect(member.values.email).toBe(`${id}@example.test`);
  });

  it('refuses a visitor’s post without a token or with a bad one, and sends with a good one', async () => {
    const email = `captcha-${randomUUID().slice(0, 8)}@example.jp`;
    const none = await answer(shopFor(null), post(fields(email)));
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ formError: expect.stringContaining('チェックを完了してから送信してください') });
    expect(none.body).toMatchObject({ captcha: expect.objectContaining({ siteKey: 'standin-site-key' }) });
    const bad = await answer(shopFor(null), post(fields(email, { captchaToken: 'fail-token' })));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ formError: expect.stringContaining('確認に失敗しました') });
    expect(await stored(email)).toBe(0);
    const good = await answer(shopFor(null), post(fields(email, { captchaToken: turnstile.passToken() })));
    expect(good).toMatchObject({ status: 302, location: '/contact?sent=1' });
    expect(await stored(email)).toBe(1);
  });

  it('does not ask a member, and counts inquiries per email address (any case) before storing', async () => {
    const id = await createMember(handle.db);
    const email = `${id}@example.test`;
    const shop = shopFor({ id, email });
    expect(await answer(shop, post(fields(email)))).toMatchObject({ status: 302 });
    expect(await answer(shop, post(fields(email.toUpperCase())))).toMatchObject({ status: 302 });
    const third = await answer(shop, post(fields(email)));
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ formError: expect.stringContaining('短い時間に多くのお問い合わせ') });
    expect(await stored(email)).toBe(1);
    expect(await stored(email.toUpperCase())).toBe(1);
  });
});
