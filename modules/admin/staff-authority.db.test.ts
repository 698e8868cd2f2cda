// Nobody grants what they do not hold (issue 28, decision 050), on a real database: the whole matrix
// (every permission held alone, trying to give every other one and the admin role), staff giving
// exactly what they hold, admin changes waiting for a second admin (self-approval refused, applied once
// under two connections, with its entries), the command line's bootstrap, and every refusal audited.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { adminAuditLog, outboundMessages, staffInvitations, staffPermissions, users } from '#db/schema';
import { createMemberWithSession } from '#modules/identity';
import {
  ADMIN_PERMISSIONS,
  adminAccessOf,
  approveStaffRoleRequest,
  commandLineOperator,
  grantStaffDirectly,
  inviteStaff,
  listPendingStaffRoleRequests,
  rejectStaffRoleRequest,
  revokeInvitation,
  revokeStaff,
  setStaffAccess,
  type AdminPermission,
  type Operator,
} from '#modules/admin';

const handle = useTestDatabase('staff-authority', { poolSize: 4 });
const site = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const request = { requestId: 'req-authority', address: '203.0.113.7' };

async function member(role = 'user', permissions: readonly string[] = [], twoFactor = true) {
  const id = randomUUID();
  const email = `${id}@example.jp`;
  await createMemberWithSession(handle.db, {
    id,
    name: 'テスト',
    email,
    sessionToken: randomUUID(),
    sessionExpiresAt: new Date(Date.now() + 86_400_000),
  });
  await handle.db.update(users).set({ role, twoFactorEnabled: twoFactor, emailVerified: true }).where(eq(users.id, id));
  if (permissions.length)
    await handle.db
      .insert(staffPermissions)
      .values(permissions.map((permission) => ({ memberId: id, permission, grantedBy: 'fixture' })));
  return { id, email };
}

async function operatorFor(id: string): Promise<Operator> {
  const access = await adminAccessOf(handle.db, id, request);
  if (!access.ok) throw new Error(`not an operator: ${access.reason}`);
  return access.operator;
}

/** What someone holds, read back from the database. */
async function accessOf(id: string) {
  const [row] = await handle.db.select({ role: users.role }).from(users).where(eq(users.id, id));
  const rows = await handle.db
    .select({ permission: staffPermissions.permission })
    .from(staffPermissions)
    .where(eq(staffPermissions.memberId, id));
  return { role: row!.role, permissions: rows.map((r) => r.permission).sort() };
}

const refusedEntriesBy = async (actorId: string) =>
  handle.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.actorId, actorId), like(adminAuditLog.action, '%.refused')));

describe('the command line', () => {
  it('makes the first admins at once, and asks the admins once there are two who can approve', async () => {
    await handle.db.update(users).set({ role: 'user' }).where(eq(users.role, 'admin'));
    const cli = commandLineOperator();
    const first = await member();
    const second = await member();
    const third = await member();
    expect(await grantStaffDirectly(handle.db, cli, first.id, { role: 'admin', permissions: [] })).toEqual({
      ok: true,
      value: null,
    });
    expect(await grantStaffDirectly(handle.db, cli, second.id, { role: 'admin', permissions: [] })).toEqual({
      ok: true,
      value: null,
    });
    const waiting = await grantStaffDirectly(handle.db, cli, third.id, { role: 'admin', permissions: [] });
    if (!waiting.ok || !waiting.value) throw new Error(`should wait: ${JSON.stringify(waiting)}`);
    expect((await accessOf(third.id)).role).toBe('user');
    // The command line is nobody's second pair of eyes: it cannot approve; an admin can.
    expect(await approveStaffRoleRequest(handle.db, cli, waiting.value.requestId, site)).toMatchObject({
      code: 'STAFF_REQUEST_APPROVER_NOT_ADMIN',
    });
    expect(
      await approveStaffRoleRequest(handle.db, await operatorFor(first.id), waiting.value.requestId, site),
    ).toMatchObject({ ok: true, value: { status: 'applied' } });
    expect((await accessOf(third.id)).role).toBe('admin');
    // Staff with permissions stay immediate for the command line (it holds every permission).
    const desk = await member();
    expect(
      await grantStaffDirectly(handle.db, cli, desk.id, { role: 'staff', permissions: ['shipping:read'] }),
    ).toEqual({ ok: true, value: null });
  });
});

describe('the authority matrix', () => {
  it('refuses staff holding only P every other permission and the admin role, and changes nothing', async () => {
    const admin = await member('admin');
    const target = await member('staff');
    const invitation = await inviteStaff(handle.db, await operatorFor(admin.id), site, {
      email: `pending-admin-${randomUUID()}@example.jp`,
      role: 'staff',
      permissions: [...ADMIN_PERMISSIONS],
    });
    if (!invitation.ok || !('invitationId' in invitation.value)) throw new Error('invitation');
    const invitationsBefore = await handle.db.select({ n: sql<number>`count(*)::int` }).from(staffInvitations);
    let attempts = 0;
    for (const held of ADMIN_PERMISSIONS) {
      const actor = await member('staff', [held]);
      const operator = await operatorFor(actor.id);
      const expected = held === 'staff:write' ? undefined : 'PERMISSION_DENIED';
      for (const wanted of ADMIN_PERMISSIONS.filter((p) => p !== held)) {
        const viaAccess = await setStaffAccess(handle.db, operator, target.id, {
          role: 'staff',
          permissions: [wanted],
        });
        expect(viaAccess, `${held} → ${wanted}`).toMatchObject({ ok: false, code: expected ?? 'STAFF_GRANT_NOT_HELD' });
        const viaInvite = await inviteStaff(handle.db, operator, site, {
          email: `x-${randomUUID()}@example.jp`,
          role: 'staff',
          permissions: [wanted],
        });
        expect(viaInvite, `invite ${held} → ${wanted}`).toMatchObject({
          ok: false,
          code: expected ?? 'STAFF_GRANT_NOT_HELD',
        });
        attempts += 2;
      }
      const adminRole = expected ?? 'STAFF_ADMIN_ROLE_NOT_HELD';
      expect(await setStaffAccess(handle.db, operator, target.id, { role: 'admin', permissions: [] })).toMatchObject({
        code: adminRole,
      });
      expect(
        await inviteStaff(handle.db, operator, site, {
          email: `y-${randomUUID()}@example.jp`,
          role: 'admin',
          permissions: [],
        }),
      ).toMatchObject({ code: adminRole });
      // Taking away follows the same rule: an admin, or an invitation offering more, is out of reach.
      expect(await setStaffAccess(handle.db, operator, admin.id, { role: 'staff', permissions: [] })).toMatchObject({
        code: adminRole,
      });
      expect(await revokeStaff(handle.db, operator, admin.id)).toMatchObject({ code: adminRole });
      expect(await revokeInvitation(handle.db, operator, invitation.value.invitationId)).toMatchObject({
        code: expected ?? 'STAFF_TARGET_HOLDS_MORE',
      });
      attempts += 5;
      // Every attempt is in the log as refused, with its code.
      const entries = await refusedEntriesBy(actor.id);
      expect(entries, held).toHaveLength(ADMIN_PERMISSIONS.length - 1 + ADMIN_PERMISSIONS.length - 1 + 5);
      expect(
        entries.every((e) => (e.after as { code: string }).code === (expected ?? (e.after as { code: string }).code)),
      ).toBe(true);
    }
    expect(attempts).toBe(ADMIN_PERMISSIONS.length * (2 * (ADMIN_PERMISSIONS.length - 1) + 5));
    expect(await accessOf(target.id)).toEqual({ role: 'staff', permissions: [] });
    expect(await accessOf(admin.id)).toEqual({ role: 'admin', permissions: [] });
    expect(await handle.db.select({ n: sql<number>`count(*)::int` }).from(staffInvitations)).toEqual(invitationsBefore);
    expect(await listPendingStaffRoleRequests(handle.db, 100)).toEqual([]);
  });

  it('lets staff with staff:write give exactly what they hold, and touch only those holding no more', async () => {
    const held: AdminPermission[] = ['staff:write', 'shipping:read', 'shipping:write'];
    const lead = await member('staff', held);
    const operator = await operatorFor(lead.id);
    const junior = await member('staff', ['shipping:read']);
    expect(
      await setStaffAccess(handle.db, operator, junior.id, {
        role: 'staff',
        permissions: ['shipping:read', 'shipping:write'],
      }),
    ).toEqual({ ok: true, value: null });
    expect(await accessOf(junior.id)).toEqual({ role: 'staff', permissions: ['shipping:read', 'shipping:write'] });
    expect(
      await setStaffAccess(handle.db, operator, junior.id, {
        role: 'staff',
        permissions: ['shipping:read', 'coins:grant'],
      }),
    ).toMatchObject({ code: 'STAFF_GRANT_NOT_HELD', details: { permissions: ['coins:grant'] } });
    expect(await accessOf(junior.id)).toEqual({ role: 'staff', permissions: ['shipping:read', 'shipping:write'] });
    const invited = await inviteStaff(handle.db, operator, site, {
      email: `desk-${randomUUID()}@example.jp`,
      role: 'staff',
      permissions: held,
    });
    if (!invited.ok || !('invitationId' in invited.value)) throw new Error('invite');
    expect(await revokeInvitation(handle.db, operator, invited.value.invitationId)).toEqual({ ok: true, value: null });

    // Someone holding a permission the lead does not is out of reach, to change or to remove.
    const senior = await member('staff', ['shipping:read', 'coins:grant']);
    expect(await setStaffAccess(handle.db, operator, senior.id, { role: 'staff', permissions: [] })).toMatchObject({
      code: 'STAFF_TARGET_HOLDS_MORE',
      details: { permissions: ['coins:grant'] },
    });
    expect(await revokeStaff(handle.db, operator, senior.id)).toMatchObject({ code: 'STAFF_TARGET_HOLDS_MORE' });
    expect(await accessOf(senior.id)).toEqual({ role: 'staff', permissions: ['coins:grant', 'shipping:read'] });
    expect(await revokeStaff(handle.db, operator, junior.id)).toEqual({ ok: true, value: null });
    expect((await accessOf(junior.id)).role).toBe('user');
    // The refusals are in the log with their reason and what was asked.
    expect(await refusedEntriesBy(lead.id)).toMatchObject([
      {
        action: 'staff.permissions.refused',
        targetId: junior.id,
        after: { code: 'STAFF_GRANT_NOT_HELD', attempt: { permissions: ['shipping:read', 'coins:grant'] } },
      },
      { action: 'staff.permissions.refused', targetId: senior.id, after: { code: 'STAFF_TARGET_HOLDS_MORE' } },
      { action: 'staff.revoke.refused', targetId: senior.id, after: { code: 'STAFF_TARGET_HOLDS_MORE' } },
    ]);
  });
});

describe('admin changes wait for a second admin', () => {
  it('queues a promotion, refuses self-approval, and applies it on another admin’s approval with its entries', async () => {
    const asker = await member('admin');
    const approver = await member('admin');
    const staff = await member('staff', ['shipping:read']);
    const waiting = await setStaffAccess(handle.db, await operatorFor(asker.id), staff.id, {
      role: 'admin',
      permissions: [],
    });
    if (!waiting.ok || !waiting.value) throw new Error(`should wait: ${JSON.stringify(waiting)}`);
    const { requestId } = waiting.value;
    expect(await accessOf(staff.id)).toEqual({ role: 'staff', permissions: ['shipping:read'] });
    // One pending request per person.
    expect(
      await setStaffAccess(handle.db, await operatorFor(approver.id), staff.id, { role: 'admin', permissions: [] }),
    ).toMatchObject({ code: 'STAFF_REQUEST_PENDING' });
    expect(await approveStaffRoleRequest(handle.db, await operatorFor(asker.id), requestId, site)).toMatchObject({
      code: 'STAFF_REQUEST_SELF_APPROVAL',
    });
    expect(await rejectStaffRoleRequest(handle.db, await operatorFor(asker.id), requestId, '')).toMatchObject({
      code: 'STAFF_REQUEST_SELF_APPROVAL',
    });
    // Staff, even with staff:write, do not decide.
    const lead = await member('staff', [...ADMIN_PERMISSIONS]);
    expect(await approveStaffRoleRequest(handle.db, await operatorFor(lead.id), requestId, site)).toMatchObject({
      code: 'STAFF_REQUEST_APPROVER_NOT_ADMIN',
    });
    expect(await accessOf(staff.id)).toEqual({ role: 'staff', permissions: ['shipping:read'] });

    expect(await approveStaffRoleRequest(handle.db, await operatorFor(approver.id), requestId, site)).toMatchObject({
      ok: true,
      value: { status: 'applied' },
    });
    expect(await accessOf(staff.id)).toEqual({ role: 'admin', permissions: [] });
    const entries = await handle.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, staff.id), sql`${adminAuditLog.action} not like '%.refused'`))
      .orderBy(adminAuditLog.id);
    expect(entries).toMatchObject([
      { action: 'staff.role.request', actorId: asker.id, after: { requestId, role: 'admin', status: 'pending' } },
      { action: 'staff.role.approve', actorId: approver.id, after: { requestId, status: 'applied' } },
      {
        action: 'staff.permissions',
        actorId: approver.id,
        before: { role: 'staff', permissions: ['shipping:read'] },
        after: { role: 'admin', requestId },
      },
    ]);
    // The approval and the change share one transaction (its start time).
    expect(entries[1]!.at.getTime()).toBe(entries[2]!.at.getTime());
    expect(await approveStaffRoleRequest(handle.db, await operatorFor(approver.id), requestId, site)).toMatchObject({
      code: 'STAFF_REQUEST_NOT_PENDING',
      details: { status: 'applied' },
    });
  });

  it('mails an admin invitation only once approved, lets the subject not decide about themselves, and rejects', async () => {
    const a = await member('admin');
    const b = await member('admin');
    const email = `new-admin-${randomUUID()}@example.jp`;
    const asked = await inviteStaff(handle.db, await operatorFor(a.id), site, {
      email,
      role: 'admin',
      permissions: [],
    });
    if (!asked.ok || !('requestId' in asked.value)) throw new Error('should wait');
    const mails = () => handle.db.select().from(outboundMessages).where(eq(outboundMessages.recipient, email));
    expect(await mails()).toEqual([]);
    expect(
      await approveStaffRoleRequest(handle.db, await operatorFor(b.id), asked.value.requestId, site),
    ).toMatchObject({
      ok: true,
    });
    expect(await mails()).toHaveLength(1);

    // B asks to remove A: A may not decide about their own access; a third admin rejects it.
    const removal = await revokeStaff(handle.db, await operatorFor(b.id), a.id);
    if (!removal.ok || !removal.value) throw new Error('should wait');
    expect(await rejectStaffRoleRequest(handle.db, await operatorFor(a.id), removal.value.requestId, '')).toMatchObject(
      {
        code: 'STAFF_REQUEST_OWN_ACCESS',
      },
    );
    const c = await member('admin');
    expect(
      await rejectStaffRoleRequest(handle.db, await operatorFor(c.id), removal.value.requestId, '必要ありません'),
    ).toMatchObject({ ok: true, value: { status: 'rejected', decisionNote: '必要ありません' } });
    expect((await accessOf(a.id)).role).toBe('admin');
  });

  it('does not apply a request whose subject changed since, and keeps it pending', async () => {
    const a = await member('admin');
    const b = await member('admin');
    const staff = await member('staff');
    const asked = await setStaffAccess(handle.db, await operatorFor(a.id), staff.id, {
      role: 'admin',
      permissions: [],
    });
    if (!asked.ok || !asked.value) throw new Error('should wait');
    await revokeStaff(handle.db, await operatorFor(b.id), staff.id);
    expect(
      await approveStaffRoleRequest(handle.db, await operatorFor(b.id), asked.value.requestId, site),
    ).toMatchObject({
      code: 'STAFF_REQUEST_OUTDATED',
      details: { role: 'user' },
    });
    expect((await accessOf(staff.id)).role).toBe('user');
    expect((await listPendingStaffRoleRequests(handle.db, 100)).map((r) => r.id)).toContain(asked.value.requestId);
  });

  it('applies once when two admins approve at the same moment (needs PostgreSQL: two connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const asker = await member('admin');
    const [x, y] = [await member('admin'), await member('admin')];
    const staff = await member('staff', ['members:read']);
    const asked = await setStaffAccess(handle.db, await operatorFor(asker.id), staff.id, {
      role: 'admin',
      permissions: [],
    });
    if (!asked.ok || !asked.value) throw new Error('should wait');
    const [byX, byY] = await Promise.all([
      approveStaffRoleRequest(handle.db, await operatorFor(x.id), asked.value.requestId, site),
      approveStaffRoleRequest(handle.db, await operatorFor(y.id), asked.value.requestId, site),
    ]);
    expect([byX, byY].map((o) => (o.ok ? 'ok' : o.code)).sort()).toEqual(['STAFF_REQUEST_NOT_PENDING', 'ok']);
    const applied = await handle.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, staff.id), eq(adminAuditLog.action, 'staff.permissions')));
    expect(applied).toHaveLength(1);
    expect(await accessOf(staff.id)).toEqual({ role: 'admin', permissions: [] });
  });
});
