// coins:grant: coins for a member with a reason (a ledger entry); --key makes a repeat harmless.
import { randomUUID } from 'node:crypto';
import { grantCoinsAsOperator } from '#modules/admin';
import { integerOption, requiredOption, UsageError } from '../args';
import { findMember } from '../find-member';
import { settled, type ShopCommand } from '../command';

export const coinsGrant: ShopCommand = {
  name: 'coins:grant',
  usage: '--member <id|email> --amount N --reason "理由" [--kind free|paid] [--key 冪等キー]',
  options: {
    member: { type: 'string' },
    amount: { type: 'string' },
    reason: { type: 'string' },
    kind: { type: 'string' },
    key: { type: 'string' },
  },
  async run({ db, out, operator, lifetimes }, { values }) {
    const memberRef = requiredOption(
      values,
      'member',
      '--member と --amount（1〜10,000,000の整数）を指定してください。',
    );
    const amount = integerOption(values, 'amount', { min: 1, max: 10_000_000 });
    const reason = requiredOption(values, 'reason', '--reason（付与の理由）を指定してください。').trim();
    const kind = values.kind ?? 'free';
    if (kind !== 'free' && kind !== 'paid') throw new UsageError('--kind は free か paid です。');
    const key = typeof values.key === 'string' ? values.key : undefined;
    const member = await findMember(db, memberRef);
    const outcome = await grantCoinsAsOperator(db, operator, {
      memberId: member.id,
      kind,
      amount,
      memo: reason,
      key: key ?? randomUUID(),
      lifetimes,
    });
    if (!outcome.ok && outcome.code === 'GRANT_KEY_REUSED')
      throw new UsageError(`キー ${key} は別の付与（会員・種類・枚数が違う）に使われています。何も付与していません。`);
    out(JSON.stringify({ member: member.id, kind, amount, ...settled(outcome) }));
  },
};
