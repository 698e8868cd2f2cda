// Due process on a real database (issue 34 item 6, decision 084): an operator's hold or ban tells the member
// its reason category by mail (a ban with a statement link, since a banned member has no session); the member
// appeals once per restriction; another operator decides once, lifting the hold or ban in the same audited
// transaction, and the member is mailed the outcome with the statement. The exactly-once rules hold when two
// requests race (PostgreSQL: two connections).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { adminAuditLog, inquiries, inquiryMessages, outboundMessages, users } from '#db/schema';
import {
  adminAccessOf,
  banMemberAsOperator,
  clearPurchaseHoldAsOperator,
  holdMemberAsOperator,
  resendStatementLinkAsOperator,
  unbanMemberAsOperator,
  type Operator,
} from '#modules/admin';
import {
  createMemberWithSession,
  memberStandingOf,
  restrictionByLink,
  restrictionsOf,
  restrictionsShownTo,
} from '#modules/identity';
import { accountSummaryOf } from '#modules/identity/server';
import { purchaseHoldOf } from '#modules/payments';
import { decideAppealAsOperator, submitAppeal } from './index';

const handle = useTestDatabase('support-appeals', { poolSize: 4 });
const site = { name: 'テストショップ', origin: 'https://shop.example.jp' };
const request = { requestId: 'req-appeal', address: '203.0.113.9' };
const DAY = 86_400_000;

async function account(role = 'user') {
  const id = randomUUID().replaceAll('-', '');
  await createMemberWithSession(handle.db, {
    id,
    name: 'テスト',
    email: `${id}@example.jp`,
    sessionToken: randomUUID(),
    sessionExpiresAt: new Date(Date.now() + DAY),
  });
  await handle.db.update(users).set({ role, twoFactorEnabled: true }).where(eq(users.id, id));
  return { id, email: `${id}@example.jp` };
}

async function operator(): Promise<Operator> {
  const { id } = await account('admin');
  const access = await adminAccessOf(handle.db, id, request);
  if (!access.ok) throw new Error(access.reason);
  return access.operator;
}

const mailsTo = (to: string) =>
  handle.db
    .select({ template: outboundMessages.template, subject: outboundMessages.subject, text: outboundMessages.textBody })
    .from(outboundMessages)
    .where(eq(outboundMessages.recipient, to))
    .orderBy(asc(outboundMessages.createdAt))
    .then((rows) => rows.map((row) => ({ ...row, text: row.text ?? '' })));

const actionsOn = async (memberId: string) =>
  (
    await handle.db
      .select({ action: adminAuditLog.action, after: adminAuditLog.after })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetType, 'member'), eq(adminAuditLog.targetId, memberId)))
      .orderBy(asc(adminAuditLog.id))
  ).map((e) => e.action);

/** The statement link's token, as the member's mail carries it. */
const linkTokenIn = (text: string) => /\/standing\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? null;

describe('restrictions the member is told of', () => {
  it('a hold mails its category and the mypage statement; lifting it ends the restriction', async () => {
    const [by, member] = [await operator(), await account()];
    expect(
      await holdMemberAsOperator(handle.db, by, member.id, '身分証の確認待ち', { category: 'identity_check', site }),
    ).toEqual({ ok: true, value: { placed: true } });
    const [mail] = await mailsTo(member.email);
    expect(mail).toMatchObject({
      template: 'account-restricted',
      subject: '【テストショップ】アカウントの購入・発送の保留のお知らせ',
    });
    expect(mail!.text).toContain('理由の区分: 本人確認のため');
    expect(mail!.text).toContain('https://shop.example.jp/mypage/standing');
    expect(mail!.text).toContain('https://shop.example.jp/account-policy');
    // The staff's own reason never reaches the member.
    expect(mail!.text).not.toContain('身分証の確認待ち');
    expect(linkTokenIn(mail!.text)).toBeNull();
    const [shown] = await restrictionsShownTo(handle.db, member.id);
    expect(shown).toMatchObject({ kind: 'hold', category: 'identity_check', inForce: true, appeal: null });
    // マイページ reads it with the account summary, in the same statement.
    expect((await accountSummaryOf(handle.db, member.id))?.restrictions).toEqual([
      { id: shown!.id, kind: 'hold', category: 'identity_check' },
    ]);
    expect(await clearPurchaseHoldAsOperator(handle.db, by, member.id)).toEqual({ ok: true, value: { cleared: true } });
    expect(await restrictionsShownTo(handle.db, member.id)).toEqual([]);
    expect((await accountSummaryOf(handle.db, member.id))?.restrictions).toEqual([]);
    expect((await restrictionsOf(handle.db, member.id))[0]!.endedAt).not.toBeNull();
  });

  it('a ban mails a statement link that opens only its restriction, expires, and is replaced by a resend', async () => {
    const [by, member] = [await operator(), await account()];
    const until = new Date(Date.now() + 10 * DAY);
    expect(
      await banMemberAsOperator(handle.db, by, member.id, {
        reason: '自動購入ツール',
        expiresAt: until,
        category: 'automation',
        site,
      }),
    ).toMatchObject({ ok: true });
    const [mail] = await mailsTo(member.email);
    expect(mail!.text).toContain('理由の区分: 自動化ツール・不正アクセス');
    const token = linkTokenIn(mail!.text)!;
    expect(token).not.toBeNull();
    const restriction = await restrictionByLink(handle.db, token);
    expect(restriction).toMatchObject({ memberId: member.id, kind: 'ban', category: 'automation', inForce: true });
    expect(restriction!.until?.getTime()).toBe(until.getTime());
    // Nothing else opens it: another token, a malformed one, or the right one after its days.
    expect(await restrictionByLink(handle.db, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await restrictionByLink(handle.db, "' or 1=1 --")).toBeNull();
    expect(await restrictionByLink(handle.db, token, new Date(Date.now() + 32 * DAY))).toBeNull();
    // A resend mails a new link; the old one stops working.
    expect(await resendStatementLinkAsOperator(handle.db, by, member.id, site)).toMatchObject({ ok: true });
    const fresh = linkTokenIn((await mailsTo(member.email))[1]!.text)!;
    expect(fresh).not.toBe(token);
    expect(await restrictionByLink(handle.db, token)).toBeNull();
    expect((await restrictionByLink(handle.db, fresh))?.id).toBe(restriction!.id);
    expect(await actionsOn(member.id)).toEqual(['member.ban', 'member.restriction.link']);
    // Lifting the ban by hand ends the restriction; a resend then has nothing to send.
    await unbanMemberAsOperator(handle.db, by, member.id);
    expect(await resendStatementLinkAsOperator(handle.db, by, member.id, site)).toMatchObject({
      ok: false,
      code: 'RESTRICTION_NOT_FOUND',
    });
  });
});

describe('appeals', () => {
  async function banned() {
    const [by, member] = [await operator(), await account()];
    await banMemberAsOperator(handle.db, by, member.id, {
      reason: '複数アカウント',
      expiresAt: null,
      category: 'multiple_accounts',
      site,
    });
    const [restriction] = await restrictionsOf(handle.db, member.id);
    return { by, member, restriction: restriction! };
  }

  it('takes one appeal per restriction, from its own member only, within the window', async () => {
    const { member, restriction } = await banned();
    const stranger = await account();
    expect(
      await submitAppeal(handle.db, site, { memberId: stranger.id, restrictionId: restriction.id, message: '私です' }),
    ).toMatchObject({ ok: false, code: 'APPEAL_NOT_FOUND' });
    expect(
      await submitAppeal(handle.db, site, {
        memberId: member.id,
        restrictionId: restriction.id,
        message: '家族と同じ住所なだけです。',
        now: new Date(restriction.startedAt.getTime() + 31 * DAY),
      }),
    ).toMatchObject({ ok: false, code: 'APPEAL_WINDOW_CLOSED' });
    const sent = await submitAppeal(handle.db, site, {
      memberId: member.id,
      restrictionId: restriction.id,
      message: '家族と同じ住所なだけです。',
    });
    expect(sent).toMatchObject({ ok: true, reference: expect.stringMatching(/^Q-\d{8}-[0-9A-Z]{4}$/) });
    const reference = (sent as { reference: string }).reference;
    expect(
      await submitAppeal(handle.db, site, { memberId: member.id, restrictionId: restriction.id, message: 'もう一度' }),
    ).toMatchObject({ ok: false, code: 'APPEAL_ALREADY_SENT', details: { reference } });
    const [inquiry] = await handle.db.select().from(inquiries).where(eq(inquiries.reference, reference));
    expect(inquiry).toMatchObject({ memberId: member.id, email: member.email, category: 'appeal', status: 'new' });
    const thread = await handle.db.select().from(inquiryMessages).where(eq(inquiryMessages.inquiryId, inquiry!.id));
    expect(thread.map((m) => [m.author, m.body])).toEqual([['inquirer', '家族と同じ住所なだけです。']]);
    expect((await mailsTo(member.email)).map((m) => m.template)).toEqual(['account-restricted', 'inquiry-received']);
    expect((await restrictionsOf(handle.db, member.id))[0]!.appeal?.inquiryId).toBe(inquiry!.id);
  });

  it('is decided once by another operator: lifting ends the ban, closes the inquiry, mails and audits', async () => {
    const { by, member, restriction } = await banned();
    await submitAppeal(handle.db, site, { memberId: member.id, restrictionId: restriction.id, message: '誤りです' });
    const decision = { outcome: 'lifted' as const, statement: '確認の結果、別の方でした。制限を解除します。' };
    // The operator who banned may not judge their own ban.
    expect(await decideAppealAsOperator(handle.db, by, site, restriction.id, decision)).toMatchObject({
      ok: false,
      code: 'APPEAL_SAME_OPERATOR',
    });
    expect((await memberStandingOf(handle.db, member.id))?.banned).toBe(true);
    const other = await operator();
    expect(await decideAppealAsOperator(handle.db, other, site, restriction.id, decision)).toEqual({
      ok: true,
      value: { outcome: 'lifted', lifted: true },
    });
    expect((await memberStandingOf(handle.db, member.id))?.banned).toBe(false);
    const [after] = await restrictionsOf(handle.db, member.id);
    expect(after).toMatchObject({ inForce: false, appeal: { outcome: 'lifted', statement: decision.statement } });
    const [inquiry] = await handle.db.select().from(inquiries).where(eq(inquiries.id, after!.appeal!.inquiryId));
    expect(inquiry!.status).toBe('closed');
    const mails = await mailsTo(member.email);
    expect(mails.map((m) => m.template)).toEqual(['account-restricted', 'inquiry-received', 'appeal-decided']);
    expect(mails[2]!.text).toContain('結果: 制限を解除');
    expect(mails[2]!.text).toContain(decision.statement);
    expect(await actionsOn(member.id)).toEqual(['member.ban', 'member.appeal.decide']);
    // A decision is never changed.
    expect(
      await decideAppealAsOperator(handle.db, other, site, restriction.id, { outcome: 'upheld', statement: '撤回' }),
    ).toMatchObject({ ok: false, code: 'APPEAL_NOT_OPEN' });
    // The member still sees the outcome on their statement after the ban is gone.
    expect((await restrictionsShownTo(handle.db, member.id))[0]).toMatchObject({ appeal: { outcome: 'lifted' } });
  });

  it('keeps a hold when the appeal is not upheld, and mails a ban that goes on a fresh link', async () => {
    const { member, restriction } = await banned();
    await submitAppeal(handle.db, site, { memberId: member.id, restrictionId: restriction.id, message: '誤りです' });
    expect(
      await decideAppealAsOperator(handle.db, await operator(), site, restriction.id, {
        outcome: 'upheld',
        statement: '同じ端末から5件のアカウントが作成されています。',
      }),
    ).toEqual({ ok: true, value: { outcome: 'upheld', lifted: false } });
    expect((await memberStandingOf(handle.db, member.id))?.banned).toBe(true);
    const decided = (await mailsTo(member.email)).at(-1)!;
    expect(decided.text).toContain('結果: 制限を継続');
    expect(await restrictionByLink(handle.db, linkTokenIn(decided.text)!)).toMatchObject({ id: restriction.id });

    // A held member's appeal lifted: the purchase hold goes too.
    const [by, held] = [await operator(), await account()];
    await holdMemberAsOperator(handle.db, by, held.id, '確認', { category: 'identity_check', site });
    const [hold] = await restrictionsOf(handle.db, held.id);
    await submitAppeal(handle.db, site, { memberId: held.id, restrictionId: hold!.id, message: '本人です' });
    await decideAppealAsOperator(handle.db, await operator(), site, hold!.id, {
      outcome: 'lifted',
      statement: '確認できました。',
    });
    expect(await purchaseHoldOf(handle.db, held.id)).toBeNull();
  });

  it('records one appeal and one decision when two arrive at once (needs PostgreSQL: two connections)', async () => {
    const { member, restriction } = await banned();
    const appeals = await Promise.all(
      ['一通目', '二通目', '三通目'].map((message) =>
        submitAppeal(handle.db, site, { memberId: member.id, restrictionId: restriction.id, message }),
      ),
    );
    expect(appeals.filter((a) => a.ok)).toHaveLength(1);
    expect(appeals.filter((a) => !a.ok).map((a) => (a as { code: string }).code)).toEqual([
      'APPEAL_ALREADY_SENT',
      'APPEAL_ALREADY_SENT',
    ]);
    expect(
      await handle.db
        .select()
        .from(inquiries)
        .where(and(eq(inquiries.memberId, member.id), eq(inquiries.category, 'appeal'))),
    ).toHaveLength(1);
    const [first, second] = [await operator(), await operator()];
    const decisions = await Promise.all([
      decideAppealAsOperator(handle.db, first, site, restriction.id, { outcome: 'lifted', statement: 'A' }),
      decideAppealAsOperator(handle.db, second, site, restriction.id, { outcome: 'upheld', statement: 'B' }),
    ]);
    expect(decisions.filter((d) => d.ok)).toHaveLength(1);
    expect(decisions.find((d) => !d.ok)).toMatchObject({ code: 'APPEAL_NOT_OPEN' });
    expect((await actionsOn(member.id)).filter((a) => a === 'member.appeal.decide')).toHaveLength(1);
    expect((await mailsTo(member.email)).filter((m) => m.template === 'appeal-decided')).toHaveLength(1);
  });
});
