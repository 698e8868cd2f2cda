// The member console's actions on a real database (decision 026): coin adjustments are ledger entries
// with a reason, applied at once up to the threshold and otherwise only after another admin approves
// (once, even when two admins approve at once; never by the requester); a negative adjustment never
// makes a balance negative; a ban ends every session and the shop's session reads refuse the member;
// holds, notes and the rules of who may act on whom; each change with its audit entry.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES, createMemberWithCoins } from '#tests/fixtures';
import { digestOf } from '#tests/audit-digest';
import { adminAuditLog, coinLedger, sessions, users } from '#db/schema';
import { createMemberWithSession, memberQueryOf, searchMembers } from '#modules/identity';
import { memberOfSessionToken } from '#modules/identity/server';
import { getBalance } from '#modules/wallet';
import { purchaseHoldOf, getPurchaseStanding, declareAge, DEFAULT_PAYMENT_RULES } from '#modules/payments';
import {
  addMemberNoteAsOperator,
  adjustCoinsAsOperator,
  adminAccessOf,
  approveCoinAdjustment,
  banMemberAsOperator,
  clearPurchaseHoldAsOperator,
  commandLineOperator,
  holdMemberAsOperator,
  holdReasonOf,
  listMemberNotes,
  listPendingCoinAdjustments,
  rejectCoinAdjustment,
  revokeMemberSessionsAsOperator,
  unbanMemberAsOperator,
  type Operator,
} from '#modules/admin';

/** The shop the restriction notices name (decision 084). */
const site = { name: 'テストショップ', origin: 'http://localhost:3000' };

const handle = useTestDatabase('admin-members', { poolSize: 4 });
const request = { requestId: 'req-m', address: '203.0.113.7' };
const rules = { approvalThreshold: 10_000, lifetimes: TEST_RULES.coinLifetimes };
const policy = { countries: ['JP'] };

async function account(options: { role?: string; name?: string; phone?: string } = {}) {
  const id = randomUUID().replaceAll('-', '');
  const token = randomUUID();
  await createMemberWithSession(handle.db, {
    id,
    name: options.name ?? 'テスト',
    email: `${id}@example.jp`,
    sessionToken: token,
    sessionExpiresAt: new Date(Date.now() + 86_400_000),
  });
  await handle.db
    .update(users)
    .set({ role: options.role ?? 'user', twoFactorEnabled: true, phoneNumber: options.phone ?? null })
    .where(eq(users.id, id));
  return { id, token, email: `${id}@example.jp` };
}

async function operatorFor(id: string): Promise<Operator> {
  const access = await adminAccessOf(handle.db, id, request);
  if (!access.ok) throw new Error(`not an operator: ${access.reason}`);
  return access.operator;
}

async function staffWith(permissions: string[]) {
  const a = await account({ role: 'staff' });
  const { staffPermissions } = await import('#db/schema');
  if (permissions.length)
    await handle.db
      .insert(staffPermissions)
      .values(permissions.map((permission) => ({ memberId: a.id, permission, grantedBy: 'test' })));
  return { ...a, operator: await operatorFor(a.id) };
}

async function admin() {
  const a = await account({ role: 'admin' });
  return { ...a, operator: await operatorFor(a.id) };
}

const actionsOn = async (memberId: string) =>
  (
    await handle.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetType, 'member'), eq(adminAuditLog.targetId, memberId)))
      .orderBy(asc(adminAuditLog.id))
  ).map((r) => r.action);

/** The member's entries (before and after as stored), oldest first. */
const entriesOn = (memberId: string) =>
  handle.db
    .select({ action: adminAuditLog.action, before: adminAuditLog.before, after: adminAuditLog.after })
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetType, 'member'), eq(adminAuditLog.targetId, memberId)))
    .orderBy(asc(adminAuditLog.id));

const key = () => randomUUID().replaceAll('-', '');

describe('coin adjustments', () => {
  it('applies a small adjustment at once as one ledger entry with its reason, once per form key', async () => {
    const member = await createMemberWithCoins(handle.db, { free: 500 });
    const { operator } = await staffWith(['coins:grant']);
    const form = { kind: 'free' as const, amount: 300, reason: 'お詫び', key: key() };
    const first = await adjustCoinsAsOperator(handle.db, operator, member, form, rules);
    expect(first).toMatchObject({ ok: true, value: { replay: false, adjustment: { status: 'applied' } } });
    const again = await adjustCoinsAsOperator(handle.db, operator, member, form, rules);
    expect(again).toMatchObject({ ok: true, value: { replay: true } });
    expect((await getBalance(handle.db, member)).free).toBe(800);
    const entries = await handle.db.select().from(coinLedger).where(eq(coinLedger.memberId, member));
    const adjustment = entries.filter((e) => e.reason === 'adjustment');
    expect(adjustment).toHaveLength(1);
    expect(adjustment[0]).toMatchObject({ amount: 300, memo: 'お詫び', counterAccount: 'adjustment', kind: 'free' });
    expect(await actionsOn(member)).toEqual(['coins.adjust']);
    // The reason stays in the ledger (and on the adjustment); the append-only log keeps its digest only.
    const [audited] = await entriesOn(member);
    expect(audited!.after).toMatchObject({ amount: 300, reason: digestOf('お詫び') });
    expect(JSON.stringify(audited)).not.toContain('お詫び');
    // The same key with another amount is refused, and nothing moves.
    expect(await adjustCoinsAsOperator(handle.db, operator, member, { ...form, amount: 301 }, rules)).toMatchObject({
      code: 'ADJUSTMENT_KEY_REUSED',
    });
    expect((await getBalance(handle.db, member)).free).toBe(800);
  });

  it('takes coins back of one kind only, and never below zero', async () => {
    const member = await createMemberWithCoins(handle.db, { paid: 1000, free: 200 });
    const { operator } = await staffWith(['coins:grant']);
    const tooMuch = await adjustCoinsAsOperator(
      handle.db,
      operator,
      member,
      { kind: 'free', amount: -201, reason: '誤付与の取消', key: key() },
      rules,
    );
    expect(tooMuch).toMatchObject({ ok: false, code: 'ADJUSTMENT_EXCEEDS_BALANCE', details: { balance: 200 } });
    expect(await getBalance(handle.db, member)).toMatchObject({ paid: 1000, free: 200 });
    expect(await actionsOn(member)).toEqual([]);
    const taken = await adjustCoinsAsOperator(
      handle.db,
      operator,
      member,
      { kind: 'free', amount: -200, reason: '誤付与の取消', key: key() },
      rules,
    );
    expect(taken.ok).toBe(true);
    expect(await getBalance(handle.db, member)).toMatchObject({ paid: 1000, free: 0 });
    const entry = await handle.db
      .select()
      .from(coinLedger)
      .where(and(eq(coinLedger.memberId, member), eq(coinLedger.reason, 'adjustment')));
    expect(entry).toMatchObject([{ amount: -200, kind: 'free', memo: '誤付与の取消', freeAfter: 0, paidAfter: 1000 }]);
  });

  it('refuses without coins:grant, and for a member who does not exist', async () => {
    const member = await createMemberWithCoins(handle.db, { free: 10 });
    const { operator } = await staffWith(['members:write']);
    expect(
      await adjustCoinsAsOperator(
        handle.db,
        operator,
        member,
        { kind: 'free', amount: 5, reason: 'x', key: key() },
        rules,
      ),
    ).toMatchObject({ code: 'PERMISSION_DENIED' });
    const { operator: granter } = await staffWith(['coins:grant']);
    expect(
      await adjustCoinsAsOperator(
        handle.db,
        granter,
        'nobody',
        { kind: 'free', amount: 5, reason: 'x', key: key() },
        rules,
      ),
    ).toMatchObject({ code: 'MEMBER_NOT_FOUND' });
    // Nobody adjusts their own coins, however few.
    const self = await admin();
    expect(
      await adjustCoinsAsOperator(
        handle.db,
        self.operator,
        self.id,
        { kind: 'free', amount: 1, reason: 'x', key: key() },
        rules,
      ),
    ).toMatchObject({ code: 'MEMBER_SELF_ACTION' });
  });

  it('waits above the threshold for another admin: the requester cannot approve, staff cannot, approval applies once', async () => {
    const member = await createMemberWithCoins(handle.db, { paid: 100 });
    const requester = await admin();
    const request = await adjustCoinsAsOperator(
      handle.db,
      requester.operator,
      member,
      { kind: 'paid', amount: 20_000, reason: '決済の二重計上の補填', key: key() },
      rules,
    );
    expect(request).toMatchObject({ ok: true, value: { adjustment: { status: 'pending' } } });
    const id = request.ok ? request.value.adjustment.id : '';
    expect((await getBalance(handle.db, member)).paid).toBe(100);
    expect((await listPendingCoinAdjustments(handle.db, 100)).map((a) => a.id)).toContain(id);

    expect(await approveCoinAdjustment(handle.db, requester.operator, id, rules)).toMatchObject({
      code: 'ADJUSTMENT_SELF_APPROVAL',
    });
    expect(await rejectCoinAdjustment(handle.db, requester.operator, id, '')).toMatchObject({
      code: 'ADJUSTMENT_SELF_APPROVAL',
    });
    const { operator: staff } = await staffWith(['coins:grant']);
    expect(await approveCoinAdjustment(handle.db, staff, id, rules)).toMatchObject({
      code: 'ADJUSTMENT_APPROVER_NOT_ADMIN',
    });
    expect(await approveCoinAdjustment(handle.db, commandLineOperator(), id, rules)).toMatchObject({
      code: 'ADJUSTMENT_APPROVER_NOT_ADMIN',
    });
    expect((await getBalance(handle.db, member)).paid).toBe(100);

    const approver = await admin();
    expect(await approveCoinAdjustment(handle.db, approver.operator, id, rules)).toMatchObject({
      ok: true,
      value: { status: 'applied', decidedLabel: approver.email },
    });
    expect((await getBalance(handle.db, member)).paid).toBe(20_100);
    expect(await approveCoinAdjustment(handle.db, approver.operator, id, rules)).toMatchObject({
      code: 'ADJUSTMENT_NOT_PENDING',
      details: { status: 'applied' },
    });
    expect((await getBalance(handle.db, member)).paid).toBe(20_100);
    expect(await actionsOn(member)).toEqual(['coins.adjust.request', 'coins.adjust.approve', 'coins.adjust']);
  });

  it('rejects: nothing moves, and the request cannot be approved afterwards', async () => {
    const member = await createMemberWithCoins(handle.db, { free: 50_000 });
    const requester = await staffWith(['coins:grant']);
    const request = await adjustCoinsAsOperator(
      handle.db,
      requester.operator,
      member,
      { kind: 'free', amount: -30_000, reason: '不正取得分の回収', key: key() },
      rules,
    );
    const id = request.ok ? request.value.adjustment.id : '';
    const approver = await admin();
    expect(await rejectCoinAdjustment(handle.db, approver.operator, id, '根拠不足')).toMatchObject({
      ok: true,
      value: { status: 'rejected', decisionNote: '根拠不足' },
    });
    expect(await approveCoinAdjustment(handle.db, approver.operator, id, rules)).toMatchObject({
      code: 'ADJUSTMENT_NOT_PENDING',
      details: { status: 'rejected' },
    });
    expect((await getBalance(handle.db, member)).free).toBe(50_000);
    expect(await actionsOn(member)).toEqual(['coins.adjust.request', 'coins.adjust.reject']);
  });

  it('refuses a large debit beyond the balance when asked, and again at approval if the coins were spent meanwhile', async () => {
    const member = await createMemberWithCoins(handle.db, { free: 40_000 });
    const requester = await admin();
    expect(
      await adjustCoinsAsOperator(
        handle.db,
        requester.operator,
        member,
        { kind: 'free', amount: -40_001, reason: '回収', key: key() },
        rules,
      ),
    ).toMatchObject({ code: 'ADJUSTMENT_EXCEEDS_BALANCE' });
    const request = await adjustCoinsAsOperator(
      handle.db,
      requester.operator,
      member,
      { kind: 'free', amount: -40_000, reason: '回収', key: key() },
      rules,
    );
    const id = request.ok ? request.value.adjustment.id : '';
    // Meanwhile a small adjustment takes some coins: the large one no longer fits.
    await adjustCoinsAsOperator(
      handle.db,
      requester.operator,
      member,
      { kind: 'free', amount: -1, reason: '端数', key: key() },
      rules,
    );
    const approver = await admin();
    expect(await approveCoinAdjustment(handle.db, approver.operator, id, rules)).toMatchObject({
      code: 'ADJUSTMENT_EXCEEDS_BALANCE',
      details: { balance: 39_999 },
    });
    expect((await listPendingCoinAdjustments(handle.db, 100)).map((a) => a.id)).toContain(id);
    expect((await getBalance(handle.db, member)).free).toBe(39_999);
    await rejectCoinAdjustment(handle.db, approver.operator, id, '');
  });

  it('applies once when two admins approve at once (needs PostgreSQL: two connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const member = await createMemberWithCoins(handle.db, { free: 1 });
    const requester = await staffWith(['coins:grant']);
    const request = await adjustCoinsAsOperator(
      handle.db,
      requester.operator,
      member,
      { kind: 'free', amount: 50_000, reason: 'キャンペーン補填', key: key() },
      rules,
    );
    const id = request.ok ? request.value.adjustment.id : '';
    const [a, b] = [await admin(), await admin()];
    for (let round = 0; round < 1; round++) {
      const outcomes = await Promise.all([
        approveCoinAdjustment(handle.db, a.operator, id, rules),
        approveCoinAdjustment(handle.db, b.operator, id, rules),
      ]);
      expect(outcomes.map((o) => (o.ok ? 'ok' : o.code)).sort()).toEqual(['ADJUSTMENT_NOT_PENDING', 'ok']);
    }
    expect((await getBalance(handle.db, member)).free).toBe(50_001);
    const entries = await handle.db
      .select()
      .from(coinLedger)
      .where(eq(coinLedger.idemKey, `adjust:${id}`));
    expect(entries).toHaveLength(1);
    expect(await actionsOn(member)).toEqual(['coins.adjust.request', 'coins.adjust.approve', 'coins.adjust']);
  });

  it('credits once when the same form is submitted twice at once (needs PostgreSQL: two connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const member = await createMemberWithCoins(handle.db, { free: 1 });
    const { operator } = await staffWith(['coins:grant']);
    const form = { kind: 'free' as const, amount: 700, reason: '二重送信', key: key() };
    const outcomes = await Promise.all([
      adjustCoinsAsOperator(handle.db, operator, member, form, rules),
      adjustCoinsAsOperator(handle.db, operator, member, form, rules),
    ]);
    expect(outcomes.map((o) => o.ok && o.value.replay).sort()).toEqual([false, true]);
    expect((await getBalance(handle.db, member)).free).toBe(701);
    expect(await actionsOn(member)).toEqual(['coins.adjust']);
  });
});

describe('ban, sessions and hold', () => {
  it('bans: every session ends, the session reads refuse the member, the entry records it; unban lifts it', async () => {
    const member = await account();
    const { operator } = await staffWith(['members:write']);
    expect(await memberOfSessionToken(handle.db, member.token)).not.toBeNull();
    const banned = await banMemberAsOperator(handle.db, operator, member.id, {
      reason: '規約違反',
      expiresAt: null,
      category: 'terms_other',
      site,
    });
    expect(banned).toEqual({ ok: true, value: { sessionsRevoked: 1 } });
    expect(await handle.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect(await memberOfSessionToken(handle.db, member.token)).toBeNull();
    const [row] = await handle.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ banned: true, banReason: '規約違反', banExpires: null });
    // A session made anyhow (better-auth refuses to make one for a banned member) still reads as signed out.
    const token = randomUUID();
    await handle.db
      .insert(sessions)
      .values({ id: randomUUID(), token, userId: member.id, expiresAt: new Date(Date.now() + 86_400_000) });
    expect(await memberOfSessionToken(handle.db, token)).toBeNull();

    expect(await unbanMemberAsOperator(handle.db, operator, member.id)).toEqual({ ok: true, value: { lifted: true } });
    expect(await memberOfSessionToken(handle.db, token)).not.toBeNull();
    expect(await unbanMemberAsOperator(handle.db, operator, member.id)).toEqual({ ok: true, value: { lifted: false } });
    expect(await actionsOn(member.id)).toEqual(['member.ban', 'member.unban']);
    // The ban's reason lives on the member's row (退会 replaces it); the log keeps its digest only.
    const [ban, unban] = await entriesOn(member.id);
    expect(ban!.after).toMatchObject({ banned: true, banReason: digestOf('規約違反') });
    expect(unban!.before).toMatchObject({ banned: true, banReason: digestOf('規約違反') });
    expect(JSON.stringify([ban, unban])).not.toContain('規約違反');
  });

  it('revokes every session of a member, and refuses self, staff targets for staff, and deleted members', async () => {
    const member = await account();
    const staff = await staffWith(['members:write']);
    expect(await revokeMemberSessionsAsOperator(handle.db, staff.operator, member.id)).toEqual({
      ok: true,
      value: { sessionsRevoked: 1 },
    });
    expect(await memberOfSessionToken(handle.db, member.token)).toBeNull();
    expect(await revokeMemberSessionsAsOperator(handle.db, staff.operator, staff.id)).toMatchObject({
      code: 'MEMBER_SELF_ACTION',
    });
    const colleague = await staffWith([]);
    const anAdmin = await admin();
    for (const target of [colleague.id, anAdmin.id]) {
      expect(
        await banMemberAsOperator(handle.db, staff.operator, target, {
          reason: 'x',
          expiresAt: null,
          category: 'terms_other',
          site,
        }),
      ).toMatchObject({
        code: 'MEMBER_STAFF_PROTECTED',
      });
      expect(
        await holdMemberAsOperator(handle.db, staff.operator, target, 'x', { category: 'terms_other', site }),
      ).toMatchObject({
        code: 'MEMBER_STAFF_PROTECTED',
      });
    }
    // An admin may ban a staff account (and it can no longer open the admin area: its sessions are gone).
    expect(
      await banMemberAsOperator(handle.db, anAdmin.operator, colleague.id, {
        reason: '退職',
        expiresAt: null,
        category: 'terms_other',
        site,
      }),
    ).toEqual({
      ok: true,
      value: { sessionsRevoked: 1 },
    });
    expect(
      await banMemberAsOperator(handle.db, anAdmin.operator, anAdmin.id, {
        reason: 'x',
        expiresAt: null,
        category: 'terms_other',
        site,
      }),
    ).toMatchObject({
      code: 'MEMBER_SELF_ACTION',
    });
    const gone = await account();
    await handle.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    expect(await unbanMemberAsOperator(handle.db, anAdmin.operator, gone.id)).toMatchObject({ code: 'MEMBER_DELETED' });
    expect(
      await banMemberAsOperator(handle.db, staff.operator, 'nobody', {
        reason: 'x',
        expiresAt: null,
        category: 'terms_other',
        site,
      }),
    ).toMatchObject({
      code: 'MEMBER_NOT_FOUND',
    });
    const reader = await staffWith(['members:read']);
    expect(
      await banMemberAsOperator(handle.db, reader.operator, member.id, {
        reason: 'x',
        expiresAt: null,
        category: 'terms_other',
        site,
      }),
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });

  it('holds purchases and shipping with the operator’s reason in the entry, keeps the age question open, and clears', async () => {
    const member = await account();
    const { operator } = await staffWith(['members:write']);
    expect(
      await holdMemberAsOperator(handle.db, operator, member.id, '本人確認中', { category: 'identity_check', site }),
    ).toEqual({
      ok: true,
      value: { placed: true },
    });
    expect(await purchaseHoldOf(handle.db, member.id)).toMatchObject({ reason: 'operator' });
    const standing = await getPurchaseStanding(handle.db, member.id, DEFAULT_PAYMENT_RULES);
    expect(standing).toMatchObject({ hold: 'operator', declared: false });
    // The member's own answer is still taken (the hold's row did not answer for them).
    expect(await declareAge(handle.db, member.id, true)).toEqual({ declaredMinor: true });
    expect(
      await holdMemberAsOperator(handle.db, operator, member.id, 'again', { category: 'identity_check', site }),
    ).toEqual({
      ok: true,
      value: { placed: false },
    });
    expect(await clearPurchaseHoldAsOperator(handle.db, operator, member.id)).toEqual({
      ok: true,
      value: { cleared: true },
    });
    expect(await purchaseHoldOf(handle.db, member.id)).toBeNull();
    expect((await getPurchaseStanding(handle.db, member.id, DEFAULT_PAYMENT_RULES)).declaredMinor).toBe(true);
    const [entry] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, member.id), eq(adminAuditLog.action, 'member.hold')));
    // The reason is a staff note (redacted by 退会); the entry keeps its digest and names the note.
    expect(entry?.after).toEqual({
      hold: 'operator',
      reason: digestOf('本人確認中'),
      noteId: expect.any(Number),
      category: 'identity_check',
      restrictionId: expect.any(String),
    });
    const notes = await listMemberNotes(handle.db, member.id, { limit: 5 });
    expect(notes.items).toMatchObject([
      { id: (entry!.after as { noteId: number }).noteId, text: '購入保留の理由: 本人確認中' },
    ]);
    expect(await holdReasonOf(handle.db, member.id, entry!.after)).toBe('本人確認中');
    // An entry written before the digest (the reason as text) still reads.
    expect(await holdReasonOf(handle.db, member.id, { hold: 'operator', reason: '旧記録' })).toBe('旧記録');
    expect(await actionsOn(member.id)).toEqual(['member.hold', 'member.hold.clear']);
  });
});

describe('notes and search', () => {
  it('adds notes (audited) and lists them newest first, paged', async () => {
    const member = await account();
    const { operator } = await staffWith(['members:write']);
    for (const text of ['一件目', '二件目', '三件目'])
      expect((await addMemberNoteAsOperator(handle.db, operator, member.id, text)).ok).toBe(true);
    const first = await listMemberNotes(handle.db, member.id, { limit: 2 });
    expect(first.items.map((n) => n.text)).toEqual(['三件目', '二件目']);
    const rest = await listMemberNotes(handle.db, member.id, { limit: 2, before: first.nextBefore! });
    expect(rest).toMatchObject({ items: [{ text: '一件目' }], nextBefore: null });
    expect(await actionsOn(member.id)).toEqual(['member.note', 'member.note', 'member.note']);
    // Each entry names its note and keeps the text's digest, never the text (the note is what 退会 redacts).
    const entries = await entriesOn(member.id);
    expect(entries.map((e) => e.after)).toEqual(
      [...first.items, ...rest.items].reverse().map((note) => ({ noteId: note.id, text: digestOf(note.text) })),
    );
    expect(JSON.stringify(entries)).not.toMatch(/一件目|二件目|三件目/);
  });

  it('finds a member by id, email (any case), phone as typed, and the start of a nickname', async () => {
    const nick = `検索${randomUUID().slice(0, 6)}`;
    const member = await account({ name: `${nick}さん`, phone: '+819087654321' });
    const page = { limit: 20, offset: 0 };
    const ids = async (text: string) =>
      (await searchMembers(handle.db, memberQueryOf(text, policy), page)).items.map((m) => m.id);
    expect(await ids(member.id)).toEqual([member.id]);
    expect(await ids(member.email.toUpperCase())).toEqual([member.id]);
    expect(memberQueryOf('０９０-８７６５-４３２１', policy)).toEqual({ by: 'phone', phone: '+819087654321' });
    expect(await ids('090-8765-4321')).toEqual([member.id]);
    expect(await ids(nick.toLowerCase())).toEqual([member.id]);
    expect(await ids('%')).not.toContain(member.id);
    expect(await ids('nobody@example.jp')).toEqual([]);
    const newest = await searchMembers(handle.db, memberQueryOf('', policy), { limit: 1, offset: 0 });
    expect(newest.items).toHaveLength(1);
    expect(newest.hasMore).toBe(true);
  });
});
