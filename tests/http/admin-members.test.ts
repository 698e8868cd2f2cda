// The member console over HTTP, as the built shop answers it (decision 026): who may open and use
// /admin/members, /admin/members/:id and /admin/approvals (members meet not-found; staff
// without the permission get 403 on every page and every action), the search by email, phone and
// nickname, a member's page, coin adjustments with the second admin's approval, the ban that signs
// the member out and refuses sign-in in Japanese, the hold the member sees, notes, and the audit log.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, coinAdjustments, coinLedger, users } from '#db/schema';
import { checkInvariants, getBalance } from '#modules/wallet';
import { runAdminCommand } from '../../scripts/shop-admin';
import { grantStaff } from '#tests/staff';
import { TEST_RULES } from '#tests/fixtures';
import { digestOf } from '#tests/audit-digest';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

const PASSWORD = 'password-1234';

async function signedUp(label: string, name = 'テスト会員') {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name, email, password: PASSWORD, agreeToTerms: 'on' });
  expect(page.status).toBe(302);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, cookie: cookieFrom(page.headers), id: row!.id };
}

async function staffWith(label: string, permissions: string[]) {
  const member = await signedUp(label);
  await grantStaff(handle!.db, member.email, permissions);
  return member;
}

async function adminAccount(label: string) {
  const member = await signedUp(label);
  await handle!.db.update(users).set({ role: 'admin', twoFactorEnabled: true }).where(eq(users.id, member.id));
  return member;
}

async function grant(email: string, amount: number, kind: 'free' | 'paid' = 'free') {
  const code = await runAdminCommand(
    handle!.db,
    ['coins:grant', '--member', email, '--amount', String(amount), '--kind', kind, '--reason', 'テスト'],
    () => undefined,
    { lifetimes: TEST_RULES.coinLifetimes },
  );
  expect(code).toBe(0);
}

const auditActions = async (memberId: string) =>
  (
    await handle!.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetType, 'member'), eq(adminAuditLog.targetId, memberId)))
      .orderBy(asc(adminAuditLog.id))
  ).map((r) => r.action);

/** Every action of a member's page, with a body that would pass its form's checks. */
const memberActions = (key: string): Record<string, Record<string, string>> => ({
  adjust: { intent: 'adjust', kind: 'free', amount: '10', reason: '権限テスト', key },
  ban: { intent: 'ban', category: 'terms_other', reason: '権限テスト' },
  unban: { intent: 'unban' },
  revokeSessions: { intent: 'revokeSessions' },
  hold: { intent: 'hold', category: 'identity_check', reason: '権限テスト' },
  clearHold: { intent: 'clearHold' },
  age: { intent: 'age', minor: 'false' },
  note: { intent: 'note', text: '権限テスト' },
});

const pendingIdFor = async (memberId: string) => {
  const [row] = await handle!.db
    .select({ id: coinAdjustments.id })
    .from(coinAdjustments)
    .where(and(eq(coinAdjustments.memberId, memberId), eq(coinAdjustments.status, 'pending')));
  return row?.id;
};

describe.skipIf(!databaseUrl)(
  `the member console${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles and coins)'}`,
  () => {
    it('answers members 404 and staff without each permission 403, on every page and action', async () => {
      const target = await signedUp('mc-target');
      const pages = ['/admin/members', `/admin/members/${target.id}`, '/admin/approvals'];
      const path = `/admin/members/${target.id}`;

      const member = await signedUp('mc-member');
      for (const page of pages) expect((await get(page, { cookie: member.cookie })).status, page).toBe(404);
      for (const [intent, body] of Object.entries(memberActions('k-member-0001')))
        expect((await postForm(path, body, { cookie: member.cookie })).status, intent).toBe(404);
      expect(
        (await postForm('/admin/approvals', { intent: 'approve', id: target.id }, { cookie: member.cookie })).status,
      ).toBe(404);

      const auditor = await staffWith('mc-auditor', ['audit:read']);
      for (const page of pages) {
        const refused = await get(page, { cookie: auditor.cookie });
        expect(refused.status, page).toBe(403);
        expect(refused.body).toContain('権限がありません');
      }
      for (const [intent, body] of Object.entries(memberActions('k-auditor-001')))
        expect((await postForm(path, body, { cookie: auditor.cookie })).status, intent).toBe(403);
      const home = await get('/admin', { cookie: auditor.cookie });
      expect(home.body).not.toContain('href="/admin/members"');

      // members:read: the pages open, but no change, no adjustment, no approvals.
      const reader = await staffWith('mc-reader', ['members:read']);
      expect((await get('/admin/members', { cookie: reader.cookie })).status).toBe(200);
      const shown = await get(path, { cookie: reader.cookie });
      expect(shown.status).toBe(200);
      expect(shown.body).toContain(target.email);
      expect(shown.body).not.toContain('利用停止にする');
      expect(shown.body).not.toContain('コインの調整');
      expect((await get('/admin/approvals', { cookie: reader.cookie })).status).toBe(403);
      for (const [intent, body] of Object.entries(memberActions('k-reader-0001')))
        expect((await postForm(path, body, { cookie: reader.cookie })).status, intent).toBe(403);
      expect(
        (await postForm('/admin/approvals', { intent: 'approve', id: target.id }, { cookie: reader.cookie })).status,
      ).toBe(403);

      // members:write without coins:grant: every change but the adjustment.
      const writer = await staffWith('mc-writer', ['members:read', 'members:write']);
      expect((await postForm(path, memberActions('k-writer-0001').adjust!, { cookie: writer.cookie })).status).toBe(
        403,
      );
      expect((await postForm(path, memberActions('k-writer-0001').note!, { cookie: writer.cookie })).status).toBe(200);
      // coins:grant without members:write: the adjustment only.
      const granter = await staffWith('mc-granter', ['members:read', 'coins:grant']);
      for (const intent of ['ban', 'unban', 'revokeSessions', 'hold', 'clearHold', 'age', 'note'])
        expect(
          (await postForm(path, memberActions('k-granter-001')[intent]!, { cookie: granter.cookie })).status,
          intent,
        ).toBe(403);
      expect((await get('/admin/approvals', { cookie: granter.cookie })).status).toBe(200);

      // Nothing happened to the member but the writer's note.
      expect(await auditActions(target.id)).toEqual(['member.note']);
      expect((await getBalance(handle!.db, target.id)).total).toBe(0);
      // An unknown member is not found, for the page and its actions.
      expect((await get('/admin/members/no-such-member', { cookie: writer.cookie })).status).toBe(404);
      expect(
        (await postForm('/admin/members/no-such-member', memberActions('x').note!, { cookie: writer.cookie })).status,
      ).toBe(404);
    });

    it('finds a member by email, phone as typed and the start of the nickname, and shows their page', async () => {
      const nickname = `けんさく${Date.now().toString(36).slice(-4)}`;
      const target = await signedUp('mc-search', nickname);
      // 090-1xxx-xxxx: a number in service (090-0xxx is not allocated, so it would not read as a phone).
      const phone = `+81901${String(Date.now()).slice(-7)}`;
      await handle!.db
        .update(users)
        .set({ phoneNumber: phone, phoneNumberVerified: true })
        .where(eq(users.id, target.id));
      const reader = await staffWith('mc-searcher', ['members:read']);
      const typed = `０９０-${phone.slice(5, 9)}-${phone.slice(9)}`;
      for (const q of [target.email.toUpperCase(), typed, nickname.slice(0, 6), target.id]) {
        const found = await get(`/admin/members?q=${encodeURIComponent(q)}`, { cookie: reader.cookie });
        expect(found.status, q).toBe(200);
        expect(found.body, q).toContain(`/admin/members/${target.id}`);
      }
      const none = await get('/admin/members?q=nobody%40example.jp', { cookie: reader.cookie });
      expect(none.body).toContain('条件に合う会員はいません');
      const page = await get(`/admin/members/${target.id}?ledger=abc&draws=junk&prizes=zzz`, { cookie: reader.cookie });
      expect(page.status).toBe(200);
      for (const heading of [
        'プロフィール',
        'コイン残高',
        'コイン台帳',
        'ガチャ履歴',
        '獲得商品',
        '発送依頼',
        '購入履歴',
        'ログイン中のセッション',
        'スタッフメモ',
      ])
        expect(page.body, heading).toContain(heading);
      expect(page.body).toContain(`090-${phone.slice(5, 9)}-${phone.slice(9)}`);
    });

    it('finds a member by the member number マイページ shows them, however staff type it', async () => {
      const nickname = `ばんごう${Date.now().toString(36).slice(-4)}`;
      const target = await signedUp('mc-code', nickname);
      // The number as the member reads it on マイページ (「会員ID：…」).
      const mypage = await get('/mypage', { cookie: target.cookie });
      const code = /data-testid="member-code"[^>]*>([^<]+)</.exec(mypage.body)?.[1] ?? '';
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
      const reader = await staffWith('mc-code-reader', ['members:read']);
      const fullWidth = code.replace(/[A-Z0-9-]/g, (c) =>
        c === '-' ? 'ー' : String.fromCharCode(c.charCodeAt(0) + 0xfee0),
      );
      for (const q of [code, code.toLowerCase().replace('-', ''), ` ${code.replace('-', ' ')} `, fullWidth]) {
        const found = await get(`/admin/members?q=${encodeURIComponent(q)}`, { cookie: reader.cookie });
        expect(found.status, q).toBe(200);
        expect(found.body, q).toContain(`/admin/members/${target.id}`);
        expect(found.body, q).toContain(`data-member-tag="${code}"`);
      }
      // The member's page names the same number; a number nobody has finds nobody.
      expect((await get(`/admin/members/${target.id}`, { cookie: reader.cookie })).body).toMatch(
        new RegExp(`data-testid="member-code"[^>]*>${code}<`),
      );
      const other = code.startsWith('2') ? `3${code.slice(1)}` : `2${code.slice(1)}`;
      const none = await get(`/admin/members?q=${other}`, { cookie: reader.cookie });
      expect(none.body).not.toContain(`/admin/members/${target.id}`);
    });

    it('adjusts coins with a reason, refuses bad input and overdrafts in Japanese, and waits for another admin above the threshold', async () => {
      const target = await signedUp('mc-coins');
      await grant(target.email, 100);
      const path = `/admin/members/${target.id}`;
      const requester = await adminAccount('mc-requester');
      const cookie = requester.cookie;

      const bad = [
        [{ intent: 'adjust', kind: 'free', amount: 'abc', reason: 'x', key: 'k-bad-00001' }, '整数'],
        [{ intent: 'adjust', kind: 'free', amount: '0', reason: 'x', key: 'k-bad-00002' }, '0枚の調整はできません'],
        [{ intent: 'adjust', kind: 'free', amount: '10', reason: '  ', key: 'k-bad-00003' }, '理由を入力'],
        [{ intent: 'adjust', kind: 'gold', amount: '10', reason: 'x', key: 'k-bad-00004' }, '種類'],
        [{ intent: 'adjust', kind: 'free', amount: '10', reason: 'x', key: '<>' }, '読み込み直して'],
        [{ intent: 'ban', category: 'automation', reason: 'x', until: '2027-02-30' }, '2027-05-10 の形'],
        // The member is always told a category (decision 084).
        [{ intent: 'ban', reason: 'x' }, '会員に伝える理由の区分を選んでください'],
        [{ intent: 'hold', category: 'nonsense', reason: 'x' }, '会員に伝える理由の区分を選んでください'],
        [{ intent: 'note', text: '' }, 'メモを入力'],
        [{ intent: 'age', minor: 'maybe' }, '18歳'],
        [{ intent: 'explode' }, '操作を選び直して'],
      ] as const;
      for (const [body, words] of bad) {
        const answer = await postForm(path, { ...body }, { cookie });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body, JSON.stringify(body)).toContain(words);
      }
      const overdraft = await postForm(
        path,
        { intent: 'adjust', kind: 'free', amount: '−101', reason: '回収', key: 'k-over-00001' },
        { cookie },
      );
      expect(overdraft.status).toBe(422);
      expect(overdraft.body).toContain('残高（100枚）を超えて減らすことはできません');

      const small = { intent: 'adjust', kind: 'free', amount: '-１００', reason: '誤付与の取消', key: 'k-small-0001' };
      const applied = await postForm(path, small, { cookie });
      expect(applied.status).toBe(200);
      expect(applied.body).toContain('調整しました');
      expect((await postForm(path, small, { cookie })).status).toBe(200); // a double submit: once
      expect((await getBalance(handle!.db, target.id)).free).toBe(0);
      const entries = await handle!.db
        .select({ amount: coinLedger.amount, memo: coinLedger.memo })
        .from(coinLedger)
        .where(and(eq(coinLedger.memberId, target.id), eq(coinLedger.reason, 'adjustment')));
      expect(entries).toEqual([{ amount: -100, memo: '誤付与の取消' }]);

      const large = { intent: 'adjust', kind: 'paid', amount: '20,000', reason: '返金の代わり', key: 'k-large-0001' };
      const asked = await postForm(path, large, { cookie });
      expect(asked.status).toBe(200);
      expect(asked.body).toContain('別の管理者の承認後に反映されます');
      expect((await getBalance(handle!.db, target.id)).paid).toBe(0);
      const id = await pendingIdFor(target.id);
      expect(id).toBeDefined();
      const self = await postForm('/admin/approvals', { intent: 'approve', id: id! }, { cookie });
      expect(self.status).toBe(403);
      expect(self.body).toContain('自分が申請したコイン調整は承認・却下できません');
      const staffGranter = await staffWith('mc-staff-approver', ['coins:grant']);
      const notAdmin = await postForm(
        '/admin/approvals',
        { intent: 'approve', id: id! },
        { cookie: staffGranter.cookie },
      );
      expect(notAdmin.status).toBe(403);
      expect(notAdmin.body).toContain('管理者');

      const approver = await adminAccount('mc-approver');
      const approvals = await get('/admin/approvals', { cookie: approver.cookie });
      expect(approvals.body).toContain('返金の代わり');
      const ok = await postForm('/admin/approvals', { intent: 'approve', id: id! }, { cookie: approver.cookie });
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('承認しました');
      const twice = await postForm('/admin/approvals', { intent: 'approve', id: id! }, { cookie: approver.cookie });
      expect(twice.status).toBe(409);
      expect(twice.body).toContain('すでに承認され');
      expect((await getBalance(handle!.db, target.id)).paid).toBe(20_000);
      expect(
        (await postForm('/admin/approvals', { intent: 'approve', id: 'not-a-uuid' }, { cookie: approver.cookie }))
          .status,
      ).toBe(404);
      expect(await auditActions(target.id)).toEqual([
        'coins.grant', // the command line's grant of the first 100 coins
        'coins.adjust',
        'coins.adjust.request',
        'coins.adjust.approve',
        'coins.adjust',
      ]);
      const page = await get(path, { cookie: approver.cookie });
      expect(page.body).toContain('反映済み');
    });

    it('bans: the member is signed out and sign-in says the account is suspended; unban lets them in; the hold shows where they buy', async () => {
      const target = await signedUp('mc-ban');
      const path = `/admin/members/${target.id}`;
      const writer = await staffWith('mc-banner', ['members:read', 'members:write']);
      expect((await get('/shop', { cookie: target.cookie })).status).toBe(200);

      const banned = await postForm(
        path,
        { intent: 'ban', category: 'automation', reason: '不正利用の疑い', until: '' },
        { cookie: writer.cookie },
      );
      expect(banned.status).toBe(200);
      expect(banned.body).toContain('利用停止にしました');
      expect((await get('/shop', { cookie: target.cookie })).status).toBe(302);
      const refused = await postForm('/auth/sign_in', { email: target.email, password: PASSWORD });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body).toContain('利用停止中');
      const listed = await get(`/admin/members?q=${encodeURIComponent(target.email)}`, { cookie: writer.cookie });
      expect(listed.body).toContain('利用停止');

      // Staff cannot act on themselves or on other staff; a tombstone cannot be unbanned.
      const self = await postForm(
        `/admin/members/${writer.id}`,
        { intent: 'revokeSessions' },
        { cookie: writer.cookie },
      );
      expect(self.status).toBe(409);
      expect(self.body).toContain('自分自身のアカウント');
      const colleague = await staffWith('mc-colleague', ['members:read']);
      const protectedStaff = await postForm(
        `/admin/members/${colleague.id}`,
        { intent: 'ban', category: 'terms_other', reason: 'x' },
        { cookie: writer.cookie },
      );
      expect(protectedStaff.status).toBe(403);
      expect(protectedStaff.body).toContain('管理者だけが行えます');

      const lifted = await postForm(path, { intent: 'unban' }, { cookie: writer.cookie });
      expect(lifted.body).toContain('利用停止を解除しました');
      const signedIn = await postForm('/auth/sign_in', { email: target.email, password: PASSWORD });
      expect(signedIn.status).toBe(302);
      const cookie = cookieFrom(signedIn.headers);

      const held = await postForm(
        path,
        { intent: 'hold', category: 'identity_check', reason: '本人確認書類の確認中' },
        { cookie: writer.cookie },
      );
      expect(held.body).toContain('停止しました');
      const shop = await get('/shop', { cookie });
      expect(shop.body).toContain('アカウントの確認が必要なため、現在コインを購入できません');
      expect(shop.body).not.toContain('本人確認書類');
      const page = await get(path, { cookie: writer.cookie });
      expect(page.body).toContain('本人確認書類の確認中');
      const cleared = await postForm(path, { intent: 'clearHold' }, { cookie: writer.cookie });
      expect(cleared.body).toContain('解除しました');

      const revoked = await postForm(path, { intent: 'revokeSessions' }, { cookie: writer.cookie });
      expect(revoked.body).toContain('ログアウトさせました');
      expect((await get('/shop', { cookie })).status).toBe(302);

      const log = await handle!.db
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.targetId, target.id), eq(adminAuditLog.action, 'member.ban')));
      expect(log[0]).toMatchObject({ actorLabel: writer.email, permission: 'members:write' });
      expect(await auditActions(target.id)).toEqual([
        'member.ban',
        'member.unban',
        'member.hold',
        'member.hold.clear',
        'member.sessions.revoke',
      ]);
      // The log keeps the hold's reason as a digest (decision 053); the viewer says how long it was, not what.
      const auditor = await staffWith('mc-hold-auditor', ['audit:read']);
      const viewed = await get(`/admin/audit?action=member.hold&targetId=${target.id}`, { cookie: auditor.cookie });
      expect(viewed.status).toBe(200);
      const { textSha256 } = digestOf('本人確認書類の確認中');
      expect(viewed.body).toContain(`本文（10文字・SHA-256 ${textSha256.slice(0, 8)}）`);
      expect(viewed.body).not.toContain('本人確認書類');
    });
  },
);
