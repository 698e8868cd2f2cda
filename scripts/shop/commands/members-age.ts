// members:age: correct a member's age declaration (members cannot change it themselves).
import { declareAge } from '#modules/payments';
import { requiredOption, UsageError } from '../args';
import { findMember } from '../find-member';
import type { ShopCommand } from '../command';

export const membersAge: ShopCommand = {
  name: 'members:age',
  usage: '--member <id|email> (--minor | --adult)      年齢申告の訂正',
  options: { member: { type: 'string' }, minor: { type: 'boolean' }, adult: { type: 'boolean' } },
  async run({ db, out }, { values }) {
    const refusal = '--member と、--minor か --adult のどちらか一方を指定してください。';
    const memberRef = requiredOption(values, 'member', refusal);
    if (Boolean(values.minor) === Boolean(values.adult)) throw new UsageError(refusal);
    const member = await findMember(db, memberRef);
    out(
      JSON.stringify({
        member: member.id,
        ...(await declareAge(db, member.id, Boolean(values.minor), { byOperator: true })),
      }),
    );
  },
};
