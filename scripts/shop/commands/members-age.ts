// members:age: correct a member's age declaration (members cannot change it themselves).
import { declareAgeAsOperator } from '#modules/admin';
import { requiredOption, UsageError } from '../args';
import { findMember } from '../find-member';
import { settled, type ShopCommand } from '../command';

export const membersAge: ShopCommand = {
  name: 'members:age',
  usage: '--member <id|email> (--minor | --adult)      年齢申告の訂正',
  options: { member: { type: 'string' }, minor: { type: 'boolean' }, adult: { type: 'boolean' } },
  async run({ db, out, operator }, { values }) {
    const refusal = '--member と、--minor か --adult のどちらか一方を指定してください。';
    const memberRef = requiredOption(values, 'member', refusal);
    if (Boolean(values.minor) === Boolean(values.adult)) throw new UsageError(refusal);
    const member = await findMember(db, memberRef);
    const declared = settled(await declareAgeAsOperator(db, operator, member.id, Boolean(values.minor)));
    out(JSON.stringify({ member: member.id, ...declared }));
  },
};
