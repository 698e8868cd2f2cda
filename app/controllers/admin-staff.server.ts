// The staff page's server side: the list (staff, pending invitations, admin changes awaiting approval)
// and its intents — invite, change access, revoke, withdraw an invitation — each through the admin
// module (audited there, refusals too). The page offers only what the operator may give (decision 050).
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { refuse, uuidSchema, type Refusal } from '#modules/kernel';
import {
  ADMIN_PERMISSIONS,
  PERMISSION_LABELS,
  STAFF_ROLE_LABELS,
  inviteStaff,
  listPendingInvitations,
  approveStaffRoleRequest,
  listPendingStaffRoleRequests,
  listStaff,
  rejectStaffRoleRequest,
  STAFF_REQUEST_NOTE_MAX,
  mayAskForAdminChanges,
  mayTouch,
  recordRefusal,
  revokeInvitation,
  revokeStaff,
  setStaffAccess,
  staffInvitationSchema,
  staffPermissionsSchema,
  type Operator,
  type StaffRole,
} from '#modules/admin';

/** `form` is which form the answer belongs to (the invite form, or a staff member's id). */
export type StaffActionData = AdminActionResult;

/** Why the operator may not change this access (the page shows it instead of the form), or null. */
function lockedReason(operator: Operator, held: { role: string; permissions: readonly string[] }): string | null {
  const refusal = mayTouch(operator, held);
  if (!refusal) return null;
  return describeRefusal(refuse(refusal.code, refusal.details) as Refusal<RefusalCode>).message;
}

const REQUEST_KIND_LABELS = { invite: '管理者として招待', access: '役割の変更', revoke: 'スタッフから外す' } as const;

export async function staffPageLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'staff:write');
  const [staff, invitations, requests] = await Promise.all([
    listStaff(shop.services.db),
    listPendingInvitations(shop.services.db),
    listPendingStaffRoleRequests(shop.services.db, 100),
  ]);
  const emailOf = new Map(staff.map((s) => [s.id, s.email]));
  return {
    me: operator.memberId,
    canAskForAdmin: mayAskForAdminChanges(operator),
    staff: staff.map((s) => ({
      id: s.id,
      email: s.email,
      name: s.name,
      role: s.role,
      roleLabel: STAFF_ROLE_LABELS[s.role] ?? s.role,
      permissions: s.permissions,
      twoFactorEnabled: s.twoFactorEnabled,
      deleted: s.deleted,
      locked: lockedReason(operator, { role: s.role, permissions: s.permissions }),
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      roleLabel: STAFF_ROLE_LABELS[i.role],
      permissions: i.permissions,
      invitedBy: i.invitedBy,
      expiresAt: i.expiresAt.toISOString(),
      locked: lockedReason(operator, { role: i.role, permissions: i.permissions }),
    })),
    requests: requests.map((r) => ({
      id: r.id,
      what: REQUEST_KIND_LABELS[r.kind],
      who: r.email ?? emailOf.get(r.memberId ?? '') ?? r.memberId ?? '',
      roleLabel: r.role === 'user' ? '会員（スタッフではない）' : STAFF_ROLE_LABELS[r.role],
      requestedLabel: r.requestedLabel,
      requestedAt: r.requestedAt,
    })),
    permissions: ADMIN_PERMISSIONS.map((p) => ({
      id: p,
      label: PERMISSION_LABELS[p],
      grantable: operator.permissions.has(p),
    })),
  };
}

/** The audited name of each intent, for a refusal the page itself decides (the missing permission). */
const INTENT_ACTIONS: Record<string, string> = {
  invite: 'staff.invite',
  access: 'staff.permissions',
  revoke: 'staff.revoke',
  withdraw: 'staff.invitation.revoke',
  'staff-approve': 'staff.role.approve',
  'staff-reject': 'staff.role.reject',
};

/**
 * The operator of a staff-page action. Without staff:write the attempt is recorded
 * (`<action>.refused`) before the ordinary 403, like a refusal inside the admin module.
 */
async function staffActionOperator(shop: ShopRequest, request: Request): Promise<Operator> {
  const operator = await requireOperator(shop, request);
  if (operator.permissions.has('staff:write')) return operator;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = typeof form?.get('intent') === 'string' ? (form.get('intent') as string) : '';
  const id = typeof form?.get('id') === 'string' ? (form.get('id') as string).slice(0, 100) : null;
  await recordRefusal(
    shop.services.db,
    operator,
    'staff:write',
    {
      action: INTENT_ACTIONS[intent] ?? 'staff.unknown',
      target:
        intent === 'invite' || intent === 'withdraw'
          ? { type: 'staff_invitation', id }
          : intent.startsWith('staff-')
            ? { type: 'staff_role_request', id }
            : { type: 'member', id },
      attempt: form
        ? { intent, role: form.get('role'), permissions: form.getAll('permission'), email: form.get('email') }
        : null,
    },
    refuse('PERMISSION_DENIED', { permission: 'staff:write' }),
  );
  return requireOperator(shop, request, 'staff:write');
}

const WAITS_FOR_APPROVAL = '別の管理者が「承認待ち」一覧（/admin/approvals）で承認すると反映されます。';

const refused = (refusal: Refusal<string>, form: string) => {
  const { status, message } = describeRefusal(refusal as Refusal<RefusalCode>);
  return actionRefused(message, { form, status });
};

export async function staffPageAction(shop: ShopRequest, request: Request) {
  const operator = await staffActionOperator(shop, request);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return actionRefused(UNREADABLE_FORM_MESSAGE);
  }
  const text = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : '');
  const db = shop.services.db;
  const config = shop.services.config;
  const intent = text('intent');
  const permissions = form.getAll('permission').filter((v): v is string => typeof v === 'string');

  if (intent === 'invite') {
    const parsed = staffInvitationSchema.safeParse({ email: text('email'), role: text('role'), permissions });
    if (!parsed.success)
      return actionRefused(parsed.error.issues[0]?.message ?? '入力を確認してください。', { form: 'invite' });
    const outcome = await inviteStaff(
      db,
      operator,
      { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN },
      parsed.data,
    );
    if (!outcome.ok) return refused(outcome, 'invite');
    if ('requestId' in outcome.value)
      return actionOk(
        `${parsed.data.email} を管理者として招待する申請をしました。${WAITS_FOR_APPROVAL}招待メールはそのときに送られます。`,
        { form: 'invite' },
      );
    return actionOk(`${parsed.data.email} に招待メールを送りました（有効期限7日）。`, { form: 'invite' });
  }

  const target = uuidSchema.safeParse(text('id'));
  const id = text('id');
  if (!id || id.length > 100) return actionRefused('対象が指定されていません。');

  if (intent === 'access') {
    const role = text('role') as StaffRole;
    const parsed = staffPermissionsSchema.safeParse({ permissions });
    if (!parsed.success || (role !== 'admin' && role !== 'staff'))
      return actionRefused('役割か権限の指定が正しくありません。', { form: id });
    const outcome = await setStaffAccess(db, operator, id, { role, permissions: parsed.data.permissions });
    if (!outcome.ok) return refused(outcome, id);
    if (outcome.value) return actionOk(`管理者の変更を申請しました。${WAITS_FOR_APPROVAL}`, { form: id });
    return actionOk('権限を変更しました。', { form: id });
  }
  if (intent === 'revoke') {
    const outcome = await revokeStaff(db, operator, id);
    if (!outcome.ok) return refused(outcome, id);
    if (outcome.value) return actionOk(`管理者を外す申請をしました。${WAITS_FOR_APPROVAL}`, { form: 'list' });
    return actionOk('スタッフから外しました。', { form: 'list' });
  }
  if (intent === 'withdraw') {
    if (!target.success) return actionRefused('招待が見つかりません。', { status: 404 });
    const outcome = await revokeInvitation(db, operator, target.data);
    if (!outcome.ok) return refused(outcome, id);
    return actionOk('招待を取り消しました。', { form: 'list' });
  }
  return actionRefused('不明な操作です。');
}

// ── The approvals page's section: admin changes waiting for a second admin ─────────────────────

/**
 * The approvals page's admin changes (for operators with staff:write; null for others, who see no such
 * section): each with
 * whether the operator asked for it or is its subject (then they cannot decide it).
 * @example const staffRequests = await staffRoleRequestsLoader(shop, request)
 */
export async function staffRoleRequestsLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request);
  if (!operator.permissions.has('staff:write')) return null;
  const [requests, staff] = await Promise.all([
    listPendingStaffRoleRequests(shop.services.db, 100),
    listStaff(shop.services.db),
  ]);
  const emailOf = new Map(staff.map((s) => [s.id, s.email]));
  return {
    canDecide: operator.role === 'admin',
    items: requests.map((r) => ({
      id: r.id,
      what: REQUEST_KIND_LABELS[r.kind],
      who: r.email ?? emailOf.get(r.memberId ?? '') ?? r.memberId ?? '',
      roleLabel: r.role === 'user' ? '会員（スタッフではない）' : STAFF_ROLE_LABELS[r.role],
      requestedLabel: r.requestedLabel,
      requestedAt: r.requestedAt,
      mine: operator.memberId !== null && (r.requestedBy === operator.memberId || r.memberId === operator.memberId),
    })),
  };
}

/**
 * The approvals page's intents for admin changes (`staff-approve`, `staff-reject`); null for any
 * other intent (the page's own action answers those). Reads a clone: the request stays readable.
 * @example const answer = await staffRoleRequestsAction(shop, request); if (answer) return answer;
 */
export async function staffRoleRequestsAction(shop: ShopRequest, request: Request) {
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = form?.get('intent');
  if (intent !== 'staff-approve' && intent !== 'staff-reject') return null;
  const operator = await staffActionOperator(shop, request);
  const id = form?.get('id');
  if (typeof id !== 'string' || !id || id.length > 100)
    return actionRefused('承認・却下する申請を一覧から選んでください。');
  const db = shop.services.db;
  if (intent === 'staff-approve') {
    const config = shop.services.config;
    const done = await approveStaffRoleRequest(db, operator, id, {
      name: config.SITE_NAME,
      origin: config.PUBLIC_ORIGIN,
    });
    return done.ok ? actionOk('承認しました。管理者の変更を反映しました。', { form: id }) : refused(done, id);
  }
  const note = form?.get('note');
  if (typeof note === 'string' && note.trim().length > STAFF_REQUEST_NOTE_MAX)
    return actionRefused(`却下の理由は${STAFF_REQUEST_NOTE_MAX}文字以内で入力してください。`, { form: id });
  const done = await rejectStaffRoleRequest(db, operator, id, typeof note === 'string' ? note : '');
  return done.ok ? actionOk('却下しました。何も変更していません。', { form: id }) : refused(done, id);
}
