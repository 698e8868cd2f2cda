// The admin foundation on a real database: an admin action and its audit entry commit together or
// not at all, the audit log refuses changes, permissions are checked before anything runs, staff join
// by a mailed invitation (their verified address only, once), and the last admin cannot be removed.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { adminAuditLog, outboundMessages, staffPermissions, users } from '#db/schema';
import { createMemberWithSession } from '#modules/identity';
import { RefusalError, refuse } from '#modules/kernel';
import {
  acceptInvitation,
  adminAccessOf,
  approveStaffRoleRequest,
  commandLineOperator,
  grantStaffDirectly,
  invitationForToken,
  inviteStaff,
  listAuditEntries,
  revokeStaff,
  runAdminAction,
  setStaffAccess,
  type Operator,
} from '#modules/admin';

const handle = useTestDatabase('admin-foundation', { poolSize: 4 });
const site = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const request = { requestId: 'req-1', address: '203.0.113.9' };

async function member(options: { role?: string; twoFactor?: boolean; verified?: boolean; email?: string } = {}) {
  const id = randomUUID();
  const email = options.email ?? `${id}@example.jp`;
  await createMemberWithSession(handle.db, {
    id,
    name: 'テスト',
    email,
    sessionToken: randomUUID(),
    sessionExpiresAt: new Date(Date.now() + 86_400_000),
  });
  await handle.db
    .update(users)
    .set({
      role: options.role ?? 'user',
      twoFactorEnabled: options.twoFactor ?? false,
      emailVerified: options.verified ?? true,
    })
    .where(eq(users.id, id));
  return { id, email };
}

async function operatorFor(id: string): Promise<Operator> {
  const access = await adminAccessOf(handle.db, id, request);
  if (!access.ok) throw new Error(`not an operator: ${access.reason}`);
  return access.operator;
}

const auditOf = async (targetId: string) =>
  handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId));

describe('admin access', () => {
  it('opens only for staff roles with the second factor, with the role’s permissions read fresh', async () => {
    const plain = await member();
    expect(await adminAccessOf(handle.db, plain.id, request)).toEqual({ ok: false, reason: 'not-staff' });
    const noTotp = await member({ role: 'staff' });
    expect(await adminAccessOf(handle.db, noTotp.id, request)).toEqual({ ok: false, reason: 'needs-second-factor' });

    const admin = await member({ role: 'admin', twoFactor: true });
    const staff = await member({ role: 'staff', twoFactor: true });
    await handle.db
      .insert(staffPermissions)
      .values({ memberId: staff.id, permission: 'shipping:read', grantedBy: 'x' });
    expect([...(await operatorFor(admin.id)).permissions]).toContain('staff:write');
    expect([...(await operatorFor(staff.id)).permissions]).toEqual(['shipping:read']);
    // A deleted (tombstoned) staff account never opens it.
    await handle.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, staff.id));
    expect((await adminAccessOf(handle.db, staff.id, request)).ok).toBe(false);
  });
});

describe('runAdminAction', () => {
  it('records the entry in the same transaction as the change, with actor, request and before/after', async () => {
    const admin = await member({ role: 'admin', twoFactor: true });
    const operator = await operatorFor(admin.id);
    const target = randomUUID();
    const done = await runAdminAction(handle.db, operator, 'coins:grant', async () => ({
      value: 42,
      audit: { action: 'test.change', target: { type: 'thing', id: target }, before: { n: 1 }, after: { n: 2 } },
    }));
    expect(done).toEqual({ ok: true, value: 42 });
    expect(await auditOf(target)).toMatchObject([
      {
        actorId: admin.id,
        actorLabel: admin.email,
        permission: 'coins:grant',
        action: 'test.change',
        targetType: 'thing',
        before: { n: 1 },
        after: { n: 2 },
        requestId: 'req-1',
        address: '203.0.113.9',
      },
    ]);
  });

  it('leaves neither change nor entry when the action fails or is refused halfway', async () => {
    const operator = commandLineOperator();
    const victim = await member();
    const target = randomUUID();
    const renamed = async (tx: typeof handle.db) =>
      tx.update(users).set({ name: '変更後' }).where(eq(users.id, victim.id));
    await expect(
      runAdminAction(handle.db, operator, 'members:write', async (tx) => {
        await renamed(tx);
        await tx.execute(sql`select 1/0`);
        return { value: null, audit: { action: 'test.fail', target: { type: 'thing', id: target } } };
      }),
    ).rejects.toThrow();
    const refused = await runAdminAction(handle.db, operator, 'members:write', async (tx) => {
      await renamed(tx);
      throw new RefusalError(refuse('STAFF_NOT_FOUND'));
    });
    expect(refused).toMatchObject({ ok: false, code: 'STAFF_NOT_FOUND' });
    const [row] = await handle.db.select({ name: users.name }).from(users).where(eq(users.id, victim.id));
    expect(row!.name).toBe('テスト');
    expect(await auditOf(target)).toEqual([]);
  });

  it('refuses without the permission before running anything', async () => {
    const staff = await member({ role: 'staff', twoFactor: true });
    await handle.db
      .insert(staffPermissions)
      .values({ memberId: staff.id, permission: 'shipping:read', grantedBy: 'x' });
    let ran = false;
    const outcome = await runAdminAction(handle.db, await operatorFor(staff.id), 'shipping:write', async () => {
      ran = true;
      return { value: null, audit: { action: 'x', target: { type: 'x', id: null } } };
    });
    expect(outcome).toMatchObject({ ok: false, code: 'PERMISSION_DENIED', details: { permission: 'shipping:write' } });
    expect(ran).toBe(false);
  });

  it('keeps the audit log append-only: updates, deletes and truncation are refused', async () => {
    const target = randomUUID();
    await runAdminAction(handle.db, commandLineOperator(), 'audit:read', async () => ({
      value: null,
      audit: { action: 'test.keep', target: { type: 'thing', id: target } },
    }));
    const refusal = async (statement: ReturnType<typeof sql>) => {
      try {
        await handle.db.execute(statement);
        return 'done';
      } catch (error) {
        const cause = (error as { cause?: Error }).cause;
        return String(cause?.message ?? (error as Error).message);
      }
    };
    expect(await refusal(sql`update admin_audit_log set action = 'x' where target_id = ${target}`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`delete from admin_audit_log where target_id = ${target}`)).toMatch(/append-only/);
    expect(await refusal(sql`truncate admin_audit_log`)).toMatch(/append-only/);
    expect(await auditOf(target)).toHaveLength(1);
  });

  it('pages and filters the viewer newest first', async () => {
    const target = randomUUID();
    for (let i = 0; i < 5; i++)
      await runAdminAction(handle.db, commandLineOperator(), 'audit:read', async () => ({
        value: null,
        audit: { action: `paging.step${i}`, target: { type: 'paging', id: target } },
      }));
    const first = await listAuditEntries(handle.db, { targetId: target }, 2);
    expect(first.entries.map((e) => e.action)).toEqual(['paging.step4', 'paging.step3']);
    const second = await listAuditEntries(handle.db, { targetId: target, before: first.nextBefore! }, 2);
    expect(second.entries.map((e) => e.action)).toEqual(['paging.step2', 'paging.step1']);
    const last = await listAuditEntries(handle.db, { targetId: target, before: second.nextBefore! }, 2);
    expect(last).toMatchObject({ entries: [{ action: 'paging.step0' }], nextBefore: null });
    expect((await listAuditEntries(handle.db, { action: 'paging.step3', targetId: target }, 10)).entries).toHaveLength(
      1,
    );
    expect((await listAuditEntries(handle.db, { actor: 'cli:', targetId: target }, 10)).entries).toHaveLength(5);
  });
});

describe('staff by invitation', () => {
  async function invite(email: string, permissions: ('shipping:write' | 'shipping:read')[] = ['shipping:write']) {
    const admin = await member({ role: 'admin', twoFactor: true });
    const invited = await inviteStaff(handle.db, await operatorFor(admin.id), site, {
      email,
      role: 'staff',
      permissions,
    });
    expect(invited.ok).toBe(true);
    const [mail] = await handle.db
      .select()
      .from(outboundMessages)
      .where(eq(outboundMessages.recipient, email))
      .orderBy(sql`created_at desc`)
      .limit(1);
    expect(mail!.subject).toBe('【オリパ ステラ】運営スタッフへの招待');
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail!.textBody!)![1]!;
    return { admin, token };
  }

  it('mails a link that the invited member accepts once, becoming staff with the permissions', async () => {
    const future = await member({ email: `future-${randomUUID()}@example.jp` });
    const { token } = await invite(future.email);
    expect(await invitationForToken(handle.db, token)).toMatchObject({
      role: 'staff',
      permissions: ['shipping:write'],
    });

    const other = await member();
    expect(await acceptInvitation(handle.db, { memberId: other.id, ...request }, token)).toMatchObject({
      ok: false,
      code: 'STAFF_INVITATION_EMAIL_MISMATCH',
    });
    expect(await acceptInvitation(handle.db, { memberId: future.id, ...request }, token)).toEqual({
      ok: true,
      value: { role: 'staff' },
    });
    expect(await acceptInvitation(handle.db, { memberId: future.id, ...request }, token)).toMatchObject({
      code: 'STAFF_INVITATION_INVALID',
    });
    expect(await invitationForToken(handle.db, token)).toBeNull();
    // Staff now, but the admin area waits for the second factor.
    expect(await adminAccessOf(handle.db, future.id, request)).toEqual({ ok: false, reason: 'needs-second-factor' });
    await handle.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, future.id));
    expect([...(await operatorFor(future.id)).permissions]).toEqual(['shipping:write']);
    expect(await auditOf(future.id)).toMatchObject([{ action: 'staff.join', actorId: future.id }]);
  });

  it('refuses an unverified address and an expired link', async () => {
    const unverified = await member({ verified: false, email: `unv-${randomUUID()}@example.jp` });
    const { token } = await invite(unverified.email);
    expect(await acceptInvitation(handle.db, { memberId: unverified.id, ...request }, token)).toMatchObject({
      code: 'STAFF_INVITATION_EMAIL_UNVERIFIED',
    });
    const later = new Date(Date.now() + 8 * 86_400_000);
    await handle.db.update(users).set({ emailVerified: true }).where(eq(users.id, unverified.id));
    expect(await acceptInvitation(handle.db, { memberId: unverified.id, ...request }, token, later)).toMatchObject({
      code: 'STAFF_INVITATION_INVALID',
    });
  });
});

describe('changing and revoking staff', () => {
  it('changes permissions with before and after in the log; nobody changes their own access', async () => {
    const admin = await member({ role: 'admin', twoFactor: true });
    const staff = await member({ role: 'staff', twoFactor: true });
    const operator = await operatorFor(admin.id);
    expect(
      await setStaffAccess(handle.db, operator, staff.id, { role: 'staff', permissions: ['shipping:read'] }),
    ).toEqual({
      ok: true,
      value: null,
    });
    expect(await auditOf(staff.id)).toMatchObject([
      {
        action: 'staff.permissions',
        before: { role: 'staff', permissions: [] },
        after: { permissions: ['shipping:read'] },
      },
    ]);
    expect(await setStaffAccess(handle.db, operator, admin.id, { role: 'staff', permissions: [] })).toMatchObject({
      code: 'STAFF_SELF_CHANGE',
    });
    expect(await revokeStaff(handle.db, operator, staff.id)).toEqual({ ok: true, value: null });
    expect(await adminAccessOf(handle.db, staff.id, request)).toEqual({ ok: false, reason: 'not-staff' });
    expect(await handle.db.select().from(staffPermissions).where(eq(staffPermissions.memberId, staff.id))).toEqual([]);
  });

  it('never leaves the shop without an admin, even when two admins approve each other’s removal at once (needs PostgreSQL: two connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    // Only these two admins: every other admin of this file is made a member first (set-up, in the table).
    const cli = commandLineOperator();
    const a = await member({ role: 'admin', twoFactor: true });
    const b = await member({ role: 'admin', twoFactor: true });
    await handle.db
      .update(users)
      .set({ role: 'user' })
      .where(sql`${users.role} = 'admin' and ${users.id} not in (${a.id}, ${b.id})`);
    // An admin's removal waits for a second admin (decision 050): the command line asks for both,
    // each alone would leave one admin, and each admin approves the other's at the same moment.
    const removeA = await grantStaffDirectly(handle.db, cli, a.id, { role: 'user', permissions: [] });
    const removeB = await grantStaffDirectly(handle.db, cli, b.id, { role: 'user', permissions: [] });
    if (!removeA.ok || !removeA.value || !removeB.ok || !removeB.value) throw new Error('both should wait');
    const [asA, asB] = [await operatorFor(a.id), await operatorFor(b.id)];
    const [byA, byB] = await Promise.all([
      approveStaffRoleRequest(handle.db, asA, removeB.value.requestId, site),
      approveStaffRoleRequest(handle.db, asB, removeA.value.requestId, site),
    ]);
    const outcomes = [byA, byB].map((o) => (o.ok ? 'ok' : o.code)).sort();
    expect(outcomes).toEqual(['STAFF_LAST_ADMIN', 'ok']);
    const admins = await handle.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
    expect(await grantStaffDirectly(handle.db, cli, admins[0]!.id, { role: 'user', permissions: [] })).toMatchObject({
      code: 'STAFF_LAST_ADMIN',
    });
  });
});
