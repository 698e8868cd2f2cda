// The second factor through better-auth's own HTTP handler (as the pages call it): setting TOTP up,
// the code step after the password, wrong codes, a backup code used once, a trusted device, the staff
// rule, and the Japanese words of every code the plugin answers.
import { createEmailVerificationToken } from 'better-auth/api';
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOTP } from '@better-auth/utils/otp';
import { base32 } from '@better-auth/utils/base32';
import { TWO_FACTOR_ERROR_CODES } from 'better-auth/plugins';
import { useTestDatabase } from '#tests/use-test-database';
import { identityTestServices, TEST_ORIGIN as ORIGIN } from '#tests/identity';
import type { ShopAuth } from './auth.server';
import { twoFactors, users } from './schema';
import { authErrorMessage, AUTH_ERROR_MESSAGES } from './messages';
import {
  manualEntryKey,
  normaliseBackupCode,
  normaliseOtp,
  pendingTotpUri,
  remainingBackupCodes,
  secondFactorOf,
  staffAccessOfMember,
} from './two-factor.server';
import { staffAccessOf } from './operator';

const PASSWORD = 'password-1234';
const handle = useTestDatabase('two_factor', { poolSize: 4 });
let auth: ShopAuth;

beforeAll(() => {
  // Its own secret: the confirmation token below is minted with it.
  auth = identityTestServices(handle, { AUTH_SECRET, SITE_NAME: 'テストショップ' }).auth;
});

// better-auth limits /two-factor/* to 3 requests per 10 seconds per address: each call here comes
// from its own address unless a test is about that limit.
let address = 0;
const nextAddress = () => `10.20.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

const pairsOf = (setCookies: string[]) => setCookies.map((line) => line.split(';')[0]!);
/** A cookie jar that follows Set-Cookie (Max-Age=0 removes). */
class Jar {
  private cookies = new Map<string, string>();
  take(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const eqAt = pair!.indexOf('=');
      const name = pair!.slice(0, eqAt);
      if (/max-age=0/i.test(line) || pair!.slice(eqAt + 1) === '') this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eqAt + 1));
    }
  }
  header() {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
  has(fragment: string) {
    return [...this.cookies.keys()].some((name) => name.includes(fragment));
  }
  forget(fragment: string) {
    for (const name of [...this.cookies.keys()]) if (name.includes(fragment)) this.cookies.delete(name);
  }
}

async function post(path: string, body: unknown, jar?: Jar, ip = nextAddress()) {
  const response = await auth.handler(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: ORIGIN,
        'x-shop-client-ip': ip,
        ...(jar ? { cookie: jar.header() } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
  jar?.take(response.headers.getSetCookie());
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  return { status: response.status, json, setCookies: response.headers.getSetCookie() };
}

const AUTH_SECRET = 'two-factor-test-secret-two-factor-test-01';
let sequence = 0;
async function signUp() {
  const jar = new Jar();
  const email = `tf-${Date.now().toString(36)}-${++sequence}@example.jp`;
  const response = await post('/sign-up/email', { email, password: PASSWORD, name: `二段階${sequence}` }, jar);
  expect(response.status).toBe(200);
  // The confirmation mail's link (sign-up starts no session until the address is confirmed).
  const token = await createEmailVerificationToken(AUTH_SECRET, email, undefined, 3600);
  const verified = await auth.handler(new Request(`${ORIGIN}/api/auth/verify-email?token=${token}`));
  expect(verified.status).toBe(200);
  jar.take(verified.headers.getSetCookie());
  return { id: (response.json!.user as { id: string }).id, email, jar };
}

/** The current code of an otpauth:// URI, computed the way an authenticator app does (RFC 6238). */
async function codeOf(totpUri: string, offsetPeriods = 0) {
  const secret = base32.decode(new URL(totpUri).searchParams.get('secret')!);
  if (offsetPeriods === 0) return createOTP(secret, { digits: 6, period: 30 }).totp();
  const counter = Math.floor(Date.now() / 30_000) + offsetPeriods;
  return createOTP(secret, { digits: 6, period: 30 }).hotp(counter);
}

/** A code that is not the current one (nor its neighbours, which verify accepts). */
async function wrongCodeOf(totpUri: string) {
  const near = new Set([await codeOf(totpUri, -1), await codeOf(totpUri), await codeOf(totpUri, 1)]);
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/** A member with TOTP on: answers the URI (the member's authenticator) and the backup codes. */
async function memberWithTotp() {
  const member = await signUp();
  const enabled = await post('/two-factor/enable', { password: PASSWORD, issuer: 'テストショップ' }, member.jar);
  expect(enabled.status).toBe(200);
  const totpUri = enabled.json!.totpURI as string;
  const confirmed = await post('/two-factor/verify-totp', { code: await codeOf(totpUri) }, member.jar);
  expect(confirmed.status).toBe(200);
  return { ...member, totpUri, backupCodes: enabled.json!.backupCodes as string[] };
}

async function signIn(member: { email: string; jar: Jar }) {
  member.jar.forget('session_token');
  return post('/sign-in/email', { email: member.email, password: PASSWORD }, member.jar);
}

describe('setting TOTP up', () => {
  it('asks for the password, shows a pending setup until the first code, then turns it on', async () => {
    const member = await signUp();
    const wrongPassword = await post('/two-factor/enable', { password: 'not-the-password' }, member.jar);
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.json!.code).toBe('INVALID_PASSWORD');

    const enabled = await post('/two-factor/enable', { password: PASSWORD, issuer: 'テストショップ' }, member.jar);
    expect(enabled.status).toBe(200);
    const totpUri = enabled.json!.totpURI as string;
    expect(totpUri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(totpUri).searchParams.get('issuer')).toBe('テストショップ');
    expect(new URL(totpUri).searchParams.get('digits')).toBe('6');
    const codes = enabled.json!.backupCodes as string[];
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);

    expect(await secondFactorOf(handle.db, member.id)).toEqual({ enabled: false, pendingSetup: true });
    // The page can show the same QR code again without the password (and groups the key in fours).
    expect(
      await pendingTotpUri(auth, handle.db, { memberId: member.id, email: member.email, issuer: 'テストショップ' }),
    ).toBe(totpUri);
    expect(manualEntryKey(totpUri)).toMatch(/^([A-Z2-7=]{1,4} )*[A-Z2-7=]{1,4}$/);
    // Secrets and backup codes are stored encrypted, never as given.
    const [row] = await handle.db.select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    expect(row!.secret).not.toContain(new URL(totpUri).searchParams.get('secret')!);
    expect(row!.backupCodes).not.toContain(codes[0]!);

    const wrong = await post('/two-factor/verify-totp', { code: await wrongCodeOf(totpUri) }, member.jar);
    expect(wrong.status).toBe(401);
    expect(wrong.json!.code).toBe('INVALID_CODE');
    expect((await secondFactorOf(handle.db, member.id)).enabled).toBe(false);

    const right = await post('/two-factor/verify-totp', { code: await codeOf(totpUri) }, member.jar);
    expect(right.status).toBe(200);
    expect(await secondFactorOf(handle.db, member.id)).toEqual({ enabled: true, pendingSetup: false });
    expect(await pendingTotpUri(auth, handle.db, { memberId: member.id, email: member.email, issuer: 'x' })).toBeNull();
    expect((await remainingBackupCodes(auth, member.id)).sort()).toEqual([...codes].sort());
    // A second setup is refused while one is on.
    const again = await post('/two-factor/enable', { password: PASSWORD }, member.jar);
    expect(again.json!.code).toBe('TOTP_ALREADY_ENABLED');
  });
});

describe('signing in with the second factor', () => {
  it('the password alone gives no session: a short two_factor cookie and twoFactorRedirect', async () => {
    const member = await memberWithTotp();
    const first = await signIn(member);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(member.jar.has('session_token')).toBe(false);
    const twoFactorCookie = first.setCookies.find((line) => line.includes('.two_factor='));
    expect(twoFactorCookie).toMatch(/Max-Age=600/i);
    expect(twoFactorCookie).toMatch(/HttpOnly/i);
    // No session until the code: a session-only endpoint refuses.
    const session = await auth.api.getSession({ headers: new Headers({ cookie: member.jar.header() }) });
    expect(session).toBeNull();

    const wrong = await post('/two-factor/verify-totp', { code: await wrongCodeOf(member.totpUri) }, member.jar);
    expect(wrong.status).toBe(401);
    expect(authErrorMessage(wrong.json!.code as string, wrong.status)).toBe(AUTH_ERROR_MESSAGES.INVALID_CODE);
    expect(member.jar.has('session_token')).toBe(false);

    const right = await post('/two-factor/verify-totp', { code: await codeOf(member.totpUri) }, member.jar);
    expect(right.status).toBe(200);
    expect(member.jar.has('session_token')).toBe(true);
    expect(member.jar.has('two_factor')).toBe(false);
    const signedIn = await auth.api.getSession({ headers: new Headers({ cookie: member.jar.header() }) });
    expect(signedIn?.user.id).toBe(member.id);
  });

  it('refuses the code step without the two_factor cookie, and after five wrong codes', async () => {
    const member = await memberWithTotp();
    const noCookie = await post('/two-factor/verify-totp', { code: await codeOf(member.totpUri) }, new Jar());
    expect(noCookie.status).toBe(401);
    expect(noCookie.json!.code).toBe('INVALID_TWO_FACTOR_COOKIE');

    await signIn(member);
    const wrong = await wrongCodeOf(member.totpUri);
    for (let i = 0; i < 5; i++)
      expect((await post('/two-factor/verify-totp', { code: wrong }, member.jar)).status).toBe(401);
    const sixth = await post('/two-factor/verify-totp', { code: await codeOf(member.totpUri) }, member.jar);
    expect(sixth.json!.code).toBe('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE');
    expect(member.jar.has('session_token')).toBe(false);
  });

  it('a backup code signs in once; the same code is refused the next time', async () => {
    const member = await memberWithTotp();
    const code = member.backupCodes[0]!;
    await signIn(member);
    const used = await post('/two-factor/verify-backup-code', { code }, member.jar);
    expect(used.status).toBe(200);
    expect(member.jar.has('session_token')).toBe(true);
    expect(await remainingBackupCodes(auth, member.id)).toHaveLength(9);

    await signIn(member);
    const reused = await post('/two-factor/verify-backup-code', { code }, member.jar);
    expect(reused.status).toBe(401);
    expect(reused.json!.code).toBe('INVALID_BACKUP_CODE');
    expect(authErrorMessage('INVALID_BACKUP_CODE')).toContain('使用済み');
    expect(member.jar.has('session_token')).toBe(false);
    // Typed loosely (spaces, full-width) it still reads as the code.
    const other = member.backupCodes[1]!;
    expect(normaliseBackupCode(` ${other.replace('-', ' ')} `)).toBe(other);
  });

  it('trustDevice: the next sign-in on this device skips the code; other devices still need it', async () => {
    const member = await memberWithTotp();
    await signIn(member);
    const trusted = await post(
      '/two-factor/verify-totp',
      { code: await codeOf(member.totpUri), trustDevice: true },
      member.jar,
    );
    expect(trusted.status).toBe(200);
    const trustCookie = trusted.setCookies.find((line) => line.includes('.trust_device='));
    expect(trustCookie).toMatch(/Max-Age=2592000/i);

    const again = await signIn(member);
    expect(again.json!.twoFactorRedirect).toBeUndefined();
    expect(member.jar.has('session_token')).toBe(true);

    const elsewhere = new Jar();
    const otherDevice = await post('/sign-in/email', { email: member.email, password: PASSWORD }, elsewhere);
    expect(otherDevice.json!.twoFactorRedirect).toBe(true);
    expect(elsewhere.has('session_token')).toBe(false);
  });

  it('disabling needs the password (the page also checks a current code first)', async () => {
    const member = await memberWithTotp();
    const wrongPassword = await post('/two-factor/disable', { password: 'nope-nope-nope' }, member.jar);
    expect(wrongPassword.json!.code).toBe('INVALID_PASSWORD');
    expect((await secondFactorOf(handle.db, member.id)).enabled).toBe(true);
    const off = await post('/two-factor/disable', { password: PASSWORD }, member.jar);
    expect(off.status).toBe(200);
    expect(await secondFactorOf(handle.db, member.id)).toEqual({ enabled: false, pendingSetup: false });
    const plain = await signIn(member);
    expect(plain.json!.twoFactorRedirect).toBeUndefined();
  });

  it('code checks are rate-limited per address (429 with the Japanese message)', async () => {
    const member = await memberWithTotp();
    await signIn(member);
    const ip = nextAddress();
    const wrong = await wrongCodeOf(member.totpUri);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await post('/two-factor/verify-totp', { code: wrong }, member.jar, ip)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(authErrorMessage(null, 429)).toBe(AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS);
  });
});

describe('the staff rule', () => {
  it('staffAccessOf: staff and admin need TOTP; members are not staff', () => {
    expect(staffAccessOf({ role: 'admin', twoFactorEnabled: false })).toBe('needs-second-factor');
    expect(staffAccessOf({ role: 'staff', twoFactorEnabled: null })).toBe('needs-second-factor');
    expect(staffAccessOf({ role: 'admin', twoFactorEnabled: true })).toBe('ok');
    expect(staffAccessOf({ role: 'user', twoFactorEnabled: true })).toBe('not-staff');
    expect(staffAccessOf({ role: 'admin', twoFactorEnabled: true, deletedAt: new Date() })).toBe('not-staff');
    expect(staffAccessOf(null)).toBe('not-staff');
  });

  it('an admin is refused until TOTP is really set up, then allowed', async () => {
    const member = await signUp();
    await handle.db.update(users).set({ role: 'admin' }).where(eq(users.id, member.id));
    expect(await staffAccessOfMember(handle.db, member.id)).toBe('needs-second-factor');
    const enabled = await post('/two-factor/enable', { password: PASSWORD }, member.jar);
    // A started but unconfirmed setup is not enough.
    expect(await staffAccessOfMember(handle.db, member.id)).toBe('needs-second-factor');
    await post('/two-factor/verify-totp', { code: await codeOf(enabled.json!.totpURI as string) }, member.jar);
    expect(await staffAccessOfMember(handle.db, member.id)).toBe('ok');
  });
});

describe('words', () => {
  it('every code the twoFactor plugin answers has a Japanese message', () => {
    for (const code of Object.keys(TWO_FACTOR_ERROR_CODES)) {
      expect(AUTH_ERROR_MESSAGES[code], code).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
    expect(AUTH_ERROR_MESSAGES['auth/multi-factor-auth-required']).toBeDefined();
    expect(AUTH_ERROR_MESSAGES['auth/missing-multi-factor-info']).toBeDefined();
  });

  it('normaliseOtp reads full-width digits and spaces', () => {
    expect(normaliseOtp(' １２３ ４５６ ')).toBe('123456');
    expect(normaliseOtp('123-456')).toBe('123456');
    expect(pairsOf(['a=1; Path=/'])).toEqual(['a=1']);
  });
});
