// The approval queue of admin changes (docs/decisions/050): inviting, promoting, demoting or removing
// an admin waits as a staff_role_requests row until an admin other than the requester approves it
// (applied once, with its entries, in one transaction) or rejects it. Mirrors the coin adjustments'
// approvals (decision 026): the row is locked FOR UPDATE, so of two admins approving at once one applies.
import { asc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { staffAccountOf } from '#modules/identity';
import type { SiteIdentity } from '#modules/messaging';
import { runAdminAction, type AdminRefusalCode, type AuditRecord, type Operator } from './audit';
import { staffRoleRequests, type StaffRoleRequestKind, type StaffRoleRequestStatus } from './schema';
import { applyStaffAccess, assertAnotherAdminRemains, lockStaffChanges } from './staff';
import { createInvitation } from './staff-invitations';

/** The longest note an admin may give when rejecting. */
export const STAFF_REQUEST_NOTE_MAX = 200;

export interface StaffRoleRequestView {
  id: string;
  kind: StaffRoleRequestKind;
  memberId: string | null;
  email: string | null;
  fromRole: string | null;
  role: 'admin' | 'staff' | 'user';
  permissions: string[];
  status: StaffRoleRequestStatus;
  requestedBy: string | null;
  requestedLabel: string;
  requestedAt: string;
  decidedLabel: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
}

const toView = (row: typeof staffRoleRequests.$inferSelect): StaffRoleRequestView => ({
  id: row.id,
  kind: row.kind,
  memberId: row.memberId,
  email: row.email,
  fromRole: row.fromRole,
  role: row.role,
  permissions: row.permissions,
  status: row.status,
  requestedBy: row.requestedBy,
  requestedLabel: row.requestedLabel,
  requestedAt: row.requestedAt.toISOString(),
  decidedLabel: row.decidedLabel,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decisionNote: row.decisionNote,
});

const refused = (code: AdminRefusalCode | 'STAFF_NOT_FOUND', details: Record<string, unknown> = {}): never => {
  throw new RefusalError(refuse(code, details));
};

/**
 * The pending request under its row lock, or a refusal: only an admin (a person: not the command
 * line) who neither asked for it nor is its subject decides it.
 */
async function pendingForDecision(tx: Database, operator: Operator, requestId: string) {
  if (operator.role !== 'admin' || !operator.memberId) return refused('STAFF_REQUEST_APPROVER_NOT_ADMIN');
  if (!isUuid(requestId)) return refused('STAFF_REQUEST_NOT_FOUND');
  const [row] = await tx.select().from(staffRoleRequests).where(eq(staffRoleRequests.id, requestId)).for('update');
  if (!row) return refused('STAFF_REQUEST_NOT_FOUND');
  if (row.status !== 'pending') return refused('STAFF_REQUEST_NOT_PENDING', { status: row.status });
  if (row.requestedBy === operator.memberId) return refused('STAFF_REQUEST_SELF_APPROVAL');
  if (row.memberId === operator.memberId) return refused('STAFF_REQUEST_OWN_ACCESS');
  return row;
}

const requestTarget = (requestId: string) => ({ type: 'staff_role_request', id: requestId });

/** Applies an approved request in the caller's transaction; answers the change's own audit entry. */
async function applyRequest(
  tx: Database,
  row: typeof staffRoleRequests.$inferSelect,
  site: SiteIdentity,
): Promise<AuditRecord> {
  if (row.kind === 'invite') {
    const invitationId = await createInvitation(tx, row.requestedLabel, site, {
      email: row.email!,
      role: 'admin',
      permissions: [],
    });
    return {
      action: 'staff.invite',
      target: { type: 'staff_invitation', id: invitationId },
      after: { email: row.email, role: 'admin', permissions: [], requestId: row.id },
    };
  }
  const memberId = row.memberId!;
  const account = await staffAccountOf(tx, memberId);
  if (!account || account.deleted) return refused('STAFF_NOT_FOUND');
  // What was asked about the target then may not fit it now: decide again from the current state.
  if (account.role !== row.fromRole) return refused('STAFF_REQUEST_OUTDATED', { role: account.role });
  if (account.role === 'admin' && row.role !== 'admin') await assertAnotherAdminRemains(tx, memberId);
  const change = await applyStaffAccess(
    tx,
    memberId,
    account.role,
    { role: row.role, permissions: row.permissions },
    row.requestedLabel,
  );
  return {
    action: row.kind === 'revoke' ? 'staff.revoke' : 'staff.permissions',
    target: { type: 'member', id: memberId },
    before: change.before,
    after: { ...(change.after as object), requestId: row.id },
  };
}

/**
 * Approves a pending admin change and applies it (`staff.role.approve` and the change's own entry:
 * `staff.invite`, `staff.permissions` or `staff.revoke`), once: the row is locked, so of two admins
 * approving at once the second finds it decided (STAFF_REQUEST_NOT_PENDING). A target whose role
 * changed since the request is refused (STAFF_REQUEST_OUTDATED) and stays pending: reject it.
 * @example await approveStaffRoleRequest(db, secondAdmin, requestId, site)
 */
export async function approveStaffRoleRequest(
  db: Database,
  operator: Operator,
  requestId: string,
  site: SiteIdentity,
): Promise<{ ok: true; value: StaffRoleRequestView } | Refusal<string>> {
  return runAdminAction(
    db,
    operator,
    'staff:write',
    async (tx) => {
      const row = await pendingForDecision(tx, operator, requestId);
      await lockStaffChanges(tx);
      const change = await applyRequest(tx, row, site);
      const [saved] = await tx
        .update(staffRoleRequests)
        .set({ status: 'applied', decidedBy: operator.memberId, decidedLabel: operator.label, decidedAt: new Date() })
        .where(eq(staffRoleRequests.id, row.id))
        .returning();
      return {
        value: toView(saved!),
        audit: [
          {
            action: 'staff.role.approve',
            target: row.memberId ? { type: 'member', id: row.memberId } : requestTarget(row.id),
            before: { status: 'pending', requestedBy: row.requestedLabel },
            after: { requestId: row.id, kind: row.kind, email: row.email, role: row.role, status: 'applied' },
          },
          change,
        ],
      };
    },
    { action: 'staff.role.approve', target: requestTarget(requestId) },
  );
}

/**
 * Rejects a pending admin change (`staff.role.reject`): nothing changes. Only an admin other than
 * the requester and the subject decides; the note (optional) says why.
 * @example await rejectStaffRoleRequest(db, secondAdmin, requestId, '必要性が確認できないため')
 */
export async function rejectStaffRoleRequest(
  db: Database,
  operator: Operator,
  requestId: string,
  note: string,
): Promise<{ ok: true; value: StaffRoleRequestView } | Refusal<string>> {
  return runAdminAction(
    db,
    operator,
    'staff:write',
    async (tx) => {
      const row = await pendingForDecision(tx, operator, requestId);
      const decisionNote = note.trim().slice(0, STAFF_REQUEST_NOTE_MAX) || null;
      const [saved] = await tx
        .update(staffRoleRequests)
        .set({
          status: 'rejected',
          decidedBy: operator.memberId,
          decidedLabel: operator.label,
          decidedAt: new Date(),
          decisionNote,
        })
        .where(eq(staffRoleRequests.id, row.id))
        .returning();
      return {
        value: toView(saved!),
        audit: {
          action: 'staff.role.reject',
          target: row.memberId ? { type: 'member', id: row.memberId } : requestTarget(row.id),
          before: { status: 'pending', requestedBy: row.requestedLabel },
          after: {
            requestId: row.id,
            kind: row.kind,
            email: row.email,
            role: row.role,
            status: 'rejected',
            note: decisionNote,
          },
        },
      };
    },
    { action: 'staff.role.reject', target: requestTarget(requestId) },
  );
}

/**
 * Pending admin changes, oldest first (the approvals page and the staff page), at most `limit`.
 * @example const waiting = await listPendingStaffRoleRequests(db, 100)
 */
export async function listPendingStaffRoleRequests(db: Database, limit: number): Promise<StaffRoleRequestView[]> {
  const rows = await db
    .select()
    .from(staffRoleRequests)
    .where(eq(staffRoleRequests.status, 'pending'))
    .orderBy(asc(staffRoleRequests.requestedAt))
    .limit(limit);
  return rows.map(toView);
}
