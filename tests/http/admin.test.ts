// The admin area over HTTP, as the built shop answers it: who may open /admin (visitors to sign-in,
// members meet not-found, staff without the second factor go to the security page, a missing
// permission is 403), noindex, better-auth's own admin endpoints closed, and staff joining by a
// mailed invitation, each step in the audit log.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { get, postForm, cookieFrom, uniqueEmail, signUpByForm, shopUrl } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

async function signedUp(label: string) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: 'テスト会員', email, password: 'password-1234', agreeToTerms: 'on' });
  expect(page.status).toBe(302);
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, cookie, id: row!.id };
}

const setAccount = (id: string, values: { role?: string; twoFactorEnabled?: boolean }) =>
  handle!.db.update(users).set(values).where(eq(users.id, id));

async function outboxLink(email: string, path: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${shopUrl()}/dev/outbox.json?to=${encodeURIComponent(email)}`);
    const { messages } = (await response.json()) as { messages: { links?: string[] }[] };
    const link = messages.flatMap((m) => m.links ?? []).find((l) => l.includes(path));
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${path} link mailed to ${email}`);
}

describe('who opens /admin', () => {
  it('sends visitors to sign-in and back, and closes better-auth’s admin endpoints', async () => {
    const visitor = await get('/admin/audit');
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe('/auth/sign_in?redirect=%2Fadmin%2Faudit');
    const plugin = await fetch(`${shopUrl()}/api/auth/admin/list-users`);
    expect(plugin.status).toBe(403);
    expect(await plugin.json()).toMatchObject({ error: { code: 'USE_ADMIN_AREA' } });
  });

  describe.skipIf(!databaseUrl)(
    `by role${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set roles beside the shop)'}`,
    () => {
      it('shows members the not-found page, sends staff without TOTP to set it up, and answers 403 without the permission', async () => {
        const member = await signedUp('admin-member');
        const asMember = await get('/admin', { cookie: member.cookie });
        expect(asMember.status).toBe(404);
        expect(asMember.body).not.toContain('管理ホーム');

        await setAccount(member.id, { role: 'staff' });
        const noTotp = await get('/admin', { cookie: member.cookie });
        expect(noTotp.status).toBe(302);
        expect(noTotp.location).toBe('/mypage/settings/security?required=staff');

        await setAccount(member.id, { twoFactorEnabled: true });
        const home = await get('/admin', { cookie: member.cookie });
        expect(home.status).toBe(200);
        expect(home.headers.get('x-robots-tag')).toBe('noindex, nofollow');
        expect(home.body).toContain('管理ホーム');
        for (const path of ['/admin/audit', '/admin/staff']) {
          const refused = await get(path, { cookie: member.cookie });
          expect(refused.status, path).toBe(403);
          expect(refused.body).toContain('権限がありません');
        }
        // An action is checked like its page: a staff member without staff:write cannot invite.
        const post = await postForm(
          '/admin/staff',
          { intent: 'invite', email: 'x@example.jp', role: 'admin' },
          {
            cookie: member.cookie,
          },
        );
        expect(post.status).toBe(403);
      });

      it('lets an admin invite by mail; the invitee accepts signed in, is asked for TOTP, and both steps are audited', async () => {
        const admin = await signedUp('admin-boss');
        await setAccount(admin.id, { role: 'admin', twoFactorEnabled: true });
        const inviteeEmail = uniqueEmail('admin-invitee');
        const invited = await postForm(
          '/admin/staff',
          { intent: 'invite', email: inviteeEmail.toUpperCase(), role: 'staff', permission: 'shipping:write' },
          { cookie: admin.cookie },
        );
        expect(invited.status).toBe(200);
        expect(invited.body).toContain('招待メールを送りました');
        const link = new URL(await outboxLink(inviteeEmail, '/admin/join?token='));

        // Another member cannot use it; bad input is a clear refusal, not a 500.
        const stranger = await signedUp('admin-stranger');
        const wrong = await postForm(
          link.pathname,
          { token: link.searchParams.get('token')! },
          { cookie: stranger.cookie },
        );
        expect(wrong.status).toBe(403);
        expect(wrong.body).toContain('別のメールアドレス');
        const junk = await postForm(link.pathname, { token: '<script>' }, { cookie: stranger.cookie });
        expect(junk.status).toBe(410);

        const page = await signUpByForm({
          name: 'しょうたい',
          email: inviteeEmail,
          password: 'password-1234',
          agreeToTerms: 'on',
        });
        const invitee = cookieFrom(page.headers);
        const shown = await get(link.pathname + link.search, { cookie: invitee });
        expect(shown.status).toBe(200);
        expect(shown.body).toContain('運営スタッフへの招待');
        const accepted = await postForm(link.pathname, { token: link.searchParams.get('token')! }, { cookie: invitee });
        expect(accepted.status).toBe(302);
        expect(accepted.location).toBe('/admin');
        expect((await get('/admin', { cookie: invitee })).location).toBe('/mypage/settings/security?required=staff');

        const log = await get('/admin/audit?action=staff.', { cookie: admin.cookie });
        expect(log.status).toBe(200);
        expect(log.body).toContain('staff.invite');
        expect(log.body).toContain('staff.join');
        expect(log.body).toContain(inviteeEmail);
        // The list shows the new staff member without the second factor.
        const staffPage = await get('/admin/staff', { cookie: admin.cookie });
        expect(staffPage.body).toContain(inviteeEmail);
        expect(staffPage.body).toContain('二段階認証 未設定');
      });

      it('links staff whose access is ok to /admin from the shop’s header, never members or visitors', async () => {
        const link = 'data-testid="header-admin-link"';
        for (const path of ['/', '/gacha/pokemon', '/contact'])
          expect((await get(path)).body, path).not.toContain(link);
        const person = await signedUp('admin-header');
        for (const path of ['/', '/mypage']) {
          const page = await get(path, { cookie: person.cookie });
          expect(page.status, path).toBe(200);
          expect(page.body, path).not.toContain(link);
        }
        // A staff role without the second factor: no link yet, and the security page does not offer the way in.
        await setAccount(person.id, { role: 'staff' });
        expect((await get('/', { cookie: person.cookie })).body).not.toContain(link);
        const settingUp = await get('/mypage/settings/security?required=staff', { cookie: person.cookie });
        expect(settingUp.body).toContain('二段階認証を設定する');
        expect(settingUp.body).not.toContain('管理画面へ');
        // With it on (as the set-up leaves it): the header's link on every page, and the set-up ends with 「管理画面へ」.
        await setAccount(person.id, { twoFactorEnabled: true });
        for (const path of ['/', '/mypage', '/gacha/pokemon']) {
          const page = await get(path, { cookie: person.cookie });
          expect(page.body, path).toMatch(
            new RegExp(`<a[^>]*href="/admin"[^>]*${link}|<a[^>]*${link}[^>]*href="/admin"`),
          );
          expect(page.headers.get('cache-control'), path).toBe('private, no-store');
        }
        const done = await get('/mypage/settings/security', { cookie: person.cookie });
        expect(done.body).toContain('二段階認証：有効');
        expect(done.body).toMatch(/<a[^>]*href="\/admin"[^>]*>管理画面へ<\/a>/);
        // A member again (access revoked): the link is gone at once.
        await setAccount(person.id, { role: 'user' });
        expect((await get('/', { cookie: person.cookie })).body).not.toContain(link);
        expect((await get('/mypage/settings/security', { cookie: person.cookie })).body).not.toContain('管理画面へ');
      });
    },
  );
});
