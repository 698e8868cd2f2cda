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
import { runAdminAction, recordAudit, type AuditRecord, type Operator } from './audit';
import { changesAnAdmin, mayGive, mayTouch, type AuthorityRefusal } from './authority';
import { staffInvitations, staffPermissions, staffRoleRequests, type StaffRoleRequestKind } from './schema';

export const STAFF_ROLE_LABELS = { admin: '管理者', staff: 'スタッフ' } as const;
export type StaffRole = keyof typeof STAFF_ROLE_LABELS;

/** How long an invitation link stays valid. */
export const STAFF_INVITATION_DAYS = 7;

/** Whether a member may open the admin area: a staff role, not deleted, with the second factor on. */
export type AdminAccess = { ok: true; operator: Operator } | { ok: false; reason: 'not-staff' | 'needs-second-factor' };

export async function grantedPermissions(db: Database, memberId: string): Promise<string[]> {
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

/** Throws the refusal of an authority rule (authority.ts), if any. */
function refuseUnless(refusal: AuthorityRefusal | null): void {
  if (refusal) throw new RefusalError(refuse(refusal.code, refusal.details));
}

/**
 * Whether an admin change by this operator waits for a second admin (decision 050): always for an
 * admin; for the command line only once the shop has two admins who can open the admin area (before
 * that it is the bootstrap of the first admins, and a request would have nobody else to approve it).
 */
async function waitsForSecondAdmin(tx: Database, operator: Operator): Promise<boolean> {
  if (operator.role !== 'cli') return true;
  const approvers = (await listStaffAccounts(tx)).filter((a) => a.role === 'admin' && !a.deleted && a.twoFactorEnabled);
  return approvers.length >= 2;
}

/** A change that waits for a second admin: one pending row per subject (STAFF_REQUEST_PENDING). */
export interface StaffRoleRequestInput {
  kind: StaffRoleRequestKind;
  memberId: string | null;
  email: string | null;
  fromRole: string | null;
  role: StaffRole | 'user';
  permissions: readonly string[];
}

/**
 * Files an admin change in the approval queue, in the caller's transaction, and answers its id and
 * the audit entry (`staff.role.request`) the caller records with it.
 */
export async function fileStaffRoleRequest(
  tx: Database,
  operator: Operator,
  input: StaffRoleRequestInput,
): Promise<{ requestId: string; audit: AuditRecord }> {
  const subject = input.kind === 'invite' ? (input.email ?? '').toLowerCase() : (input.memberId ?? '');
  const [row] = await tx
    .insert(staffRoleRequests)
    .values({
      kind: input.kind,
      subject,
      memberId: input.memberId,
      email: input.email,
      fromRole: input.fromRole,
      role: input.role,
      permissions: [...input.permissions],
      status: 'pending',
      requestedBy: operator.memberId,
      requestedLabel: operator.label,
    })
    .onConflictDoNothing()
    .returning({ id: staffRoleRequests.id });
  if (!row) throw new RefusalError(refuse('STAFF_REQUEST_PENDING'));
  return {
    requestId: row.id,
    audit: {
      action: 'staff.role.request',
      target: input.memberId ? { type: 'member', id: input.memberId } : { type: 'staff_role_request', id: row.id },
      before: input.fromRole ? { role: input.fromRole } : undefined,
      after: {
        requestId: row.id,
        kind: input.kind,
        email: input.email,
        role: input.role,
        permissions: input.permissions,
        status: 'pending',
      },
    },
  };
}

/** Writes an invitation and queues its mail, in the caller's transaction; answers its id. */
export async function createInvitation(
  tx: Database,
  invitedBy: string,
  site: SiteIdentity,
  input: { email: string; role: StaffRole; permissions: readonly string[] },
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(staffInvitations)
    .values({
      email: input.email,
      role: input.role,
      permissions: [...input.permissions],
      tokenHash: hashToken(token),
      invitedBy,
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
  return row!.id;
}

/** What a staff change answers: applied at once (null), or waiting for a second admin (its request). */
export type StaffChangeOutcome = { ok: true; value: { requestId: string } | null } | Refusal<string>;

/**
 * Invites someone to the staff by mail: a link valid for STAFF_INVITATION_DAYS, to be accepted
 * while signed in as a member with that (verified) address. Audited as `staff.invite`. Only the
 * permissions the operator holds; an admin invitation is asked by an admin and mailed once a second
 * admin approves it (`staff.role.request`).
 * @example await inviteStaff(db, operator, site, { email, role: 'staff', permissions: ['shipping:write'] })
 */
export async function inviteStaff(
  db: Database,
  operator: Operator,
  site: SiteIdentity,
  input: StaffInvitationInput,
  now = new Date(),
): Promise<{ ok: true; value: { invitationId: string } | { requestId: string } } | Refusal<string>> {
  const permissions = input.role === 'admin' ? [] : [...new Set(input.permissions)];
  const attempt = { email: input.email, role: input.role, permissions };
  return runAdminAction<{ invitationId: string } | { requestId: string }>(
    db,
    operator,
    'staff:write',
    async (tx) => {
      refuseUnless(mayGive(operator, { role: input.role, permissions }));
      if (input.role === 'admin' && (await waitsForSecondAdmin(tx, operator))) {
        const request = await fileStaffRoleRequest(tx, operator, {
          kind: 'invite',
          memberId: null,
          email: input.email,
          fromRole: null,
          role: 'admin',
          permissions: [],
        });
        return { value: { requestId: request.requestId }, audit: request.audit };
      }
      const invitationId = await createInvitation(tx, operator.label, site, { ...input, permissions }, now);
      return {
        value: { invitationId },
        audit: {
          action: 'staff.invite',
          target: { type: 'staff_invitation', id: invitationId },
          after: { email: input.email, role: input.role, permissions },
        },
      };
    },
    { action: 'staff.invite', target: { type: 'staff_invitation', id: null }, attempt },
  );
}

/**
 * Withdraws a pending invitation. Audited as `staff.invitation.revoke`. Like a change of access:
 * only by an operator who holds everything the invitation offers (an admin invitation: an admin).
 * @example await revokeInvitation(db, operator, invitationId)
 */
export async function revokeInvitation(
  db: Database,
  operator: Operator,
  invitationId: string,
  now = new Date(),
): Promise<{ ok: true; value: null } | Refusal<string>> {
  const target = { type: 'staff_invitation', id: invitationId };
  return runAdminAction(
    db,
    operator,
    'staff:write',
    async (tx) => {
      const open = and(
        eq(staffInvitations.id, invitationId),
        isNull(staffInvitations.acceptedAt),
        isNull(staffInvitations.revokedAt),
      );
      const [invitation] = await tx.select().from(staffInvitations).where(open).for('update');
      if (!invitation) throw new RefusalError(refuse('STAFF_INVITATION_INVALID'));
      refuseUnless(mayTouch(operator, { role: invitation.role, permissions: invitation.permissions }));
      await tx.update(staffInvitations).set({ revokedAt: now }).where(open);
      return {
        value: null,
        audit: {
          action: 'staff.invitation.revoke',
          target,
          before: { email: invitation.email, role: invitation.role, permissions: invitation.permissions },
        },
      };
    },
    { action: 'staff.invitation.revoke', target },
  );
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
export async function assertAnotherAdminRemains(tx: Database, memberId: string) {
  const admins = (await listStaffAccounts(tx)).filter((a) => a.role === 'admin' && !a.deleted && a.id !== memberId);
  if (admins.length === 0) throw new RefusalError(refuse('STAFF_LAST_ADMIN'));
}

/** The admin module's lock on staff changes: two admins demoting each other cannot both succeed. */
export const lockStaffChanges = (tx: Database) => tx.execute(sql`select pg_advisory_xact_lock(20261124, 1)`);

/**
 * Sets a member's role and permissions, in the caller's transaction, and answers the entry's
 * before and after. `grantedBy` is kept on each permission row.
 */
export async function applyStaffAccess(
  tx: Database,
  memberId: string,
  fromRole: string,
  input: { role: StaffRole | 'user'; permissions: readonly string[] },
  grantedBy: string,
): Promise<Pick<AuditRecord, 'before' | 'after'>> {
  const permissions = input.role === 'staff' ? [...new Set(input.permissions)] : [];
  const before = { role: fromRole, permissions: await grantedPermissions(tx, memberId) };
  await setMemberRole(tx, memberId, input.role);
  await replacePermissions(tx, memberId, permissions, grantedBy);
  return { before, after: input.role === 'user' ? { role: 'user' } : { role: input.role, permissions } };
}

/** The account a staff change targets, under the staff lock, with what it holds now. */
async function staffTarget(tx: Database, memberId: string, staffOnly: boolean) {
  const account = await staffAccountOf(tx, memberId);
  if (!account || account.deleted || (staffOnly && account.role !== 'admin' && account.role !== 'staff'))
    throw new RefusalError(refuse('STAFF_NOT_FOUND'));
  return { account, held: { role: account.role, permissions: await grantedPermissions(tx, memberId) } };
}

/**
 * Sets a staff member's role and permissions. An operator cannot change their own, nor anyone who
 * holds what they do not, nor give what they do not hold; the last admin cannot be demoted. A change
 * that makes or unmakes an admin waits for a second admin (decision 050). Audited as
 * `staff.permissions` with before and after (or `staff.role.request`; a refusal as `staff.permissions.refused`).
 * @example await setStaffAccess(db, operator, memberId, { role: 'staff', permissions: ['shipping:read'] })
 */
export async function setStaffAccess(
  db: Database,
  operator: Operator,
  memberId: string,
  input: { role: StaffRole; permissions: readonly AdminPermission[] },
): Promise<StaffChangeOutcome> {
  const permissions = input.role === 'admin' ? [] : [...new Set(input.permissions)];
  const target = { type: 'member', id: memberId };
  return runAdminAction<{ requestId: string } | null>(
    db,
    operator,
    'staff:write',
    async (tx) => {
      if (operator.memberId === memberId) throw new RefusalError(refuse('STAFF_SELF_CHANGE'));
      await lockStaffChanges(tx);
      const { account, held } = await staffTarget(tx, memberId, true);
      refuseUnless(mayTouch(operator, held));
      refuseUnless(mayGive(operator, { role: input.role, permissions }));
      if (account.role === 'admin' && input.role !== 'admin') await assertAnotherAdminRemains(tx, memberId);
      if (changesAnAdmin(account.role, input.role) && (await waitsForSecondAdmin(tx, operator))) {
        const request = await fileStaffRoleRequest(tx, operator, {
          kind: 'access',
          memberId,
          email: null,
          fromRole: account.role,
          role: input.role,
          permissions,
        });
        return { value: { requestId: request.requestId }, audit: request.audit };
      }
      const change = await applyStaffAccess(tx, memberId, account.role, { ...input, permissions }, operator.label);
      return { value: null, audit: { action: 'staff.permissions', target, ...change } };
    },
    { action: 'staff.permissions', target, attempt: { role: input.role, permissions } },
  );
}

/**
 * Takes a member off the staff: role back to member, permissions removed (their sessions keep
 * working as a member's; the admin area closes on their next request). Audited as `staff.revoke`.
 * Only by someone who holds everything the member holds; an admin's removal waits for a second admin.
 * @example await revokeStaff(db, operator, memberId)
 */
export async function revokeStaff(db: Database, operator: Operator, memberId: string): Promise<StaffChangeOutcome> {
  const target = { type: 'member', id: memberId };
  return runAdminAction<{ requestId: string } | null>(
    db,
    operator,
    'staff:write',
    async (tx) => {
      if (operator.memberId === memberId) throw new RefusalError(refuse('STAFF_SELF_CHANGE'));
      await lockStaffChanges(tx);
      const { account, held } = await staffTarget(tx, memberId, true);
      refuseUnless(mayTouch(operator, held));
      if (account.role === 'admin') {
        await assertAnotherAdminRemains(tx, memberId);
        if (await waitsForSecondAdmin(tx, operator)) {
          const request = await fileStaffRoleRequest(tx, operator, {
            kind: 'revoke',
            memberId,
            email: null,
            fromRole: 'admin',
            role: 'user',
            permissions: [],
          });
          return { value: { requestId: request.requestId }, audit: request.audit };
        }
      }
      const change = await applyStaffAccess(
        tx,
        memberId,
        account.role,
        { role: 'user', permissions: [] },
        operator.label,
      );
      return { value: null, audit: { action: 'staff.revoke', target, ...change } };
    },
    { action: 'staff.revoke', target },
  );
}

/**
 * The command line's `staff:grant`: makes a member an admin (or staff with permissions, or a member
 * again), audited with the command line as the actor. No invitation: whoever runs it holds the
 * database. Admin changes are applied at once only while the shop has fewer than two admins who can
 * open the admin area (the first admins); after that they wait for an admin's approval (decision 050).
 * @example await grantStaffDirectly(db, commandLineOperator(), memberId, { role: 'admin', permissions: [] })
 */
export async function grantStaffDirectly(
  db: Database,
  operator: Operator,
  memberId: string,
  input: { role: StaffRole | 'user'; permissions: readonly AdminPermission[] },
): Promise<StaffChangeOutcome> {
  const permissions = input.role === 'staff' ? [...new Set(input.permissions)] : [];
  const target = { type: 'member', id: memberId };
  const action = input.role === 'user' ? 'staff.revoke' : 'staff.permissions';
  return runAdminAction<{ requestId: string } | null>(
    db,
    operator,
    'staff:write',
    async (tx) => {
      if (operator.memberId === memberId) throw new RefusalError(refuse('STAFF_SELF_CHANGE'));
      await lockStaffChanges(tx);
      const { account, held } = await staffTarget(tx, memberId, false);
      if (account.role === 'admin' || account.role === 'staff') refuseUnless(mayTouch(operator, held));
      refuseUnless(mayGive(operator, { role: input.role, permissions }));
      if (account.role === 'admin' && input.role !== 'admin') await assertAnotherAdminRemains(tx, memberId);
      if (changesAnAdmin(account.role, input.role) && (await waitsForSecondAdmin(tx, operator))) {
        const request = await fileStaffRoleRequest(tx, operator, {
          kind: input.role === 'user' ? 'revoke' : 'access',
          memberId,
          email: null,
          fromRole: account.role,
          role: input.role,
          permissions,
        });
        return { value: { requestId: request.requestId }, audit: request.audit };
      }
      const change = await applyStaffAccess(tx, memberId, account.role, { ...input, permissions }, operator.label);
      return { value: null, audit: { action, target, ...change } };
    },
    { action, target, attempt: { role: input.role, permissions } },
  );
}
