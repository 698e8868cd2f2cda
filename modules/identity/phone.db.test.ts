// Phone numbers through better-auth's own HTTP handler (as the pages and the raw API reach it): a code
// in the captured SMS verifies a number onto the member; wrong codes count down and the sixth try
// fails even with the right code; expiry; the 60 s resend cooldown on an injected clock; one member
// per number; sign-in with a verified number; an unknown number answers like a known one and gets no
// SMS; a member acts only on their own number.
import { signUpConfirmed } from '#tests/identity';
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { createShopAuth, type ShopAuth } from './auth.server';
import { capturingMessenger } from './messenger';
import { users, verifications } from './schema';
import { PHONE_CODE } from './phone.server';

const TEST_ORIGIN = 'http://shop.test';
const handle = useTestDatabase('phone', { poolSize: 4 });
let auth: ShopAuth;
let messenger: ReturnType<typeof capturingMessenger>;
/** The cooldown's clock: tests move it forward instead of sleeping. */
let clock = Date.now();

beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    AUTH_SECRET,
    LOG_LEVEL: 'silent',
  });
  messenger = capturingMessenger();
  auth = createShopAuth({
    db: handle.db,
    config,
    logger: createLogger('silent'),
    messenger,
    now: () => new Date(clock),
  });
});

const AUTH_SECRET = 'phone-test-secret-phone-test-secret-01234';
let sequence = 0;
/** A fresh mobile number for each use, so one test's cooldown never meets another's. */
function freshNumber() {
  sequence += 1;
  const digits = String(10_000_000 + ((Date.now() + sequence * 7919) % 89_999_999)).slice(0, 8);
  return `+8190${digits}`;
}

/** One request to better-auth's handler, as callAuth sends it. */
async function call(path: string, body: Record<string, unknown>, cookie?: string) {
  const headers = new Headers({
    'content-type': 'application/json',
    origin: TEST_ORIGIN,
    'x-shop-client-ip': `10.0.${sequence % 250}.${(sequence * 7) % 250}`,
  });
  if (cookie) headers.set('cookie', cookie);
  const response = await auth.handler(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]!);
  return { status: response.status, json, cookie: cookies.find((pair) => pair.includes('session_token=')) };
}

async function signUp() {
  sequence += 1;
  const email = `phone-${Date.now().toString(36)}-${sequence}@example.jp`;
  const member = await signUpConfirmed(auth, AUTH_SECRET, {
    email,
    password: 'password-1234',
    name: `電話会員${sequence}`,
  });
  return { id: member.id, cookie: member.cookie };
}

/** The code in the last SMS to `to` (and that SMS). */
function lastSmsTo(to: string) {
  const sms = messenger.sent.filter((message) => message.channel === 'sms' && message.to === to).at(-1);
  return sms ? { ...sms, code: sms.vars.code! } : undefined;
}

async function phoneOf(memberId: string) {
  const [row] = await handle.db
    .select({ phoneNumber: users.phoneNumber, verified: users.phoneNumberVerified })
    .from(users)
    .where(eq(users.id, memberId));
  return row;
}

/** Sends a code to `to` as `member` and verifies it onto them. */
async function verifyNumber(member: { cookie: string }, to: string) {
  expect((await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie)).status).toBe(200);
  const result = await call(
    '/phone-number/verify',
    { phoneNumber: to, code: lastSmsTo(to)!.code, updatePhoneNumber: true },
    member.cookie,
  );
  expect(result.status).toBe(200);
}

const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000');

describe('adding a number with an SMS code', () => {
  it('sends a 6-digit code valid 10 minutes to the E.164 number, and verifying it puts the number on the member', async () => {
    const member = await signUp();
    const to = freshNumber();
    const sent = await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    expect(sent).toMatchObject({ status: 200, json: { message: 'code sent' } });
    const sms = lastSmsTo(to)!;
    expect(sms).toMatchObject({ channel: 'sms', template: 'phone-code', memberId: member.id, vars: { minutes: '10' } });
    expect(sms.code).toMatch(/^\d{6}$/);
    expect(await phoneOf(member.id)).toEqual({ phoneNumber: null, verified: false });

    const verified = await call(
      '/phone-number/verify',
      { phoneNumber: to, code: sms.code, updatePhoneNumber: true },
      member.cookie,
    );
    expect(verified.status).toBe(200);
    expect(await phoneOf(member.id)).toEqual({ phoneNumber: to, verified: true });
    // The code is spent.
    const again = await call(
      '/phone-number/verify',
      { phoneNumber: to, code: sms.code, updatePhoneNumber: true },
      member.cookie,
    );
    expect(again).toMatchObject({ status: 400, json: { code: 'OTP_NOT_FOUND' } });
  });

  it('takes only the stored form: a number as typed, a landline or gibberish is INVALID_PHONE_NUMBER', async () => {
    const member = await signUp();
    for (const phoneNumber of ['09012345678', '090-1234-5678', '+81312345678', '+815012345678', 'hello', '']) {
      const result = await call('/phone-number/send-otp', { phoneNumber }, member.cookie);
      expect(result, phoneNumber).toMatchObject({ status: 400, json: { code: 'INVALID_PHONE_NUMBER' } });
    }
  });

  it('a wrong code counts down the tries left; the sixth try fails even with the right code', async () => {
    const member = await signUp();
    const to = freshNumber();
    await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    const { code } = lastSmsTo(to)!;
    const left: unknown[] = [];
    for (let attempt = 1; attempt <= PHONE_CODE.allowedAttempts; attempt++) {
      const result = await call(
        '/phone-number/verify',
        { phoneNumber: to, code: wrongCodeFor(code), updatePhoneNumber: true },
        member.cookie,
      );
      expect(result.status).toBe(400);
      expect(result.json!.code).toBe('INVALID_OTP');
      left.push(result.json!.attemptsLeft);
    }
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const sixth = await call('/phone-number/verify', { phoneNumber: to, code, updatePhoneNumber: true }, member.cookie);
    expect(sixth).toMatchObject({ status: 403, json: { code: 'TOO_MANY_ATTEMPTS' } });
    expect(await phoneOf(member.id)).toEqual({ phoneNumber: null, verified: false });
  });

  it('an expired code is refused as OTP_EXPIRED (its expiry moved into the past in the database)', async () => {
    const member = await signUp();
    const to = freshNumber();
    await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    const { code } = lastSmsTo(to)!;
    const [row] = await handle.db
      .select({ expiresAt: verifications.expiresAt, createdAt: verifications.createdAt })
      .from(verifications)
      .where(eq(verifications.identifier, `phone-number-otp-${to}`));
    // The plugin was configured for 10 minutes.
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThanOrEqual(599_000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(601_000);
    await handle.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `phone-number-otp-${to}`));
    const result = await call(
      '/phone-number/verify',
      { phoneNumber: to, code, updatePhoneNumber: true },
      member.cookie,
    );
    expect(result).toMatchObject({ status: 400, json: { code: 'OTP_EXPIRED' } });
    expect(await phoneOf(member.id)).toEqual({ phoneNumber: null, verified: false });
  });

  it('a resend within 60 s is refused with the seconds left and keeps the first code; after 60 s a new code goes out', async () => {
    const member = await signUp();
    const to = freshNumber();
    expect((await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie)).status).toBe(200);
    const first = lastSmsTo(to)!;
    clock += 45_000;
    const early = await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    expect(early).toMatchObject({ status: 429, json: { code: 'PHONE_CODE_COOLDOWN', retryAfterSeconds: 15 } });
    expect(messenger.sent.filter((message) => message.channel === 'sms' && message.to === to)).toHaveLength(1);
    clock += 15_000;
    const later = await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    expect(later.status).toBe(200);
    const second = lastSmsTo(to)!;
    expect(second).not.toBe(first);
    const verified = await call(
      '/phone-number/verify',
      { phoneNumber: to, code: second.code, updatePhoneNumber: true },
      member.cookie,
    );
    expect(verified.status).toBe(200);
  });

  it('counts the cooldown per number, whoever asks (signed in or not)', async () => {
    const member = await signUp();
    const to = freshNumber();
    expect((await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie)).status).toBe(200);
    const stranger = await call('/phone-number/send-otp', { phoneNumber: to });
    expect(stranger).toMatchObject({ status: 429, json: { code: 'PHONE_CODE_COOLDOWN' } });
    // Another number is not held back.
    expect((await call('/phone-number/send-otp', { phoneNumber: freshNumber() }, member.cookie)).status).toBe(200);
  });
});

describe('one member per number', () => {
  it("B cannot take A's verified number, even holding a code sent to it; A keeps it", async () => {
    const a = await signUp();
    const b = await signUp();
    const to = freshNumber();
    await verifyNumber(a, to);
    clock += 61_000;
    expect((await call('/phone-number/send-otp', { phoneNumber: to }, b.cookie)).status).toBe(200);
    const taken = await call(
      '/phone-number/verify',
      { phoneNumber: to, code: lastSmsTo(to)!.code, updatePhoneNumber: true },
      b.cookie,
    );
    expect(taken).toMatchObject({ status: 400, json: { code: 'PHONE_NUMBER_EXIST' } });
    expect(JSON.stringify(taken.json)).not.toContain(a.id);
    expect(await phoneOf(a.id)).toEqual({ phoneNumber: to, verified: true });
    expect(await phoneOf(b.id)).toEqual({ phoneNumber: null, verified: false });
  });

  it('the database refuses a second member with the same number, whatever writes it', async () => {
    const a = await signUp();
    const b = await signUp();
    const to = freshNumber();
    await handle.db.update(users).set({ phoneNumber: to, phoneNumberVerified: true }).where(eq(users.id, a.id));
    await expect(
      handle.db.update(users).set({ phoneNumber: to, phoneNumberVerified: true }).where(eq(users.id, b.id)),
    ).rejects.toThrow();
  });
});

describe('signing in with a phone number', () => {
  it('a verified number gets a code and the code signs its member in', async () => {
    const member = await signUp();
    const to = freshNumber();
    await verifyNumber(member, to);
    clock += 61_000;
    const sent = await call('/phone-number/send-otp', { phoneNumber: to });
    expect(sent).toMatchObject({ status: 200, json: { message: 'code sent' } });
    const sms = lastSmsTo(to)!;
    expect(sms.memberId).toBe(member.id);
    const signedIn = await call('/phone-number/verify', { phoneNumber: to, code: sms.code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookie).toBeDefined();
    const session = await auth.api.getSession({ headers: new Headers({ cookie: signedIn.cookie! }) });
    expect(session?.user.id).toBe(member.id);
  });

  it('an unknown number answers exactly as a known one, gets no SMS, and its tries count down alike', async () => {
    const known = await signUp();
    const knownNumber = freshNumber();
    await verifyNumber(known, knownNumber);
    clock += 61_000;
    const unknownNumber = freshNumber();
    const sentBefore = messenger.sent.length;

    const toKnown = await call('/phone-number/send-otp', { phoneNumber: knownNumber });
    const toUnknown = await call('/phone-number/send-otp', { phoneNumber: unknownNumber });
    expect(toUnknown.status).toBe(toKnown.status);
    expect(toUnknown.json).toEqual(toKnown.json);
    expect(messenger.sent.slice(sentBefore).map((message) => message.to)).toEqual([knownNumber]);

    const knownCode = lastSmsTo(knownNumber)!.code;
    for (let attempt = 0; attempt < 2; attempt++) {
      const wrongKnown = await call('/phone-number/verify', {
        phoneNumber: knownNumber,
        code: wrongCodeFor(knownCode),
      });
      const wrongUnknown = await call('/phone-number/verify', {
        phoneNumber: unknownNumber,
        code: wrongCodeFor(knownCode),
      });
      expect(wrongUnknown.status).toBe(wrongKnown.status);
      expect(wrongUnknown.json).toEqual(wrongKnown.json);
    }
    // No code typed can ever open it: what is stored is not digits.
    const [stored] = await handle.db
      .select({ value: verifications.value })
      .from(verifications)
      .where(eq(verifications.identifier, `phone-number-otp-${unknownNumber}`));
    expect(stored!.value).toMatch(/^void:2$/);
    // And no account was created from the number.
    expect(await handle.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, unknownNumber))).toEqual(
      [],
    );
  });

  it('the right code for a number no account has verified says so (to the phone holder) instead of failing with 500', async () => {
    const member = await signUp();
    const to = freshNumber();
    // Signed in, so the code really goes out (adding a number), then used on the sign-in path.
    await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    const result = await call('/phone-number/verify', { phoneNumber: to, code: lastSmsTo(to)!.code });
    expect(result).toMatchObject({ status: 400, json: { code: 'PHONE_NUMBER_NOT_EXIST' } });
    expect(await handle.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, to))).toEqual([]);
  });

  it('phone+password sign-in and password reset by SMS are not offered', async () => {
    for (const [path, body] of [
      ['/sign-in/phone-number', { phoneNumber: '+819011112222', password: 'password-1234' }],
      ['/phone-number/request-password-reset', { phoneNumber: '+819011112222' }],
      ['/phone-number/reset-password', { phoneNumber: '+819011112222', otp: '123456', newPassword: 'x'.repeat(12) }],
    ] as const) {
      expect((await call(path, body)).status, path).toBe(404);
    }
  });
});

describe('a member acts only on their own number', () => {
  it("verify with updatePhoneNumber changes the session's member, whatever the body names", async () => {
    const a = await signUp();
    const b = await signUp();
    const bNumber = freshNumber();
    await verifyNumber(b, bNumber);
    const aNumber = freshNumber();
    await call('/phone-number/send-otp', { phoneNumber: aNumber }, a.cookie);
    const result = await call(
      '/phone-number/verify',
      { phoneNumber: aNumber, code: lastSmsTo(aNumber)!.code, updatePhoneNumber: true, userId: b.id, id: b.id },
      a.cookie,
    );
    expect(result.status).toBe(200);
    expect(await phoneOf(a.id)).toEqual({ phoneNumber: aNumber, verified: true });
    expect(await phoneOf(b.id)).toEqual({ phoneNumber: bNumber, verified: true });
  });

  it('without a session, updatePhoneNumber changes nobody', async () => {
    const member = await signUp();
    const to = freshNumber();
    await call('/phone-number/send-otp', { phoneNumber: to }, member.cookie);
    const result = await call('/phone-number/verify', {
      phoneNumber: to,
      code: lastSmsTo(to)!.code,
      updatePhoneNumber: true,
    });
    expect(result.status).toBe(401);
    expect(await phoneOf(member.id)).toEqual({ phoneNumber: null, verified: false });
  });

  it('a number cannot be written without a code; removing one clears only the caller’s', async () => {
    const a = await signUp();
    const b = await signUp();
    const aNumber = freshNumber();
    const bNumber = freshNumber();
    await verifyNumber(a, aNumber);
    await verifyNumber(b, bNumber);
    const written = await call('/update-user', { phoneNumber: freshNumber() }, a.cookie);
    expect(written).toMatchObject({ status: 400, json: { code: 'PHONE_NUMBER_CANNOT_BE_UPDATED' } });
    const removed = await call('/update-user', { phoneNumber: null, userId: b.id }, a.cookie);
    expect(removed.status).toBe(200);
    expect(await phoneOf(a.id)).toEqual({ phoneNumber: null, verified: false });
    expect(await phoneOf(b.id)).toEqual({ phoneNumber: bNumber, verified: true });
  });
});
