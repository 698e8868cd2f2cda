// Staff invitations by mail: the pending ones, the form, writing one (or filing it for a second admin),
// revoking it, and the invitee joining by its token (recorded with the invitee as the actor).
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { setMemberRole, staffAccountOf } from '#modules/identity';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { runAdminAction, recordAudit, type Operator } from './audit';
import { mayGive, mayTouch } from './authority';
import { staffInvitations } from './schema';
import {
  STAFF_INVITATION_DAYS,
  STAFF_ROLE_LABELS,
  fileStaffRoleRequest,
  grantedPermissions,
  permissionListSchema,
  refuseUnless,
  replacePermissions,
  roleSchema,
  type StaffRole,
  waitsForSecondAdmin,
} from './staff';

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
/** The invitation form (the page's action and the command line read it alike). */
export const staffInvitationSchema = z.object({
  email: z.email({ error: 'メールアドレスの形式が正しくありません。' }).trim().toLowerCase().max(254),
  role: roleSchema,
  permissions: permissionListSchema.default([]),
});
export type StaffInvitationInput = z.infer<typeof staffInvitationSchema>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The shape of a mailed token (base64url, 32 bytes); anything else is dead without a query. */
const isInvitationToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** An invitation neither accepted, revoked nor expired at `now`. */
const stillOpen = (now: Date) =>
  and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt), gt(staffInvitations.expiresAt, now));

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
