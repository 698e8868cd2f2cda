// Staff management: who is an operator (role in identity, permissions here), invitations by mail,
// permission changes and revocation. Every change goes through runAdminAction (audited in its
// transaction); joining by invitation is recorded with the invitee as the actor.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { listStaffAccounts, setMemberRole, staffAccountOf, staffAccessOf, type StaffAccount } from '#modules/identity';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { ADMIN_PERMISSIONS, adminPermissionSchema, permissionsOfRole, type AdminPermission } from './permissions';
import { runAdminAction, recordAudit, type Operator } from './audit';
import { staffInvitations, staffPermissions } from './schema';

export const STAFF_ROLE_LABELS = { admin: '管理者', staff: 'スタッフ' } as const;
export type StaffRole = keyof typeof STAFF_ROLE_LABELS;

/** How long an invitation link stays valid. */
export const STAFF_INVITATION_DAYS = 7;

/** Whether a member may open the admin area: a staff role, not deleted, with the second factor on. */
export type AdminAccess = { ok: true; operator: Operator } | { ok: false; reason: 'not-staff' | 'needs-second-factor' };

async function grantedPermissions(db: Database, memberId: string): Promise<string[]> {
  const rows = await db
    .select({ permission: staffPermissions.permission })
    .from(staffPermissions)
    .where(eq(staffPermissions.memberId, memberId));
  return rows.map((r) => r.permission);
}

/**
 * The operator a signed-in member is in the admin area, read fresh from the database on every
 * request (a revoked role or permission takes effect at once).
 * @example const access = await adminAccessOf(db, member.id, { requestId, address })
 */
export async function adminAccessOf(
  db: Database,
  memberId: string,
  request: { requestId: string | null; address: string | null },
): Promise<AdminAccess> {
  const account = await staffAccountOf(db, memberId);
  const access = staffAccessOf(
    account && {
      role: account.role,
      twoFactorEnabled: account.twoFactorEnabled,
      deletedAt: account.deleted ? new Date() : null,
    },
  );
  if (!account || access === 'not-staff') return { ok: false, reason: 'not-staff' };
  if (access === 'needs-second-factor') return { ok: false, reason: 'needs-second-factor' };
  const role = account.role as StaffRole;
  return {
    ok: true,
    operator: {
      memberId,
      label: account.email,
      role,
      permissions: permissionsOfRole(role, await grantedPermissions(db, memberId)),
      requestId: request.requestId,
      address: request.address,
    },
  };
}

export interface StaffMember extends StaffAccount {
  role: StaffRole;
  permissions: AdminPermission[];
}

/** Every staff member with their permissions. @example (await listStaff(db)).map((s) => s.email) */
export async function listStaff(db: Database): Promise<StaffMember[]> {
  const accounts = await listStaffAccounts(db);
  const rows = await db.select().from(staffPermissions);
  return accounts.map((a) => ({
    ...a,
    role: a.role as StaffRole,
    permissions: [
      ...permissionsOfRole(
        a.role,
        rows.filter((r) => r.memberId === a.id).map((r) => r.permission),
      ),
    ],
  }));
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: StaffRole;
  permissions: string[];
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Invitations neither accepted, revoked nor expired. */
export async function listPendingInvitations(db: Database, now = new Date()): Promise<PendingInvitation[]> {
  return db
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      role: staffInvitations.role,
      permissions: staffInvitations.permissions,
      invitedBy: staffInvitations.invitedBy,
      createdAt: staffInvitations.createdAt,
      expiresAt: staffInvitations.expiresAt,
    })
    .from(staffInvitations)
    .where(stillOpen(now))
    .orderBy(staffInvitations.createdAt);
}

const roleSchema = z.enum(['admin', 'staff'], { error: '役割を選んでください。' });
const permissionListSchema = z.array(adminPermissionSchema).max(ADMIN_PERMISSIONS.length);

/** The invitation form (the page's action and the command line read it alike). */
export const staffInvitationSchema = z.object({
  email: z.email({ error: 'メールアドレスの形式が正しくありません。' }).trim().toLowerCase().max(254),
  role: roleSchema,
  permissions: permissionListSchema.default([]),
});
export type StaffInvitationInput = z.infer<typeof staffInvitationSchema>;

export const staffPermissionsSchema = z.object({ permissions: permissionListSchema });

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The shape of a mailed token (base64url, 32 bytes); anything else is dead without a query. */
const isInvitationToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** An invitation neither accepted, revoked nor expired at `now`. */
const stillOpen = (now: Date) =>
  and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt), gt(staffInvitations.expiresAt, now));

/**
 * Invites someone to the staff by mail: a link valid for STAFF_INVITATION_DAYS, to be accepted
 * while signed in as a member with that (verified) address. Audited as `staff.invite`.
 * @example await inviteStaff(db, operator, site, { email, role: 'staff', permissions: ['shipping:write'] })
 */
export async function inviteStaff(
  db: Database,
  operator: Operator,
  site: SiteIdentity,
  input: StaffInvitationInput,
  now = new Date(),
): Promise<{ ok: true; value: { invitationId: string } } | Refusal<string>> {
  const token = randomBytes(32).toString('base64url');
  const permissions = input.role === 'admin' ? [] : [...new Set(input.permissions)];
  return runAdminAction(db, operator, 'staff:write', async (tx) => {
    const [row] = await tx
      .insert(staffInvitations)
      .values({
        email: input.email,
        role: input.role,
        permissions,
        tokenHash: hashToken(token),
        invitedBy: operator.label,
        createdAt: now,
        expiresAt: new Date(now.getTime() + STAFF_INVITATION_DAYS * 86_400_000),
      })
      .returning({ id: staffInvitations.id });
    await queueMail(tx, site, {
      to: input.email,
      template: 'staff-invite',
      vars: {
        url: `${site.origin}/admin/join?token=${token}`,
        role: STAFF_ROLE_LABELS[input.role],
        days: String(STAFF_INVITATION_DAYS),
      },
    });
    return {
      value: { invitationId: row!.id },
      audit: {
        action: 'staff.invite',
        target: { type: 'staff_invitation', id: row!.id },
        after: { email: input.email, role: input.role, permissions },
      },
    };
  });
}

/** Withdraws a pending invitation. Audited as `staff.invitation.revoke`. */
export async function revokeInvitation(
  db: Database,
  operator: Operator,
  invitationId: string,
  now = new Date(),
): Promise<{ ok: true; value: null } | Refusal<string>> {
  return runAdminAction(db, operator, 'staff:write', async (tx) => {
    const [row] = await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(staffInvitations.id, invitationId),
          isNull(staffInvitations.acceptedAt),
          isNull(staffInvitations.revokedAt),
        ),
      )
      .returning({ email: staffInvitations.email });
    if (!row) throw new RefusalError(refuse('STAFF_INVITATION_INVALID'));
    return {
      value: null,
      audit: { action: 'staff.invitation.revoke', target: { type: 'staff_invitation', id: invitationId }, before: row },
    };
  });
}

/** What the join page shows before the invitee accepts: the role offered, or why the link is dead. */
export async function invitationForToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<{ email: string; role: StaffRole; permissions: string[] } | null> {
  if (!isInvitationToken(token)) return null;
  const [row] = await db
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.tokenHash, hashToken(token)), stillOpen(now)));
  return row ? { email: row.email, role: row.role, permissions: row.permissions } : null;
}

/**
 * The signed-in member accepts an invitation: their address must be the invited one and verified.
 * Sets the role and permissions once (the row is claimed under its lock), audited as `staff.join`
 * with the invitee as the actor.
 * @example await acceptInvitation(db, { memberId, requestId, address }, token)
 */
export async function acceptInvitation(
  db: Database,
  member: { memberId: string; requestId: string | null; address: string | null },
  token: string,
  now = new Date(),
): Promise<{ ok: true; value: { role: StaffRole } } | Refusal<string>> {
  if (!isInvitationToken(token)) return refuse('STAFF_INVITATION_INVALID');
  try {
    const role = await db.transaction(async (tx) => {
      const [invitation] = await tx
        .select()
        .from(staffInvitations)
        .where(and(eq(staffInvitations.tokenHash, hashToken(token)), stillOpen(now)))
        .for('update');
      if (!invitation) throw new RefusalError(refuse('STAFF_INVITATION_INVALID'));
      const account = await staffAccountOf(tx, member.memberId);
      if (!account || account.deleted) throw new RefusalError(refuse('STAFF_INVITATION_INVALID'));
      if (account.email.toLowerCase() !== invitation.email.toLowerCase())
        throw new RefusalError(refuse('STAFF_INVITATION_EMAIL_MISMATCH', { email: invitation.email }));
      if (!account.emailVerified) throw new RefusalError(refuse('STAFF_INVITATION_EMAIL_UNVERIFIED'));
      // An admin keeps the higher role; a member or staff takes the invitation's.
      const role: StaffRole = account.role === 'admin' ? 'admin' : invitation.role;
      const before = { role: account.role, permissions: await grantedPermissions(tx, member.memberId) };
      await setMemberRole(tx, member.memberId, role);
      await replacePermissions(
        tx,
        member.memberId,
        role === 'admin' ? [] : invitation.permissions,
        invitation.invitedBy,
      );
      await tx
        .update(staffInvitations)
        .set({ acceptedAt: now, acceptedBy: member.memberId })
        .where(eq(staffInvitations.id, invitation.id));
      const actor: Operator = {
        memberId: member.memberId,
        label: account.email,
        role,
        permissions: new Set(),
        requestId: member.requestId,
        address: member.address,
      };
      await recordAudit(tx, actor, 'staff:write', {
        action: 'staff.join',
        target: { type: 'member', id: member.memberId },
        before,
        after: { role, permissions: role === 'admin' ? [] : invitation.permissions, invitation: invitation.id },
      });
      return role;
    });
    return { ok: true, value: { role } };
  } catch (error) {
    if (error instanceof RefusalError) return error.refusal;
    throw error;
  }
}

async function replacePermissions(tx: Database, memberId: string, permissions: readonly string[], grantedBy: string) {
  await tx.delete(staffPermissions).where(eq(staffPermissions.memberId, memberId));
  if (permissions.length)
    await tx
      .insert(staffPermissions)
      .values([...new Set(permissions)].map((permission) => ({ memberId, permission, grantedBy })));
}

/** Refuses a change that would leave the shop without an admin (counted under a lock on the admins). */
async function assertAnotherAdminRemains(tx: Database, memberId: string) {
  const admins = (await listStaffAccounts(tx)).filter((a) => a.role === 'admin' && !a.deleted && a.id !== memberId);
  if (admins.length === 0) throw new RefusalError(refuse('STAFF_LAST_ADMIN'));
}

/** The admin module's lock on staff changes: two admins demoting each other cannot both succeed. */
const lockStaffChanges = (tx: Database) => tx.execute(sql`select pg_advisory_xact_lock(20261124, 1)`);

/**
 * Sets a staff member's role and permissions. An operator cannot change their own; the last admin
 * cannot be demoted. Audited as `staff.permissions` with before and after.
 * @example await setStaffAccess(db, operator, memberId, { role: 'staff', permissions: ['shipping:read'] })
 */
export async function setStaffAccess(
  db: Database,
  operator: Operator,
  memberId: string,
  input: { role: StaffRole; permissions: readonly AdminPermission[] },
): Promise<{ ok: true; value: null } | Refusal<string>> {
  if (operator.memberId === memberId) return refuse('STAFF_SELF_CHANGE');
  return runAdminAction(db, operator, 'staff:write', async (tx) => {
    await lockStaffChanges(tx);
    const account = await staffAccountOf(tx, memberId);
    if (!account || account.deleted || (account.role !== 'admin' && account.role !== 'staff'))
      throw new RefusalError(refuse('STAFF_NOT_FOUND'));
    if (account.role === 'admin' && input.role !== 'admin') await assertAnotherAdminRemains(tx, memberId);
    const permissions = input.role === 'admin' ? [] : [...new Set(input.permissions)];
    const before = { role: account.role, permissions: await grantedPermissions(tx, memberId) };
    await setMemberRole(tx, memberId, input.role);
    await replacePermissions(tx, memberId, permissions, operator.label);
    return {
      value: null,
      audit: {
        action: 'staff.permissions',
        target: { type: 'member', id: memberId },
        before,
        after: { role: input.role, permissions },
      },
    };
  });
}

/**
 * Takes a member off the staff: role back to member, permissions removed (their sessions keep
 * working as a member's; the admin area closes on their next request). Audited as `staff.revoke`.
 * @example await revokeStaff(db, operator, memberId)
 */
export async function revokeStaff(
  db: Database,
  operator: Operator,
  memberId: string,
): Promise<{ ok: true; value: null } | Refusal<string>> {
  if (operator.memberId === memberId) return refuse('STAFF_SELF_CHANGE');
  return runAdminAction(db, operator, 'staff:write', async (tx) => {
    await lockStaffChanges(tx);
    const account = await staffAccountOf(tx, memberId);
    if (!account || (account.role !== 'admin' && account.role !== 'staff'))
      throw new RefusalError(refuse('STAFF_NOT_FOUND'));
    if (account.role === 'admin') await assertAnotherAdminRemains(tx, memberId);
    const before = { role: account.role, permissions: await grantedPermissions(tx, memberId) };
    await setMemberRole(tx, memberId, 'user');
    await replacePermissions(tx, memberId, [], operator.label);
    return {
      value: null,
      audit: { action: 'staff.revoke', target: { type: 'member', id: memberId }, before, after: { role: 'user' } },
    };
  });
}

/**
 * The command line's `staff:grant`: makes a member an admin (or staff with permissions), audited
 * with the command line as the actor. No invitation: whoever runs it holds the database.
 */
export async function grantStaffDirectly(
  db: Database,
  operator: Operator,
  memberId: string,
  input: { role: StaffRole | 'user'; permissions: readonly AdminPermission[] },
): Promise<{ ok: true; value: null } | Refusal<string>> {
  return runAdminAction(db, operator, 'staff:write', async (tx) => {
    await lockStaffChanges(tx);
    const account = await staffAccountOf(tx, memberId);
    if (!account || account.deleted) throw new RefusalError(refuse('STAFF_NOT_FOUND'));
    if (account.role === 'admin' && input.role !== 'admin') await assertAnotherAdminRemains(tx, memberId);
    const permissions = input.role === 'staff' ? [...new Set(input.permissions)] : [];
    const before = { role: account.role, permissions: await grantedPermissions(tx, memberId) };
    await setMemberRole(tx, memberId, input.role);
    await replacePermissions(tx, memberId, permissions, operator.label);
    return {
      value: null,
      audit: {
        action: input.role === 'user' ? 'staff.revoke' : 'staff.permissions',
        target: { type: 'member', id: memberId },
        before,
        after: { role: input.role, permissions },
      },
    };
  });
}
