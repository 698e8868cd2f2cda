// The fraud signals page over HTTP, as the built shop answers it (decision 029): members meet
// not-found; staff without signals:read get 403 on the page and the action; a reader sees the
// evidence in Japanese with links to the members but no decision buttons, and is refused a decision
// (403), and sees them on the member's page too; an operator with members:write holds a member from the page (audited with the hold), and bad
// input answers 4xx in Japanese, never a 500.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, fraudSignals, users } from '#db/schema';
import { purchaseHoldOf } from '#modules/payments';
import { memberCode } from '#modules/identity';
import { grantStaff } from '#tests/staff';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

async function signedUp(label: string, name = 'テスト会員') {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name, email, password: 'password-1234', agreeToTerms: 'on' });
  expect(page.status).toBe(302);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, cookie: cookieFrom(page.headers), id: row!.id };
}

async function staffWith(label: string, permissions: string[]) {
  const member = await signedUp(label);
  await grantStaff(handle!.db, member.email, permissions);
  return member;
}

const unescape = (html: string) => html.replaceAll('<!-- -->', '').replace(/&amp;/g, '&');

describe.skipIf(!databaseUrl)(
  `the fraud signals page${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop)'}`,
  () => {
    it('lists, refuses without permission, decides with members:write and answers bad input in Japanese', async () => {
      const db = handle!.db;
      const [a, b] = [await signedUp('sig-a', '共有A'), await signedUp('sig-b', '共有B')];
      const [signal] = await db
        .insert(fraudSignals)
        .values({
          kind: 'shared_address',
          memberId: a.id,
          key: `test-${a.id}`,
          evidence: { count: 2, members: [a.id, b.id] },
          firstSeen: new Date(),
          lastSeen: new Date(),
        })
        .returning();
      const id = String(signal!.id);

      // Members: not found. Staff without signals:read: 403, page and action.
      expect((await get('/admin/signals', { cookie: a.cookie })).status).toBe(404);
      const auditor = await staffWith('sig-auditor', ['audit:read']);
      expect((await get('/admin/signals', { cookie: auditor.cookie })).status).toBe(403);
      expect((await postForm('/admin/signals', { id, decision: 'clear' }, { cookie: auditor.cookie })).status).toBe(
        403,
      );
      expect((await get('/admin', { cookie: auditor.cookie })).body).not.toContain('/admin/signals');

      // A reader: the evidence and the links, no buttons; a decision is refused (403) and changes nothing.
      const reader = await staffWith('sig-reader', ['signals:read', 'members:read']);
      const page = await get('/admin/signals?kind=shared_address', { cookie: reader.cookie });
      expect(page.status).toBe(200);
      const text = unescape(page.body);
      expect(text).toContain('同じ配送先に2アカウント');
      expect(text).toContain(`/admin/members/${a.id}`);
      expect(text).toContain(`/admin/members/${b.id}`);
      // Each member as staff see them: the number マイページ shows and the nickname, never only the id.
      for (const [who, nickname] of [
        [a, '共有A'],
        [b, '共有B'],
      ] as const)
        expect(text).toMatch(new RegExp(`data-member-tag="${memberCode(who.id)}"[^>]*>.*?${nickname}`));
      // Without members:read the tags are there, but not the links to pages the operator cannot open.
      const signalsOnly = await staffWith('sig-only', ['signals:read']);
      const unlinked = unescape((await get('/admin/signals?kind=shared_address', { cookie: signalsOnly.cookie })).body);
      expect(unlinked).toContain(`data-member-tag="${memberCode(a.id)}"`);
      expect(unlinked).not.toContain(`/admin/members/${a.id}`);
      expect(text).not.toContain('購入・発送を停止</button>');
      expect((await get('/admin', { cookie: reader.cookie })).body).toContain('/admin/signals');
      // The member's page lists the member's signals too.
      const memberPage = await get(`/admin/members/${a.id}`, { cookie: reader.cookie });
      expect(memberPage.status).toBe(200);
      expect(unescape(memberPage.body)).toContain('同じ配送先に2アカウント');
      const denied = await postForm(
        '/admin/signals',
        { id, decision: 'hold', note: '確認中' },
        { cookie: reader.cookie },
      );
      expect(denied.status).toBe(403);
      expect(unescape(denied.body)).toContain('この操作を行う権限がありません');
      expect((await db.select().from(fraudSignals).where(eq(fraudSignals.id, signal!.id)))[0]!.status).toBe('open');

      // Bad input: 4xx with Japanese words, never a 500.
      const decider = await staffWith('sig-decider', ['signals:read', 'members:write']);
      const noReason = await postForm('/admin/signals', { id, decision: 'hold', note: '' }, { cookie: decider.cookie });
      expect(noReason.status).toBe(400);
      expect(unescape(noReason.body)).toContain('購入・発送停止の理由を入力してください。');
      const badDecision = await postForm('/admin/signals', { id, decision: 'erase' }, { cookie: decider.cookie });
      expect(badDecision.status).toBe(400);
      expect(unescape(badDecision.body)).toContain('判断（問題なし・購入停止・利用停止）を選んでください。');
      const noSignal = await postForm('/admin/signals', { id: 'abc', decision: 'clear' }, { cookie: decider.cookie });
      expect(noSignal.status).toBe(400);
      expect(unescape(noSignal.body)).toContain('判断するシグナルを一覧から選んでください。');
      const unknown = await postForm(
        '/admin/signals',
        { id: '999999999', decision: 'clear' },
        { cookie: decider.cookie },
      );
      expect(unknown.status).toBe(404);
      expect(unescape(unknown.body)).toContain('そのシグナルは見つかりません。');
      const badFilter = await get('/admin/signals?kind=nonsense', { cookie: decider.cookie });
      expect(badFilter.status).toBe(400);
      expect(unescape(badFilter.body)).toContain('種類を一覧から選んでください。');

      // The decision: the member is held, the signal says so, both audited.
      const held = await postForm(
        '/admin/signals',
        { id, decision: 'hold', note: '同一住所の確認中' },
        { cookie: decider.cookie },
      );
      expect(held.status).toBe(200);
      expect(unescape(held.body)).toContain('会員の購入・発送を停止しました。');
      expect(await purchaseHoldOf(db, a.id)).not.toBeNull();
      expect((await db.select().from(fraudSignals).where(eq(fraudSignals.id, signal!.id)))[0]).toMatchObject({
        status: 'held',
        decidedLabel: decider.email,
      });
      const entries = await db
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.actorLabel, decider.email)));
      expect(entries.map((e) => [e.action, e.targetId]).sort()).toEqual(
        [
          ['member.hold', a.id],
          ['signal.decide', id],
        ].sort(),
      );
      // The audit log names the operator and the member the same way, and finds the operator by number.
      const audit = unescape(
        (await get(`/admin/audit?actor=${memberCode(decider.id).toLowerCase()}`, { cookie: auditor.cookie })).body,
      );
      expect(audit).toContain('member.hold');
      expect(audit).toContain(`data-member-tag="${memberCode(decider.id)}"`);
      expect(audit).toMatch(new RegExp(`data-member-tag="${memberCode(a.id)}"[^>]*>.*?共有A`));
      // Held again: refused in Japanese (409), nothing recorded.
      const again = await postForm('/admin/signals', { id, decision: 'hold', note: 'x' }, { cookie: decider.cookie });
      expect(again.status).toBe(409);
      expect(unescape(again.body)).toContain('すでに「購入・発送停止」と判断されています');
    });
  },
);
