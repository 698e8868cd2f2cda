// The mailbox over HTTP against the built shop (decision 034): the welcome mail and its sign-up gift, the
// bell's count in the header, the lists and a mail (opened = read), claims by the page and by the API
// (concurrent claims credit once), another member's or a malformed id as the shop's 404, Japanese 4xx
// answers; and /admin/mail: mail:write only, compose (bad input refused), audit, cancel.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog } from '#db/schema';
import { get, postForm, memberApi, signUpMember, type SignedUpMember } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { digestOf } from '#tests/audit-digest';
import { testShop } from '#tests/test-shop';

type Member = SignedUpMember;
const signUp = (label: string) => signUpMember(label, 'mailbox-pass-1');
const api = memberApi;

interface ApiMail {
  id: number;
  category: string;
  subject: string;
  read: boolean;
  attachment: { coins: number; claimed: boolean } | null;
}

const welcomeOf = async (member: Member): Promise<ApiMail> => {
  const list = await api('/me/mails?box=personal', { member });
  expect(list.status).toBe(200);
  const welcome = (list.body.items as ApiMail[]).find((m) => m.category === 'welcome');
  if (!welcome) throw new Error('no welcome mail');
  return welcome;
};

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
let alice: Member;
let bob: Member;
beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  alice = await signUp('mail-alice');
  bob = await signUp('mail-bob');
});
afterAll(async () => {
  await handle?.close();
});

describe('the member’s mailbox', () => {
  it('sends visitors to sign in, and the API answers 401', async () => {
    const page = await get('/myinbox/idvs');
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/auth\/sign_in\?redirect=/);
    expect(await api('/me/mails/unread-count')).toMatchObject({
      status: 401,
      body: { error: { code: 'UNAUTHENTICATED' } },
    });
  });

  it('greets a new member with a welcome mail and its gift; the bell counts it; opening reads it', async () => {
    const welcome = await welcomeOf(alice);
    expect(welcome).toMatchObject({ read: false, attachment: { coins: 100, claimed: false } });
    expect((await api('/me/mails/unread-count', { member: alice })).body.unread).toBeGreaterThanOrEqual(1);
    const unread = (await api('/me/mails/unread-count', { member: alice })).body.unread as number;
    const list = await get('/myinbox/idvs', { cookie: alice.cookie });
    expect(list.status).toBe(200);
    expect(list.body).toContain(welcome.subject);
    expect(list.body).toContain('新着');
    expect(list.body).toContain(`メールボックス（未読${unread}件）`);
    const page = await get(`/myinbox/mail/${welcome.id}`, { cookie: alice.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('ご登録いただき、ありがとうございます');
    expect(page.body).toMatch(/100(<!-- -->)?コインを受け取る/);
    expect((await api('/me/mails/unread-count', { member: alice })).body.unread).toBe(unread - 1);
  });

  it('answers the shop’s 404 for another member’s mail, an unknown and a malformed id, by page and API', async () => {
    const aliceMail = await welcomeOf(alice);
    for (const path of [
      `/myinbox/mail/${aliceMail.id}`,
      '/myinbox/mail/abc',
      '/myinbox/mail/999999999',
      '/myinbox/mail/0',
    ])
      expect((await get(path, { cookie: bob.cookie })).status, path).toBe(404);
    expect(await api(`/me/mails/${aliceMail.id}`, { member: bob })).toMatchObject({
      status: 404,
      body: { error: { code: 'MAIL_NOT_FOUND', message: 'メールが見つかりません。' } },
    });
    expect((await api(`/me/mails/${aliceMail.id}/claim`, { member: bob, method: 'POST' })).status).toBe(404);
    expect((await api('/me/mails/abc', { member: bob })).status).toBe(404);
    expect((await postForm(`/myinbox/mail/${aliceMail.id}`, {}, { cookie: bob.cookie })).status).toBe(404);
    const bad = await api('/me/mails?box=everything', { member: bob });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/[ぁ-んァ-ン一-龠]/);
  });

  it('credits concurrent API claims once; a replay with the same key answers the first; then 409', async () => {
    const welcome = await welcomeOf(bob);
    const before = (await api('/me/wallet', { member: bob })).body.free as number;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api(`/me/mails/${welcome.id}/claim`, { member: bob, method: 'POST' })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'MAIL_ALREADY_CLAIMED')).toBe(
      true,
    );
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    expect((await api('/me/wallet', { member: bob })).body.free).toBe(before + 100);
    const again = await api(`/me/mails/${welcome.id}/claim`, { member: bob, method: 'POST', key: 'mail-bob-1' });
    expect(again).toMatchObject({ status: 409, body: { error: { message: 'このプレゼントは受け取り済みです。' } } });
    const replay = await api(`/me/mails/${welcome.id}/claim`, { member: bob, method: 'POST', key: 'mail-bob-1' });
    const { requestId: _first, ...firstError } = again.body.error;
    const { requestId: _replayed, ...replayedError } = replay.body.error;
    expect(replay.status).toBe(409);
    expect(replayedError).toEqual(firstError);
    const logs = await get('/myinbox/bonus/logs', { cookie: bob.cookie });
    expect(logs.body).toContain('プレゼントの受け取り履歴');
    expect(logs.body).toMatch(/\+(<!-- -->)?100(<!-- -->)?コイン/);
  });

  it('「すべて受け取る」 by the API: concurrent calls credit each present once; a replay answers the first', async () => {
    const member = await signUp('mail-all');
    const before = (await api('/me/wallet', { member })).body.free as number;
    expect((await api('/me/mails/claim-all', { method: 'POST' })).status).toBe(401);
    // One of the six carries a key (its claims run in the key's transaction), the others none.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api('/me/mails/claim-all', { member, method: 'POST', ...(i === 0 ? { key: 'mail-all-0' } : {}) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    // The welcome mail's 100 coins, credited by exactly one of the six.
    expect(answers.reduce((sum, a) => sum + (a.body.claimed as number), 0)).toBe(1);
    expect(answers.reduce((sum, a) => sum + (a.body.coins as number), 0)).toBe(100);
    expect((await api('/me/wallet', { member })).body.free).toBe(before + 100);
    expect((await welcomeOf(member)).attachment).toMatchObject({ claimed: true });
    // Nothing left: 0, with the unread count for the bell.
    const after = await api('/me/mails/claim-all', { member, method: 'POST', key: 'mail-all-1' });
    expect(after).toMatchObject({ status: 200, body: { claimed: 0, coins: 0 } });
    expect(after.body.unread).toBe((await api('/me/mails/unread-count', { member })).body.unread);
    const replay = await api('/me/mails/claim-all', { member, method: 'POST', key: 'mail-all-1' });
    expect(replay).toMatchObject({ status: 200, body: { claimed: 0, coins: 0 } });
    // The keyed call's replay answers what it answered then, whichever of the six credited the present.
    const keyed = await api('/me/mails/claim-all', { member, method: 'POST', key: 'mail-all-0' });
    expect({ claimed: keyed.body.claimed, coins: keyed.body.coins }).toEqual({
      claimed: answers[0]!.body.claimed,
      coins: answers[0]!.body.coins,
    });
    expect((await api('/me/wallet', { member })).body.free).toBe(before + 100);
  });

  it('claims by the page’s button: the answer on the page, the balance in the header', async () => {
    const member = await signUp('mail-carol');
    const welcome = await welcomeOf(member);
    const claimed = await postForm(`/myinbox/mail/${welcome.id}`, {}, { cookie: member.cookie });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toContain('100コイン（無償コイン）を受け取りました。');
    const second = await postForm(`/myinbox/mail/${welcome.id}`, {}, { cookie: member.cookie });
    expect(second.status).toBe(409);
    expect(second.body).toContain('受け取り済み');
    expect((await api('/me/wallet', { member })).body.free).toBe(100);
  });

  it('saves the email opt-in and refuses a malformed one', async () => {
    const on = await postForm('/myinbox/idvs', { intent: 'email-notice', email: 'on' }, { cookie: alice.cookie });
    expect(on.status).toBe(200);
    expect(on.body).toContain('お知らせをメールでも受け取ります。');
    const bad = await postForm('/myinbox/idvs', { intent: 'email-notice', email: 'yes' }, { cookie: alice.cookie });
    expect(bad.status).toBe(400);
  });
});

describe.skipIf(!databaseUrl)(
  `/admin/mail${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for roles)'}`,
  () => {
    it('needs mail:write; composes a broadcast members see, audited; refuses bad input in Japanese; cancels', async () => {
      const reader = await signUp('mail-viewer');
      await grantStaff(handle!.db, reader.email, ['orders:read']);
      expect((await get('/admin/mail', { cookie: reader.cookie })).status).toBe(403);
      expect((await postForm('/admin/mail', { intent: 'send' }, { cookie: reader.cookie })).status).toBe(403);
      const operator = await signUp('mail-op');
      await grantStaff(handle!.db, operator.email, ['mail:write']);
      const cookie = operator.cookie;
      expect((await get('/admin/mail', { cookie })).body).toContain('メール配信');

      const compose = { intent: 'send', audience: 'broadcast', segment: 'all', timing: 'now' };
      const empty = await postForm('/admin/mail', { ...compose, subject: '', body: 'x' }, { cookie });
      expect(empty.status).toBe(400);
      expect(empty.body).toContain('件名を入力してください。');
      const badLink = await postForm(
        '/admin/mail',
        { ...compose, subject: 'リンク', body: '[押して](javascript:alert(1))' },
        { cookie },
      );
      expect(badLink.status).toBe(400);
      expect(badLink.body).toContain('は使えません');
      const badCoins = await postForm('/admin/mail', { ...compose, subject: 's', body: 'b', coins: '-5' }, { cookie });
      expect(badCoins.status).toBe(400);
      const nobody = await postForm(
        '/admin/mail',
        { ...compose, audience: 'personal', member: 'nobody@example.invalid', subject: 's', body: 'b' },
        { cookie },
      );
      expect(nobody.status).toBe(404);
      const preview = await postForm(
        '/admin/mail',
        { ...compose, intent: 'preview', subject: 'ご案内', body: '**大事**なお知らせ' },
        { cookie },
      );
      expect(preview.status).toBe(200);
      expect(preview.body).toContain('<strong>大事</strong>');

      // Links are https or the shop's own paths (issue 28 item 9).
      const httpLink = await postForm(
        '/admin/mail',
        { ...compose, intent: 'confirm', subject: 'リンク', body: '[詳細](http://example.jp/)' },
        { cookie },
      );
      expect(httpLink.status).toBe(400);
      expect(httpLink.body).toContain('https:// で始まるURLか、サイト内のパス');
      // A present above the per-member most (MAIL_PRESENT_MAX_COINS_PER_MEMBER, 3,000) is refused.
      const overCap = await postForm(
        '/admin/mail',
        { ...compose, intent: 'confirm', subject: 's', body: 'b', coins: '3001' },
        { cookie },
      );
      expect(overCap.status).toBe(422);
      expect(overCap.body).toContain('プレゼントは1人あたり3,000コインまでです');

      const subject = `HTTPお知らせ${Date.now().toString(36)}`;
      const mail = { ...compose, subject, body: '全員へ\n- [詳細](/contact)', coins: '20' };
      // The test send goes to the operator's own mailbox, without the coins.
      const test = await postForm('/admin/mail', { ...mail, intent: 'test' }, { cookie });
      expect(test.status).toBe(200);
      expect(test.body).toContain('テスト送信しました');
      const own = await api('/me/mails?box=personal', { member: operator });
      const testMail = (own.body.items as ApiMail[]).find((m) => m.subject === `【テスト送信】${subject}`);
      expect(testMail).toMatchObject({ attachment: null });

      // Sending without the confirmation's figures asks for them; the confirmation names both numbers.
      const key = /name="key" value="([\w-]+)"/.exec((await get('/admin/mail', { cookie })).body)![1]!;
      const unconfirmed = await postForm('/admin/mail', { ...mail, key }, { cookie });
      expect(unconfirmed.status).toBe(409);
      const confirm = await postForm('/admin/mail', { ...mail, intent: 'confirm' }, { cookie });
      expect(confirm.status).toBe(200);
      const recipients = Number(/name="confirmedRecipients" value="(\d+)"/.exec(confirm.body)?.[1]);
      expect(recipients).toBeGreaterThan(1);
      const figures = confirm.body.replace(/<!-- -->/g, '');
      expect(figures).toContain(`${recipients.toLocaleString('ja-JP')}人`);
      expect(figures).toContain(`最大 ${(recipients * 20).toLocaleString('ja-JP')}コイン`);
      // A segment is counted exactly as the shop judges it now (decision 052), not as the whole shop's size:
      // ダイヤモンド以上 (1,000,000 paid coins bought last month) is fewer than everyone.
      const diamond = await postForm(
        '/admin/mail',
        { ...mail, segment: 'rank', minRank: '5', intent: 'confirm' },
        { cookie },
      );
      expect(diamond.status).toBe(200);
      const diamonds = Number(/name="confirmedRecipients" value="(\d+)"/.exec(diamond.body)?.[1]);
      expect(diamonds).toBeLessThan(recipients);
      expect(diamond.body).toContain('今の時点で条件に合う会員の数です。');
      expect(diamond.body.replace(/<!-- -->/g, '')).not.toContain(`最大 ${diamonds.toLocaleString('ja-JP')}人`);
      // A member joins after the confirmation: the server counts again and asks again instead of sending.
      const stale = await postForm(
        '/admin/mail',
        { ...mail, key, confirmedRecipients: String(recipients - 1), confirmedCoins: '20' },
        { cookie },
      );
      expect(stale.status).toBe(409);
      expect(stale.body).toContain('まだ送っていません');
      expect(
        await handle!.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'mail.broadcast')),
      ).not.toContainEqual(expect.objectContaining({ after: expect.objectContaining({ subject }) }));
      const sent = await postForm(
        '/admin/mail',
        { ...mail, key, confirmedRecipients: String(recipients + 5), confirmedCoins: '20' },
        { cookie },
      );
      expect(sent.status).toBe(200);
      const id = Number(/メール #(\d+) を送信しました/.exec(sent.body)?.[1]);
      expect(id).toBeGreaterThan(0);
      const [audit] = await handle!.db
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.action, 'mail.broadcast'), eq(adminAuditLog.targetId, String(id))));
      expect(audit).toMatchObject({ permission: 'mail:write', targetType: 'mail' });
      expect(audit!.after).toMatchObject({ subject });

      // A personal mail's subject may name the member: the log keeps its digest only (decision 053).
      const personalSubject = `${alice.email} 様へのご連絡`;
      const personalMail = {
        ...compose,
        audience: 'personal',
        member: alice.email,
        subject: personalSubject,
        body: 'b',
      };
      // Every mail is confirmed first (decision 052): the sheet's figures go with the send.
      const personalConfirm = await postForm('/admin/mail', { ...personalMail, intent: 'confirm' }, { cookie });
      expect(personalConfirm.status).toBe(200);
      const personalKey = /name="key" value="([\w-]+)"/.exec((await get('/admin/mail', { cookie })).body)![1]!;
      const personal = await postForm(
        '/admin/mail',
        {
          ...personalMail,
          key: personalKey,
          confirmedRecipients: /name="confirmedRecipients" value="(\d+)"/.exec(personalConfirm.body)![1]!,
          confirmedCoins: /name="confirmedCoins" value="(\d+)"/.exec(personalConfirm.body)![1]!,
        },
        { cookie },
      );
      expect(personal.status, personal.body.slice(0, 300)).toBe(200);
      const personalId = Number(/メール #(\d+) を送信しました/.exec(personal.body)?.[1]);
      const [personalAudit] = await handle!.db
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.action, 'mail.personal'), eq(adminAuditLog.targetId, String(personalId))));
      expect(personalAudit!.after).toMatchObject({ subject: digestOf(personalSubject) });
      expect(JSON.stringify(personalAudit)).not.toContain(alice.email);

      // A member who joined before it sees it in お知らせ and can claim it once.
      const broadcasts = await api('/me/mails?box=broadcast', { member: alice });
      expect((broadcasts.body.items as ApiMail[]).map((m) => m.id)).toContain(id);
      expect((await get('/myinbox/alls', { cookie: alice.cookie })).body).toContain(subject);
      expect((await api(`/me/mails/${id}/claim`, { member: alice, method: 'POST' })).body).toEqual({
        mailId: id,
        coins: 20,
      });
      const list = await get('/admin/mail', { cookie });
      expect(list.body).toContain(subject);

      const canceled = await postForm('/admin/mail', { intent: 'cancel', id: String(id) }, { cookie });
      expect(canceled.status).toBe(200);
      expect(canceled.body).toContain('取り消しました');
      expect((await api(`/me/mails/${id}`, { member: bob })).status).toBe(404);
      expect((await postForm('/admin/mail', { intent: 'cancel', id: String(id) }, { cookie })).status).toBe(409);
    });
  },
);
