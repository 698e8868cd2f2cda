// The member's own settings through the pages' actions with the real better-auth: nickname and
// birthday, the email change (the current password first, then a mail to the current address), and
// the password change (the current one first; other devices signed out). Only ever the member's own.
import { describe, it, expect, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import {
  identityTestServices,
  memberRequest,
  signUpConfirmed,
  TEST_ORIGIN as ORIGIN,
  type IdentityTestServices,
} from '#tests/identity';
import { sessions, users } from '#db/schema';
import type { CapturedMessage } from '#modules/identity/server';
import { emailAction, passwordAction, profileAction, profileLoader } from './account-settings.server';

const PASSWORD = 'password-1234';
const handle = testDatabase('account_settings', { poolSize: 4 });
let services: IdentityTestServices;
let sent: CapturedMessage[];

beforeAll(() => {
  services = identityTestServices(handle);
  sent = services.messenger.sent;
});

let sequence = 0;
const address = () => `10.40.0.${(++sequence % 250) + 1}`;
async function member() {
  const email = `settings-${Date.now().toString(36)}-${++sequence}@example.jp`;
  return signUpConfirmed(services.auth, services.config.AUTH_SECRET, {
    email,
    password: PASSWORD,
    name: `設定${sequence}`,
  });
}

const shopFor = (cookie: string) => memberRequest(services, cookie);

const post = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, 'x-shop-client-ip': address(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

function answerOf(result: unknown): {
  status: number;
  ok?: string;
  fieldErrors: Record<string, string | undefined>;
  formError?: string;
} {
  const { data, init } = result as {
    data: { ok?: string; fieldErrors?: Record<string, string>; formError?: string };
    init?: { status?: number };
  };
  return { status: init?.status ?? 200, ...data, fieldErrors: data.fieldErrors ?? {} };
}

describe('profile', () => {
  it('saves a nickname and a birthday, refuses a date that does not exist, and clears the birthday', async () => {
    const me = await member();
    const shop = await shopFor(me.cookie);
    const saved = answerOf(
      await profileAction(
        shop,
        post('/mypage/settings/profile', me.cookie, { name: 'ひくぞう', year: '2000', month: '2', day: '9' }),
      ),
    );
    expect(saved).toMatchObject({ status: 200, ok: 'プロフィールを保存しました。' });
    const [row] = await handle.db.select().from(users).where(eq(users.id, me.id));
    expect([row!.name, row!.birthday]).toEqual(['ひくぞう', '2000-02-09']);
    const page = await profileLoader(
      shop,
      new Request(`${ORIGIN}/mypage/settings/profile`, { headers: { cookie: me.cookie } }),
    );
    expect(page.birthday).toEqual({ year: '2000', month: '2', day: '9' });

    const bad = answerOf(
      await profileAction(
        shop,
        post('/mypage/settings/profile', me.cookie, { name: 'ひくぞう', year: '2001', month: '2', day: '29' }),
      ),
    );
    expect(bad).toMatchObject({ status: 400, fieldErrors: { birthday: '存在しない日付です。' } });
    const forbidden = answerOf(
      await profileAction(
        shop,
        post('/mypage/settings/profile', me.cookie, { name: '運営スタッフ', year: '', month: '', day: '' }),
      ),
    );
    expect(forbidden.status).toBe(400);
    expect(forbidden.fieldErrors.name).toContain('使用できません');

    await profileAction(
      shop,
      post('/mypage/settings/profile', me.cookie, { name: 'ひくぞう', year: '', month: '', day: '' }),
    );
    expect((await handle.db.select().from(users).where(eq(users.id, me.id)))[0]!.birthday).toBeNull();
  });
});

describe('email change', () => {
  it('needs the current password, then mails the current address for approval', async () => {
    const me = await member();
    const shop = await shopFor(me.cookie);
    const next = `moved-${Date.now().toString(36)}@example.jp`;
    const wrong = answerOf(
      await emailAction(
        shop,
        post('/mypage/settings/email', me.cookie, { newEmail: next, currentPassword: 'wrong-pass-1' }),
      ),
    );
    expect(wrong).toMatchObject({ status: 400, fieldErrors: { currentPassword: 'パスワードが正しくありません。' } });
    expect(sent.filter((m) => m.to === me.email && m.template === 'email-change-confirm')).toEqual([]);

    const same = answerOf(
      await emailAction(
        shop,
        post('/mypage/settings/email', me.cookie, { newEmail: me.email, currentPassword: PASSWORD }),
      ),
    );
    expect(same).toMatchObject({ status: 400, fieldErrors: { newEmail: '現在と同じメールアドレスです。' } });

    const asked = answerOf(
      await emailAction(shop, post('/mypage/settings/email', me.cookie, { newEmail: next, currentPassword: PASSWORD })),
    );
    expect(asked.status).toBe(200);
    expect(asked.ok).toContain(next);
    expect(sent.filter((m) => m.to === me.email && m.template === 'email-change-confirm')).toHaveLength(1);
    // Nothing changes until both addresses have answered.
    expect((await handle.db.select().from(users).where(eq(users.id, me.id)))[0]!.email).toBe(me.email);
  });
});

describe('password change', () => {
  it('needs the current password, applies the policy and signs the other devices out', async () => {
    const me = await member();
    const other = await services.auth.api.signInEmail({
      body: { email: me.email, password: PASSWORD },
      headers: new Headers({ 'x-shop-client-ip': address() }),
    });
    expect(other.token).toBeTruthy();
    const shop = await shopFor(me.cookie);
    const wrong = answerOf(
      await passwordAction(
        shop,
        post('/mypage/settings/password', me.cookie, {
          currentPassword: 'nope-nope-1',
          password: 'next-pass-42',
          confirm: 'next-pass-42',
        }),
      ),
    );
    expect(wrong).toMatchObject({ status: 400, fieldErrors: { currentPassword: 'パスワードが正しくありません。' } });
    const short = answerOf(
      await passwordAction(
        shop,
        post('/mypage/settings/password', me.cookie, {
          currentPassword: PASSWORD,
          password: 'short',
          confirm: 'short',
        }),
      ),
    );
    expect(short.status).toBe(400);
    expect(short.fieldErrors.password).toContain('8文字以上');

    const changed = answerOf(
      await passwordAction(
        shop,
        post('/mypage/settings/password', me.cookie, {
          currentPassword: PASSWORD,
          password: 'next-pass-42',
          confirm: 'next-pass-42',
        }),
      ),
    );
    expect(changed).toMatchObject({ status: 200 });
    const tokens = (await handle.db.select().from(sessions).where(eq(sessions.userId, me.id))).map((s) => s.token);
    expect(tokens).not.toContain(other.token);
    const signIn = (password: string) =>
      services.auth.api
        .signInEmail({ body: { email: me.email, password }, headers: new Headers({ 'x-shop-client-ip': address() }) })
        .then(() => 'ok')
        .catch(() => 'refused');
    expect(await signIn(PASSWORD)).toBe('refused');
    expect(await signIn('next-pass-42')).toBe('ok');
  });
});
