// members:clear-hold: lift the purchase hold that a chargeback with spent coins puts on a member.
import { clearPurchaseHoldAsOperator } from '#modules/admin';
import { requiredOption } from '../args';
import { findMember } from '../find-member';
import { settled, type ShopCommand } from '../command';

export const membersClearHold: ShopCommand = {
  name: 'members:clear-hold',
  usage: '--member <id|email>                   チャージバック後の購入停止を解除',
  options: { member: { type: 'string' } },
  async run({ db, out, operator }, { values }) {
    const member = await findMember(db, requiredOption(values, 'member', '--member を指定してください。'));
    out(JSON.stringify({ member: member.id, ...settled(await clearPurchaseHoldAsOperator(db, operator, member.id)) }));
  },
};
