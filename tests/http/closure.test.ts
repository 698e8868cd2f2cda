// The shop's closure over HTTP against the built shop (decision 085): who may open /admin/closure (members 404, staff
// without its permissions 403, staff with shop:write may not announce: admins only), announcing only after the
// review and the typed words, a 60-day period enforced in Japanese (422), forms from another origin refused (CSRF),
// the banner and /closure, draws and purchases refused after the stop (403 SALES_STOPPED, never 500), the member's
// application (validated, a 422 in Japanese; another member never sees it), and the transfer recorded by staff with
// orders:refund, after which the member's paid coins are 0. A banned member (no session) applies by their statement
// link, which lives until the refund deadline and a day. The closure is shop-wide: this file runs its own shop.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { memberRestrictions, outboundMessages, shopClosureRefunds, users } from '#db/schema';
import { checkInvariants, getBalance } from '#modules/wallet';
import { readClosure } from '#modules/shop';
import { sendClosureNotices } from '#server/closure';
import { runAdminCommand } from '../../scripts/shop-admin';
import { TEST_RULES } from '#tests/fixtures';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail, useShopAt } from '#tests/http';
import { startOwnShop, type OwnShop } from '#tests/own-shop';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
const PACK = 'stellar-pokemon-003';
let handle: DatabaseHandle | undefined;
let own: OwnShop | undefined;

interface Member {
  id: string;
  email: string;
  cookie: string;
}

async function signUp(label: string, paid = 0): Promise<Member> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: `${label}-pass-1`, agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`sign-up failed: ${page.status}`);
  if (paid > 0)
    await runAdminCommand(
      handle!.db,
      ['coins:grant', '--member', email, '--amount', String(paid), '--kind', 'paid', '--reason', 'テスト'],
      () => undefined,
      { lifetimes: TEST_RULES.coinLifetimes },
    );
  return { id: row!.id, email, cookie };
}

async function staff(label: string, permissions?: string[]): Promise<Member> {
  const member = await signUp(label);
  await grantStaff(handle!.db, member.email, permissions);
  return member;
}

async function api(path: string, member: Member, body: unknown) {
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: 'POST',
    headers: {
      cookie: member.cookie,
      origin: shopUrl(),
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const unescape = (html: string) =>
  html
    .replaceAll('<!-- -->', '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** A Japan-time datetime-local value `days` from now. */
const localIn = (days: number) => new Date(Date.now() + days * 86_400_000 + 9 * 3600_000).toISOString().slice(0, 16);

const NOTICE = '当ショップは2027年3月末をもって事業を終了いたします。未使用の有償コインは1コイン1円で払い戻します。';
const ACCOUNT = {
  bankName: 'ステラ銀行',
  branchName: '本店',
  accountType: '普通',
  accountNumber: '7654321',
  accountHolder: 'ステラ ハナコ',
};

beforeAll(async () => {
  if (!databaseUrl) return;
  own = await startOwnShop('closure', {
    SIGN_UP_ATTEMPTS_PER_MINUTE: '500',
    SIGN_IN_ATTEMPTS_PER_MINUTE: '30',
    PAGE_CACHE_SECONDS: '0',
  });
  useShopAt(own.base);
  handle = await openDatabase({ databaseUrl: own.database.databaseUrl!, dataDir: own.database.dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
  useShopAt(null);
  await own?.stop();
});

describe.skipIf(!databaseUrl)(
  `the shop closure${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for staff and coins)'}`,
  () => {
    it('answers members 404 and staff without its permissions 403; staff with shop:write may not announce', async () => {
      const member = await signUp('heiten-member');
      expect((await get('/admin/closure', { cookie: member.cookie })).status).toBe(404);
      expect((await postForm('/admin/closure', { intent: 'cancel' }, { cookie: member.cookie })).status).toBe(404);
      const auditor = await staff('heiten-auditor', ['audit:read']);
      expect((await get('/admin/closure', { cookie: auditor.cookie })).status).toBe(403);
      const shopStaff = await staff('heiten-tenin', ['shop:write']);
      const page = await get('/admin/closure', { cookie: shopStaff.cookie });
      expect(page.status).toBe(200);
      expect(unescape(page.body)).toContain('告知できるのは管理者だけです');
      const tried = await postForm(
        '/admin/closure',
        { intent: 'announce', salesStopAt: '', refundDeadline: localIn(90), notice: NOTICE, confirmWords: '閉店する' },
        { cookie: shopStaff.cookie },
      );
      expect(tried.status).toBe(403);
      expect(unescape(tried.body)).toContain('管理者（admin）だけが行えます');
      expect(await readClosure(handle!.db)).toBeNull();
    });

    it('announces after the review and the typed words, stops sales, takes an application and records its transfer once', async () => {
      const admin = await staff('heiten-kanri');
      const alice = await signUp('heiten-alice', 3000);
      const bob = await signUp('heiten-bob', 500);

      // A deadline under 60 days is refused in Japanese, nothing written.
      const short = await postForm(
        '/admin/closure',
        { intent: 'review', salesStopAt: '', refundDeadline: localIn(30), notice: NOTICE },
        { cookie: admin.cookie },
      );
      expect(short.status).toBe(422);
      expect(unescape(short.body)).toContain('60日以上が必要です');
      const review = await postForm(
        '/admin/closure',
        { intent: 'review', salesStopAt: '', refundDeadline: localIn(90), notice: NOTICE },
        { cookie: admin.cookie },
      );
      expect(review.status).toBe(200);
      expect(unescape(review.body)).toContain('閉店を告知しますか？');
      expect(await readClosure(handle!.db)).toBeNull();
      const fields = { intent: 'announce', salesStopAt: '', refundDeadline: localIn(90), notice: NOTICE };
      // Without the words, and from another origin (CSRF), nothing happens.
      expect((await postForm('/admin/closure', fields, { cookie: admin.cookie })).status).toBe(422);
      const forged = await postForm(
        '/admin/closure',
        { ...fields, confirmWords: '閉店する' },
        { cookie: admin.cookie, origin: 'https://evil.example' },
      );
      expect(forged.status).toBe(403);
      expect(await readClosure(handle!.db)).toBeNull();
      const announced = await postForm(
        '/admin/closure',
        { ...fields, confirmWords: '閉店する' },
        { cookie: admin.cookie },
      );
      expect(announced.status).toBe(200);
      expect(unescape(announced.body)).toContain('閉店を告知しました');

      // The banner and the public notice.
      const home = unescape((await get('/', { cookie: alice.cookie })).body);
      expect(home).toContain('閉店のお知らせ');
      const notice = await get('/closure');
      expect(notice.status).toBe(200);
      expect(unescape(notice.body)).toContain(NOTICE);

      // Sales have stopped (no sales stop given: now): a draw and a purchase are refused, 403, in Japanese.
      const drawn = await api(`/gachas/${PACK}/draws`, alice, { count: 1 });
      expect(drawn.status).toBe(403);
      expect(drawn.body.error).toMatchObject({ code: 'SALES_STOPPED' });
      expect(drawn.body.error.message).toContain('販売を終了しました');
      const bought = await api('/me/purchases', alice, { packId: 'coin-1000', method: 'sandbox', channel: 'web' });
      expect([403, 409, 422]).toContain(bought.status);
      expect((await getBalance(handle!.db, alice.id)).paid).toBe(3000);

      // Alice applies: a bad number is a 422 in Japanese; a forged origin is refused; then accepted.
      const bad = await postForm(
        '/mypage/refund',
        { ...ACCOUNT, accountNumber: '12-345-6789' },
        { cookie: alice.cookie },
      );
      expect(bad.status).toBe(422);
      expect(unescape(bad.body)).toContain('口座番号は7桁までの数字');
      expect(
        (await postForm('/mypage/refund', ACCOUNT, { cookie: alice.cookie, origin: 'https://evil.example' })).status,
      ).toBe(403);
      const applied = await postForm('/mypage/refund', ACCOUNT, { cookie: alice.cookie });
      expect(applied.status).toBe(200);
      expect(unescape(applied.body)).toContain('払戻しのお申し込みを受け付けました');
      const mine = unescape((await get('/mypage/refund', { cookie: alice.cookie })).body);
      expect(mine).toContain('****321');
      expect(mine).not.toContain('7654321');
      // Bob never sees Alice's application.
      const his = unescape((await get('/mypage/refund', { cookie: bob.cookie })).body);
      expect(his).not.toContain('ステラ銀行');
      expect(his).not.toContain('****321');
      // A visitor is asked to sign in.
      expect((await get('/mypage/refund')).body).not.toContain('ステラ銀行');

      // 退会 during the closure: Bob (not applied) is told he would give up his 払戻し; Alice (applied, not yet
      // transferred) cannot leave until it is paid, whatever she types: her paid coins are what it is counted from.
      const bobLeaving = unescape((await get('/mypage/settings/delete', { cookie: bob.cookie })).body);
      expect(bobLeaving).toContain('有償コイン 500枚は');
      expect(bobLeaving).toContain('まで払戻しを申し込めます。退会すると受け取れなくなります。');
      expect(bobLeaving).not.toContain('払い戻しはできません。');
      const aliceLeaving = unescape((await get('/mypage/settings/delete', { cookie: alice.cookie })).body);
      expect(aliceLeaving).toContain('閉店に伴う払戻しをお申し込み済みです。お振込みが済むまで退会できません。');
      const leave = await postForm(
        '/mypage/settings/delete',
        { confirmation: '退会する', password: 'heiten-alice-pass-1' },
        { cookie: alice.cookie },
      );
      expect(leave.status).toBe(409);
      expect(unescape(leave.body)).toContain('お振込みが済むまで退会できません');
      expect((await getBalance(handle!.db, alice.id)).paid).toBe(3000);

      const [refund] = await handle!.db
        .select()
        .from(shopClosureRefunds)
        .where(eq(shopClosureRefunds.memberId, alice.id));
      // Recording needs orders:refund; the amount must be what the operator saw.
      const clerk = await staff('heiten-clerk', ['orders:refund']);
      const list = unescape((await get('/admin/closure', { cookie: clerk.cookie })).body);
      expect(list).toContain('ステラ銀行 本店 普通 7654321 ステラ ハナコ');
      const stale = await postForm(
        '/admin/closure',
        { intent: 'refundPaid', refundId: refund!.id, reference: 'FURI-0001', confirmedCoins: '2999' },
        { cookie: clerk.cookie },
      );
      expect(stale.status).toBe(409);
      const paid = await postForm(
        '/admin/closure',
        { intent: 'refundPaid', refundId: refund!.id, reference: 'FURI-0001', confirmedCoins: '3000' },
        { cookie: clerk.cookie },
      );
      expect(paid.status).toBe(200);
      expect(unescape(paid.body)).toContain('払戻しを記録しました（3,000円');
      const again = await postForm(
        '/admin/closure',
        { intent: 'refundPaid', refundId: refund!.id, reference: 'FURI-0001', confirmedCoins: '3000' },
        { cookie: clerk.cookie },
      );
      expect(again.status).toBe(409);
      expect((await getBalance(handle!.db, alice.id)).paid).toBe(0);
      // Paid out: nothing is left to give up, and the page says so no more.
      expect(unescape((await get('/mypage/settings/delete', { cookie: alice.cookie })).body)).not.toContain(
        '払戻しをお申し込み済み',
      );

      // The report: an admin holds reports:read.
      const csv = await get('/admin/exports/closure.csv', { cookie: admin.cookie });
      expect(csv.status).toBe(200);
      expect(csv.body).toContain(`${alice.id},3000,0,0,`);
      expect(csv.body).toContain(`${bob.id},500,500,500,,,0,0,`);
      expect(csv.body).toContain('unused_paid_coins_at_sales_stop');
    });

    it('lets a banned member apply by their statement link until the deadline, and nobody else by it', async () => {
      // The closure of the test before is live (sales stopped): Carol, with paid coins, is banned now.
      const closure = (await readClosure(handle!.db))!;
      const admin = await staff('heiten-kanri2');
      const carol = await signUp('heiten-carol', 800);
      const banned = await postForm(
        `/admin/members/${carol.id}`,
        { intent: 'ban', category: 'harassment', reason: '暴言' },
        { cookie: admin.cookie },
      );
      expect(banned.status).toBe(200);
      const dayAfterDeadline = closure.refundDeadline.getTime() + 86_400_000;
      const [ban] = await handle!.db
        .select({ expires: memberRestrictions.linkExpiresAt })
        .from(memberRestrictions)
        .where(eq(memberRestrictions.memberId, carol.id));
      expect(ban!.expires!.getTime()).toBeGreaterThanOrEqual(dayAfterDeadline);
      const linksTo = async (template: string) => {
        const mails = await handle!.db
          .select({ text: outboundMessages.textBody, template: outboundMessages.template })
          .from(outboundMessages)
          .where(eq(outboundMessages.recipient, carol.email));
        return mails
          .filter((m) => m.template === template)
          .map((m) => /\/standing\/([A-Za-z0-9_-]{43})/.exec(m.text ?? '')?.[0])
          .filter((link): link is string => Boolean(link));
      };
      const [banLink] = await linksTo('account-restricted');
      const first = unescape((await get(banLink!)).body);
      expect(first).toContain('閉店にともなう払戻しのお申し込み');
      expect(first).toContain('800円');

      // The closure's notice tells her by a fresh link (she cannot sign in); the ban mail's link stops working.
      expect(
        await sendClosureNotices(handle!.db, { name: 'テスト', origin: shopUrl() }, { limit: 10_000 }),
      ).toBeGreaterThan(0);
      const [noticeLink] = await linksTo('shop-closure');
      expect(noticeLink).toBeDefined();
      expect(noticeLink).not.toBe(banLink);
      expect((await get(banLink!)).status).toBe(404);
      expect(unescape((await get(noticeLink!)).body)).toContain('閉店にともなう払戻しのお申し込み');
      const told = await handle!.db
        .select({ text: outboundMessages.textBody })
        .from(outboundMessages)
        .where(and(eq(outboundMessages.recipient, carol.email), eq(outboundMessages.template, 'shop-closure')));
      expect(told[0]!.text).toContain('ログインはできません');

      // Her application by the link: a bad number is a 422 in Japanese, nothing written; then accepted, for her.
      const bad = await postForm(noticeLink!, { intent: 'refund', ...ACCOUNT, accountNumber: '12-345-6789' });
      expect(bad.status).toBe(422);
      expect(unescape(bad.body)).toContain('口座番号は7桁までの数字');
      const forged = await postForm(noticeLink!, { intent: 'refund', ...ACCOUNT }, { origin: 'https://evil.example' });
      expect(forged.status).toBe(403);
      const dead = await postForm(`/standing/${'A'.repeat(43)}`, { intent: 'refund', ...ACCOUNT });
      expect(dead.status).toBe(404);
      const mine = () => handle!.db.select().from(shopClosureRefunds).where(eq(shopClosureRefunds.memberId, carol.id));
      expect(await mine()).toEqual([]);
      const applied = await postForm(noticeLink!, { intent: 'refund', ...ACCOUNT });
      expect(applied.status).toBe(200);
      expect(unescape(applied.body)).toContain('払戻しのお申し込みを受け付けました');
      expect(await mine()).toHaveLength(1);
      const after = unescape((await get(noticeLink!)).body);
      expect(after).toContain('****321');
      expect(after).not.toContain('7654321');
    });
  },
);
