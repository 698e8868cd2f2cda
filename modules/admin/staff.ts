// Staff management: who is an operator (role in identity, permissions here), invitations by mail,
// permission changes and revocation. Every change goes through runAdminAction (audited in its
// transaction); joining by invitation is recorded with the invitee as the actor.
// Here: access, the staff list and changes of access; invitations: staff-invitations.ts.
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { listStaffAccounts, setMemberRole, staffAccountOf, staffAccessOf, type StaffAccount } from '#modules/identity';
import { ADMIN_PERMISSIONS, adminPermissionSchema, permissionsOfRole, type AdminPermission } from './permissions';
import { runAdminAction, type AuditRecord, type Operator } from './audit';
import { changesAnAdmin, mayGive, mayTouch, type AuthorityRefusal } from './authority';
import { staffPermissions, staffRoleRequests, type StaffRoleRequestKind } from './schema';

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

export const roleSchema = z.enum(['admin', 'staff'], { error: '役割を選んでください。' });
export const permissionListSchema = z.array(adminPermissionSchema).max(ADMIN_PERMISSIONS.length);

export const staffPermissionsSchema = z.object({ permissions: permissionListSchema });

/** Throws the refusal of an authority rule (authority.ts), if any. */
export function refuseUnless(refusal: AuthorityRefusal | null): void {
  if (refusal) throw new RefusalError(refuse(refusal.code, refusal.details));
}

/**
 * Whether an admin change by this operator waits for a second admin (decision 050): always for an
 * admin; for the command line only once the shop has two admins who can open the admin area (before
 * that it is the bootstrap of the first admins, and a request would have nobody else to approve it).
 */
export async function waitsForSecondAdmin(tx: Database, operator: Operator): Promise<boolean> {
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

export type StaffChangeOutcome = { ok: true; value: { requestId: string } | null } | Refusal<string>;
export async function replacePermissions(
  tx: Database,
  memberId: string,
  permissions: readonly string[],
  grantedBy: string,
) {
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
