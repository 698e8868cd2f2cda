// Operators' mails with presents on a real database (decision 052): a present above the per-member most is
// refused; the recipients are counted again at sending and a grown audience asks again; up to the threshold
// the mail goes out at once, above it it waits for another admin (never the requester, never staff), whose
// approval sends it once even when two admins approve at once; a scheduled one waits too; every step audited.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { adminAuditLog, mails, mailSendRequests, users } from '#db/schema';
import { countMembersJoinedBefore, createMemberWithSession } from '#modules/identity';
import { paragraph } from '#modules/content';
import {
  adminAccessOf,
  approveMailRequest,
  listPendingMailRequests,
  rejectMailRequest,
  sendMailAsOperator,
  sendTestMailAsOperator,
  type MailRecipientCounter,
  type Operator,
} from '#modules/admin';

const handle = useTestDatabase('admin-mail-sends', { poolSize: 4 });
const rules = { maxCoinsPerMember: 3_000, approvalThresholdCoins: 10_000 };
// As the shop counts 全員 (server/mail-segments.ts counts each segment; server/mail-segments.db.test.ts): one
// for a personal mail, else every member who had joined.
const countRecipients: MailRecipientCounter = async (db, to, at) =>
  to.audience === 'personal' ? 1 : countMembersJoinedBefore(db, at);

async function account(role = 'user') {
  const id = randomUUID().replaceAll('-', '');
  await createMemberWithSession(handle.db, {
    id,
    name: 'テスト',
    email: `${id}@example.jp`,
    sessionToken: randomUUID(),
    sessionExpiresAt: new Date(Date.now() + 86_400_000),
  });
  await handle.db.update(users).set({ role, twoFactorEnabled: true }).where(eq(users.id, id));
  return id;
}

async function operatorOf(role: 'admin' | 'staff', permissions: string[] = []): Promise<Operator> {
  const id = await account(role);
  if (permissions.length) {
    const { staffPermissions } = await import('#db/schema');
    await handle.db
      .insert(staffPermissions)
      .values(permissions.map((permission) => ({ memberId: id, permission, grantedBy: 'test' })));
  }
  const access = await adminAccessOf(handle.db, id, { requestId: 'req-mail', address: '203.0.113.9' });
  if (!access.ok) throw new Error(access.reason);
  return access.operator;
}

const broadcast = (coins: number | null, sendAt = new Date()) => ({
  to: { audience: 'broadcast' as const, segment: { kind: 'all' as const } },
  subject: `お知らせ ${randomUUID().slice(0, 8)}`,
  body: [paragraph('いつもありがとうございます。')],
  attachment: coins ? { coins, claimUntil: new Date(sendAt.getTime() + 7 * 86_400_000) } : null,
  sendAt,
});
const membersNow = () => countMembersJoinedBefore(handle.db, new Date());
const auditOf = (targetId: string) =>
  handle.db
    .select({ action: adminAuditLog.action, after: adminAuditLog.after })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, targetId))
    .orderBy(adminAuditLog.id);
const mailsWithSubject = (subject: string) => handle.db.select().from(mails).where(eq(mails.subject, subject));

describe('sending a confirmed mail', () => {
  it('refuses a present above the per-member most and writes nothing', async () => {
    const operator = await operatorOf('staff', ['mail:write']);
    const draft = broadcast(3_001);
    const done = await sendMailAsOperator(
      handle.db,
      operator,
      draft,
      { recipients: await membersNow(), coinsPerMember: 3_001 },
      randomUUID(),
      rules,
      countRecipients,
    );
    expect(done).toMatchObject({ ok: false, code: 'MAIL_PRESENT_OVER_CAP', details: { coins: 3_001, cap: 3_000 } });
    expect(await mailsWithSubject(draft.subject)).toEqual([]);
  });

  it('sends at once up to the threshold, counting the recipients again, with the figures in its audit entry', async () => {
    const operator = await operatorOf('staff', ['mail:write']);
    const recipients = await membersNow();
    const coins = Math.min(rules.maxCoinsPerMember, Math.floor(rules.approvalThresholdCoins / recipients));
    const draft = broadcast(coins);
    const done = await sendMailAsOperator(
      handle.db,
      operator,
      draft,
      { recipients, coinsPerMember: coins },
      randomUUID(),
      rules,
      countRecipients,
    );
    if (!done.ok) throw new Error(done.code);
    expect(done.value.request).toMatchObject({ status: 'sent', recipients, totalCoins: recipients * coins });
    const [mail] = await mailsWithSubject(draft.subject);
    expect(mail).toMatchObject({ id: done.value.request.mailId, attachmentCoins: coins, audience: 'broadcast' });
    expect(await auditOf(String(mail!.id))).toEqual([
      {
        action: 'mail.broadcast',
        after: expect.objectContaining({ recipients, coinsPerMember: coins, totalCoins: recipients * coins }),
      },
    ]);
  });

  it('asks again instead of sending when the audience grew beyond what was confirmed, or the present changed', async () => {
    const operator = await operatorOf('staff', ['mail:write']);
    const confirmed = await membersNow();
    await account(); // a member joins between the confirmation and the send
    const draft = broadcast(10);
    const grown = await sendMailAsOperator(
      handle.db,
      operator,
      draft,
      { recipients: confirmed, coinsPerMember: 10 },
      randomUUID(),
      rules,
      countRecipients,
    );
    expect(grown).toMatchObject({
      ok: false,
      code: 'MAIL_CONFIRMATION_STALE',
      details: { recipients: confirmed + 1, confirmedRecipients: confirmed, totalCoins: (confirmed + 1) * 10 },
    });
    const otherPresent = await sendMailAsOperator(
      handle.db,
      operator,
      draft,
      { recipients: confirmed + 1, coinsPerMember: 5 },
      randomUUID(),
      rules,
      countRecipients,
    );
    expect(otherPresent).toMatchObject({ ok: false, code: 'MAIL_CONFIRMATION_STALE' });
    expect(await mailsWithSubject(draft.subject)).toEqual([]);
    // A smaller audience than confirmed is within what the operator accepted.
    const fewer = await sendMailAsOperator(
      handle.db,
      operator,
      draft,
      { recipients: confirmed + 5, coinsPerMember: 10 },
      randomUUID(),
      rules,
      countRecipients,
    );
    expect(fewer.ok).toBe(true);
  });

  it('sends once when the same confirmation is submitted twice', async () => {
    const operator = await operatorOf('staff', ['mail:write']);
    const draft = broadcast(null);
    const key = randomUUID();
    const confirmed = { recipients: await membersNow(), coinsPerMember: 0 };
    const first = await sendMailAsOperator(handle.db, operator, draft, confirmed, key, rules, countRecipients);
    const again = await sendMailAsOperator(handle.db, operator, draft, confirmed, key, rules, countRecipients);
    expect([first.ok && first.value.replay, again.ok && again.value.replay]).toEqual([false, true]);
    expect(await mailsWithSubject(draft.subject)).toHaveLength(1);
  });
});

describe('a second admin approves a costly present', () => {
  async function pendingRequest(sendAt = new Date()) {
    const requester = await operatorOf('admin');
    const draft = broadcast(3_000, sendAt);
    const recipients = await membersNow();
    const done = await sendMailAsOperator(
      handle.db,
      requester,
      draft,
      { recipients, coinsPerMember: 3_000 },
      randomUUID(),
      rules,
      countRecipients,
    );
    if (!done.ok) throw new Error(done.code);
    return { requester, draft, request: done.value.request };
  }
  const figuresNow = async () => ({ recipients: await membersNow(), coinsPerMember: 3_000 });

  it('keeps a mail above the threshold pending, unsent, until an admin other than the requester approves', async () => {
    const { requester, draft, request } = await pendingRequest();
    expect(request).toMatchObject({ status: 'pending', mailId: null });
    expect(request.totalCoins).toBeGreaterThan(rules.approvalThresholdCoins);
    expect(await mailsWithSubject(draft.subject)).toEqual([]);
    expect((await listPendingMailRequests(handle.db, 100)).map((r) => r.id)).toContain(request.id);

    const self = await approveMailRequest(handle.db, requester, request.id, await figuresNow(), rules, countRecipients);
    expect(self).toMatchObject({ ok: false, code: 'MAIL_REQUEST_SELF_APPROVAL' });
    const staff = await operatorOf('staff', ['mail:write']);
    const notAdmin = await approveMailRequest(handle.db, staff, request.id, await figuresNow(), rules, countRecipients);
    expect(notAdmin).toMatchObject({ ok: false, code: 'MAIL_REQUEST_APPROVER_NOT_ADMIN' });
    expect(await mailsWithSubject(draft.subject)).toEqual([]);

    const approver = await operatorOf('admin');
    const approved = await approveMailRequest(
      handle.db,
      approver,
      request.id,
      await figuresNow(),
      rules,
      countRecipients,
    );
    if (!approved.ok) throw new Error(approved.code);
    const [mail] = await mailsWithSubject(draft.subject);
    expect(approved.value).toMatchObject({ status: 'sent', mailId: mail!.id });
    expect((await auditOf(request.id)).map((e) => e.action)).toEqual(['mail.request', 'mail.approve']);
    expect(await auditOf(String(mail!.id))).toEqual([
      { action: 'mail.broadcast', after: expect.objectContaining({ requestId: request.id, coinsPerMember: 3_000 }) },
    ]);
  });

  it('asks the approver again when the audience grew since the page showed it', async () => {
    const { request } = await pendingRequest();
    const shown = await figuresNow();
    await account();
    const approver = await operatorOf('admin'); // joins too: the audience is now shown + 2
    const grown = await approveMailRequest(handle.db, approver, request.id, shown, rules, countRecipients);
    expect(grown).toMatchObject({
      ok: false,
      code: 'MAIL_CONFIRMATION_STALE',
      details: { recipients: shown.recipients + 2 },
    });
    const [row] = await handle.db.select().from(mailSendRequests).where(eq(mailSendRequests.id, request.id));
    expect(row!.status).toBe('pending');
  });

  it('does not send a scheduled mail before approval; approved late, it goes out now with its whole claim window', async () => {
    const sendAt = new Date(Date.now() + 3_600_000);
    const { draft, request } = await pendingRequest(sendAt);
    expect(await mailsWithSubject(draft.subject)).toEqual([]);
    const approver = await operatorOf('admin');
    const approvedAt = new Date(sendAt.getTime() + 3_600_000); // approved an hour after its send time
    const approved = await approveMailRequest(
      handle.db,
      approver,
      request.id,
      await figuresNow(),
      rules,
      countRecipients,
      approvedAt,
    );
    expect(approved.ok).toBe(true);
    const [mail] = await mailsWithSubject(draft.subject);
    expect(mail!.sendAt.getTime()).toBe(approvedAt.getTime());
    expect(mail!.claimUntil!.getTime() - mail!.sendAt.getTime()).toBe(
      draft.attachment!.claimUntil.getTime() - sendAt.getTime(),
    );
  });

  it('rejects: nothing is sent, the rejection is audited, and it cannot be approved afterwards', async () => {
    const { draft, request } = await pendingRequest();
    const approver = await operatorOf('admin');
    const rejected = await rejectMailRequest(handle.db, approver, request.id, '金額が大きすぎるため');
    expect(rejected).toMatchObject({ ok: true, value: { status: 'rejected' } });
    const late = await approveMailRequest(handle.db, approver, request.id, await figuresNow(), rules, countRecipients);
    expect(late).toMatchObject({ ok: false, code: 'MAIL_REQUEST_NOT_PENDING', details: { status: 'rejected' } });
    expect(await mailsWithSubject(draft.subject)).toEqual([]);
    expect((await auditOf(request.id)).map((e) => e.action)).toEqual(['mail.request', 'mail.reject']);
  });

  it('sends once when two admins approve at once (needs PostgreSQL: two connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const { draft, request } = await pendingRequest();
    const [a, b] = [await operatorOf('admin'), await operatorOf('admin')];
    const figures = await figuresNow();
    const outcomes = await Promise.all([
      approveMailRequest(handle.db, a, request.id, figures, rules, countRecipients),
      approveMailRequest(handle.db, b, request.id, figures, rules, countRecipients),
    ]);
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.code)).sort()).toEqual(['MAIL_REQUEST_NOT_PENDING', 'ok']);
    expect(await mailsWithSubject(draft.subject)).toHaveLength(1);
    const approvals = await handle.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, request.id), inArray(adminAuditLog.action, ['mail.approve'])));
    expect(approvals).toHaveLength(1);
  });
});

describe('a test send', () => {
  it('goes to the operator own mailbox, marked as a test, with the present named but never attached', async () => {
    const operator = await operatorOf('staff', ['mail:write']);
    const draft = broadcast(500);
    const sent = await sendTestMailAsOperator(handle.db, operator, draft);
    if (!sent.ok) throw new Error(sent.code);
    const [mail] = await handle.db.select().from(mails).where(eq(mails.id, sent.value.mailId));
    expect(mail).toMatchObject({
      audience: 'personal',
      memberId: operator.memberId,
      subject: `【テスト送信】${draft.subject}`,
      attachmentCoins: null,
    });
    expect(JSON.stringify(mail!.body)).toContain('500コイン');
    expect((await auditOf(String(sent.value.mailId))).map((e) => e.action)).toEqual(['mail.test']);
  });
});
