// staff:grant: make a member staff (role admin: cannot draw, may open /gacha/video/debug) or, with --revoke, not.
import { setMemberRole } from '#modules/identity';
import { requiredOption } from '../args';
import { findMember } from '../find-member';
import type { ShopCommand } from '../command';

export const staffGrant: ShopCommand = {
  name: 'staff:grant',
  usage: '--member <id|email> [--revoke]',
  options: { member: { type: 'string' }, revoke: { type: 'boolean' } },
  async run({ db, out }, { values }) {
    const member = await findMember(db, requiredOption(values, 'member', '--member を指定してください。'));
    const role = values.revoke ? 'user' : 'admin';
    // Staff cannot draw; their open sessions carry the new role from the next request on.
    await setMemberRole(db, member.id, role);
    out(JSON.stringify({ member: member.id, role }));
  },
};
