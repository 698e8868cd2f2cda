// The staff page's server side: the list (staff, pending invitations) and its five intents — invite,
// change access, revoke, withdraw an invitation — each through the admin module (audited there).
import { data } from 'react-router';
import type { ShopRequest } from '~/context';
import { requireOperator } from '~/lib/admin.server';
import { UNREADABLE_FORM_MESSAGE } from '~/lib/forms.server';
import { describeRefusal, type RefusalCode } from '#server/refusals';
import { uuidSchema, type Refusal } from '#modules/kernel';
import {
  ADMIN_PERMISSIONS,
  PERMISSION_LABELS,
  STAFF_ROLE_LABELS,
  inviteStaff,
  listPendingInvitations,
  listStaff,
  revokeInvitation,
  revokeStaff,
  setStaffAccess,
  staffInvitationSchema,
  staffPermissionsSchema,
  type StaffRole,
} from '#modules/admin';

export interface StaffActionData {
  ok?: string;
  error?: string;
  /** Which form the answer belongs to (the invite form, or a staff member's id). */
  form?: string;
}

export async function staffPageLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'staff:write');
  const [staff, invitations] = await Promise.all([
    listStaff(shop.services.db),
    listPendingInvitations(shop.services.db),
  ]);
  return {
    me: operator.memberId,
    staff: staff.map((s) => ({
      id: s.id,
      email: s.email,
      name: s.name,
      role: s.role,
      roleLabel: STAFF_ROLE_LABELS[s.role] ?? s.role,
      permissions: s.permissions,
      twoFactorEnabled: s.twoFactorEnabled,
      deleted: s.deleted,
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      roleLabel: STAFF_ROLE_LABELS[i.role],
      permissions: i.permissions,
      invitedBy: i.invitedBy,
      expiresAt: i.expiresAt.toISOString(),
    })),
    permissions: ADMIN_PERMISSIONS.map((p) => ({ id: p, label: PERMISSION_LABELS[p] })),
  };
}

const refused = (refusal: Refusal<string>, form: string) => {
  const { status, message } = describeRefusal(refusal as Refusal<RefusalCode>);
  return data<StaffActionData>({ error: message, form }, { status });
};

export async function staffPageAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'staff:write');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<StaffActionData>({ error: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
  const text = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : '');
  const db = shop.services.db;
  const config = shop.services.config;
  const intent = text('intent');
  const permissions = form.getAll('permission').filter((v): v is string => typeof v === 'string');

  if (intent === 'invite') {
    const parsed = staffInvitationSchema.safeParse({ email: text('email'), role: text('role'), permissions });
    if (!parsed.success)
      return data<StaffActionData>({ error: parsed.error.issues[0]?.message, form: 'invite' }, { status: 400 });
    const outcome = await inviteStaff(
      db,
      operator,
      { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN },
      parsed.data,
    );
    if (!outcome.ok) return refused(outcome, 'invite');
    return {
      ok: `${parsed.data.email} に招待メールを送りました（有効期限7日）。`,
      form: 'invite',
    } satisfies StaffActionData;
  }

  const target = uuidSchema.safeParse(text('id'));
  const id = text('id');
  if (!id || id.length > 100) return data<StaffActionData>({ error: '対象が指定されていません。' }, { status: 400 });

  if (intent === 'access') {
    const role = text('role') as StaffRole;
    const parsed = staffPermissionsSchema.safeParse({ permissions });
    if (!parsed.success || (role !== 'admin' && role !== 'staff'))
      return data<StaffActionData>({ error: '役割か権限の指定が正しくありません。', form: id }, { status: 400 });
    const outcome = await setStaffAccess(db, operator, id, { role, permissions: parsed.data.permissions });
    if (!outcome.ok) return refused(outcome, id);
    return { ok: '権限を変更しました。', form: id } satisfies StaffActionData;
  }
  if (intent === 'revoke') {
    const outcome = await revokeStaff(db, operator, id);
    if (!outcome.ok) return refused(outcome, id);
    return { ok: 'スタッフから外しました。', form: 'list' } satisfies StaffActionData;
  }
  if (intent === 'withdraw') {
    if (!target.success) return data<StaffActionData>({ error: '招待が見つかりません。' }, { status: 404 });
    const outcome = await revokeInvitation(db, operator, target.data);
    if (!outcome.ok) return refused(outcome, id);
    return { ok: '招待を取り消しました。', form: 'list' } satisfies StaffActionData;
  }
  return data<StaffActionData>({ error: '不明な操作です。' }, { status: 400 });
}
