// The mail-driven identity flows through better-auth's own handler: sign-up with a confirmation
// link, no account enumeration (sign-up, reset and email link answer the same for a known and an
// unknown address), password reset with the policy, email-link sign-in, and an email change that the
// old address approves, the new one confirms and the old one can undo.
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { identityTestServices, TEST_ORIGIN as ORIGIN, type IdentityTestServices } from '#tests/identity';
import type { ShopAuth } from './auth.server';
import type { CapturedMessage } from './messenger';
import { sessions, users } from './schema';
import { peekRecoverEmail, recoverEmail, resetCodeIsValid } from './mail-links.server';

const handle = useTestDatabase('identity_mail', { poolSize: 4 });
let messenger: IdentityTestServices['messenger'];
let auth: ShopAuth;
let warnAuth: ShopAuth;

beforeAll(() => {
  const rules = { PASSWORD_REQUIRE_NUMERIC: 'true', NICKNAME_FORBIDDEN_WORDS: '運営,admin' };
  ({ auth, messenger } = identityTestServices(handle, rules));
  // Only its answers are read (not its mails).
  warnAuth = identityTestServices(handle, { ...rules, PASSWORD_POLICY_MODE: 'warn' }).auth;
});

let sequence = 0;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++sequence}@example.jp`;
const headers = (cookie?: string) =>
  new Headers({ 'x-shop-client-ip': `10.1.0.${sequence % 250}`, origin: ORIGIN, ...(cookie ? { cookie } : {}) });

async function call(
  path: string,
  init: { method?: 'GET' | 'POST'; body?: unknown; cookie?: string; query?: Record<string, string> } = {},
  using: ShopAuth = auth,
) {
  const url = new URL(`${ORIGIN}/api/auth${path}`);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const h = headers(init.cookie);
  if (init.body !== undefined) h.set('content-type', 'application/json');
  const response = await using.handler(
    new Request(url, {
      method: init.method ?? 'POST',
      headers: h,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, any>) : null;
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.includes('session_token=') && !pair.endsWith('='));
  return { status: response.status, json, cookie, location: response.headers.get('location') };
}

/** The newest captured mail to an address, with its action link's code. */
function lastMailTo(to: string): CapturedMessage & { code: string | null; mode: string | null } {
  const mail = [...messenger.sent].reverse().find((m) => m.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  const url = mail.vars.url ? new URL(mail.vars.url) : null;
  return { ...mail, code: url?.searchParams.get('oobCode') ?? null, mode: url?.searchParams.get('mode') ?? null };
}
const mailsTo = (to: string) => messenger.sent.filter((m) => m.to === to);

async function signUpVerified(label: string, password = 'password-1234') {
  const email = address(label);
  const signedUp = await call('/sign-up/email', { body: { email, password, name: `${label}さん` } });
  expect(signedUp.status).toBe(200);
  const mail = lastMailTo(email);
  const verified = await call('/verify-email', { method: 'GET', query: { token: mail.code! } });
  expect(verified.status).toBe(200);
  return { email, password, id: (signedUp.json!.user as { id: string }).id, cookie: verified.cookie! };
}

describe('sign-up', () => {
  it('starts no session until the address is confirmed, then the link signs the member in', async () => {
    const email = address('new');
    const signedUp = await call('/sign-up/email', { body: { email, password: 'password-1234', name: '新しい会員' } });
    expect(signedUp.status).toBe(200);
    expect(signedUp.json!.token).toBeNull();
    expect(signedUp.cookie).toBeUndefined();
    const mail = lastMailTo(email);
    expect(mail).toMatchObject({ channel: 'mail', template: 'verify-email', mode: 'verifyEmail' });
    expect(mail.vars.url).toMatch(/^http:\/\/shop\.test\/auth\/action\?mode=verifyEmail&oobCode=/);

    // Signing in before confirming is refused, and a fresh confirmation mail goes out.
    const early = await call('/sign-in/email', { body: { email, password: 'password-1234' } });
    expect([early.status, early.json!.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    expect(mailsTo(email).filter((m) => m.template === 'verify-email').length).toBe(2);

    const verified = await call('/verify-email', { method: 'GET', query: { token: mail.code! } });
    expect(verified.status).toBe(200);
    expect(verified.cookie).toBeDefined();
    const [row] = await handle.db.select().from(users).where(eq(users.email, email));
    expect(row!.emailVerified).toBe(true);
  });

  it('answers a known address exactly like a new one, and mails the owner instead', async () => {
    const known = await signUpVerified('known');
    const fresh = address('fresh');
    const again = await call('/sign-up/email', {
      body: { email: known.email, password: 'other-pass-99', name: 'だれか' },
    });
    const first = await call('/sign-up/email', { body: { email: fresh, password: 'other-pass-99', name: 'だれか' } });
    expect(again.status).toBe(first.status);
    expect(Object.keys(again.json!).sort()).toEqual(Object.keys(first.json!).sort());
    expect(Object.keys(again.json!.user).sort()).toEqual(Object.keys(first.json!.user).sort());
    expect([again.json!.token, again.cookie]).toEqual([null, undefined]);
    expect(lastMailTo(known.email)).toMatchObject({
      template: 'account-exists',
      vars: { signInUrl: `${ORIGIN}/auth/sign_in`, resetUrl: `${ORIGIN}/auth/passwd` },
    });
    // The existing account is untouched: its own password still signs in.
    expect((await call('/sign-in/email', { body: { email: known.email, password: known.password } })).status).toBe(200);
  });

  it('refuses a password against the enforced policy and a nickname with a forbidden word', async () => {
    const weak = await call('/sign-up/email', {
      body: { email: address('weak'), password: 'passwordonly', name: 'ok' },
    });
    expect([weak.status, weak.json!.code]).toEqual([400, 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS']);
    const forbidden = await call('/sign-up/email', {
      body: { email: address('nick'), password: 'password-1234', name: '公式ＡＤＭＩＮです' },
    });
    expect([forbidden.status, forbidden.json!.code]).toEqual([400, 'INVALID_NICKNAME']);
  });

  it('in mode warn, accepts what the shop rules would only warn about, never below the library floor', async () => {
    const weak = await call(
      '/sign-up/email',
      { body: { email: address('warned'), password: 'passwordonly', name: 'ok' } },
      warnAuth,
    );
    expect(weak.status).toBe(200);
    const tiny = await call(
      '/sign-up/email',
      { body: { email: address('tiny'), password: 'ab1', name: 'ok' } },
      warnAuth,
    );
    expect(tiny.status).toBe(400);
  });
});

describe('password reset', () => {
  it('answers the same for a known and an unknown address; only the owner gets a link', async () => {
    const member = await signUpVerified('reset');
    const stranger = address('nobody');
    const known = await call('/request-password-reset', { body: { email: member.email } });
    const unknown = await call('/request-password-reset', { body: { email: stranger } });
    expect([known.status, known.json]).toEqual([unknown.status, unknown.json]);
    expect(mailsTo(stranger)).toEqual([]);
    const mail = lastMailTo(member.email);
    expect(mail).toMatchObject({ template: 'password-reset', mode: 'resetPassword' });

    const context = await auth.$context;
    expect(await resetCodeIsValid(context, mail.code!)).toBe(true);
    expect(await resetCodeIsValid(context, 'not-a-real-code-0000')).toBe(false);

    // The policy holds here too; the code survives a refused attempt.
    const weak = await call('/reset-password', { body: { token: mail.code, newPassword: 'nodigitshere' } });
    expect(weak.json!.code).toBe('PASSWORD_DOES_NOT_MEET_REQUIREMENTS');
    expect(await resetCodeIsValid(context, mail.code!)).toBe(true);

    const done = await call('/reset-password', { body: { token: mail.code, newPassword: 'brand-new-pass-42' } });
    expect(done.status).toBe(200);
    // Every session ended; the code works once; the old password no longer signs in.
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    const reused = await call('/reset-password', { body: { token: mail.code, newPassword: 'another-pass-43' } });
    expect(reused.json!.code).toBe('INVALID_TOKEN');
    expect((await call('/sign-in/email', { body: { email: member.email, password: member.password } })).status).toBe(
      401,
    );
    expect(
      (await call('/sign-in/email', { body: { email: member.email, password: 'brand-new-pass-42' } })).status,
    ).toBe(200);
  });

  it('refuses an expired reset code', async () => {
    const member = await signUpVerified('expired');
    await call('/request-password-reset', { body: { email: member.email } });
    const { code } = lastMailTo(member.email);
    const context = await auth.$context;
    expect(await resetCodeIsValid(context, code!, new Date(Date.now() + 61 * 60 * 1000))).toBe(false);
  });
});

describe('email-link sign-in', () => {
  it('mails a one-time link to a member and nothing to an unknown address, with the same answer', async () => {
    const member = await signUpVerified('link');
    const stranger = address('stranger');
    const known = await call('/sign-in/magic-link', { body: { email: member.email } });
    const unknown = await call('/sign-in/magic-link', { body: { email: stranger } });
    expect([known.status, known.json]).toEqual([unknown.status, unknown.json]);
    expect(mailsTo(stranger)).toEqual([]);
    const mail = lastMailTo(member.email);
    expect(mail).toMatchObject({ template: 'magic-link', mode: 'signIn' });

    const signedIn = await call('/magic-link/verify', { method: 'GET', query: { token: mail.code! } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookie).toBeDefined();
    const again = await call('/magic-link/verify', { method: 'GET', query: { token: mail.code! } });
    expect(again.cookie).toBeUndefined();
    expect(new URL(again.location!, ORIGIN).searchParams.get('error')).toBe('INVALID_TOKEN');
  });
});

describe('email change', () => {
  it('needs the old address to approve and the new one to confirm; the old one is told and can undo it', async () => {
    const member = await signUpVerified('move');
    const next = address('moved');
    const asked = await call('/change-email', { body: { newEmail: next }, cookie: member.cookie });
    expect(asked.status).toBe(200);
    const approval = lastMailTo(member.email);
    expect(approval).toMatchObject({
      template: 'email-change-confirm',
      mode: 'approveEmailChange',
      vars: { newEmail: next },
    });

    const approved = await call('/verify-email', { method: 'GET', query: { token: approval.code! } });
    expect(approved.status).toBe(200);
    const confirm = lastMailTo(next);
    expect(confirm).toMatchObject({ template: 'email-change-verify', mode: 'verifyAndChangeEmail' });
    // Not changed until the new address confirms.
    expect((await handle.db.select().from(users).where(eq(users.id, member.id)))[0]!.email).toBe(member.email);

    const confirmed = await call('/verify-email', { method: 'GET', query: { token: confirm.code! } });
    expect(confirmed.status).toBe(200);
    expect((await handle.db.select().from(users).where(eq(users.id, member.id)))[0]!.email).toBe(next);

    const notice = lastMailTo(member.email);
    expect(notice).toMatchObject({ template: 'email-change-notice', mode: 'recoverEmail', vars: { newEmail: next } });
    const context = await auth.$context;
    expect(await peekRecoverEmail(context, notice.code!)).toMatchObject({
      ok: true,
      email: member.email,
      newEmail: next,
    });
    expect(await recoverEmail(context, notice.code!)).toEqual({ ok: true, email: member.email });
    const [row] = await handle.db.select().from(users).where(eq(users.id, member.id));
    expect([row!.email, row!.emailVerified]).toEqual([member.email, true]);
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    // Once only.
    expect(await recoverEmail(context, notice.code!)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('does not let member B approve or confirm A’s change while signed in as B', async () => {
    const a = await signUpVerified('owner');
    const b = await signUpVerified('intruder');
    await call('/change-email', { body: { newEmail: address('elsewhere') }, cookie: a.cookie });
    const approval = lastMailTo(a.email);
    const asB = await call('/verify-email', { method: 'GET', query: { token: approval.code! }, cookie: b.cookie });
    expect(asB.status).toBe(401);
    expect(asB.json!.code).toBe('INVALID_USER');
  });
});

describe('birthday', () => {
  it('accepts a real date and refuses one that does not exist', async () => {
    const member = await signUpVerified('birthday');
    const bad = await call('/update-user', { body: { birthday: '2001-02-29' }, cookie: member.cookie });
    expect([bad.status, bad.json!.code]).toEqual([400, 'INVALID_BIRTHDAY']);
    const good = await call('/update-user', { body: { birthday: '2000-02-29' }, cookie: member.cookie });
    expect(good.status).toBe(200);
    expect((await handle.db.select().from(users).where(eq(users.id, member.id)))[0]!.birthday).toBe('2000-02-29');
  });
});
