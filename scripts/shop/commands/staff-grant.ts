// staff:grant: make a member an admin (every permission), staff with the permissions given, or, with
// --revoke, a member again. Staff cannot draw; the admin area asks for their second factor. Making or
// unmaking an admin is immediate only for the shop's first two admins; after that it waits for an
// admin's approval at /admin/approvals (docs/decisions/050).
import { grantStaffDirectly, isAdminPermission, type AdminPermission } from '#modules/admin';
import { requiredOption, UsageError } from '../args';
import { findMember } from '../find-member';
import { settled, type ShopCommand } from '../command';

export const staffGrant: ShopCommand = {
  name: 'staff:grant',
  usage: '--member <id|email> [--role admin|staff] [--permissions shipping:write,packs:write] [--revoke]',
  options: {
    member: { type: 'string' },
    role: { type: 'string' },
    permissions: { type: 'string' },
    revoke: { type: 'boolean' },
  },
  async run({ db, out, operator }, { values }) {
    const memberRef = requiredOption(values, 'member', '--member を指定してください。');
    if (values.revoke && (values.role !== undefined || values.permissions !== undefined))
      throw new UsageError('--revoke には --role と --permissions を付けられません。');
    const given = values.role ?? 'admin';
    if (given !== 'admin' && given !== 'staff') throw new UsageError('--role は admin か staff です。');
    const role = values.revoke ? 'user' : given;
    const named = typeof values.permissions === 'string' ? values.permissions.split(',').map((p) => p.trim()) : [];
    const unknown = named.filter((p) => p && !isAdminPermission(p));
    if (unknown.length) throw new UsageError(`不明な権限です: ${unknown.join(', ')}`);
    const permissions = named.filter(isAdminPermission) as AdminPermission[];
    if (role === 'staff' && permissions.length === 0)
      throw new UsageError(
        '--role staff には --permissions（カンマ区切り、例: shipping:read,shipping:write）を指定してください。',
      );
    if (role !== 'staff' && permissions.length)
      throw new UsageError('--permissions は --role staff のときだけ指定できます（admin はすべての権限を持ちます）。');
    const member = await findMember(db, memberRef);
    // Their open sessions carry the new role from the next request on; audited as staff.permissions or staff.revoke.
    const waiting = settled(await grantStaffDirectly(db, operator, member.id, { role, permissions }));
    const granted = role === 'staff' ? { member: member.id, role, permissions } : { member: member.id, role };
    // An admin change the shop's admins must approve: named by its request, said in words (exit code 0).
    out(
      JSON.stringify(
        waiting
          ? {
              ...granted,
              pending: waiting.requestId,
              note: '管理者の承認待ちです（/admin/approvals で管理者が承認すると反映されます）。',
            }
          : granted,
      ),
    );
  },
};
