// members:create: members with a signed-in session and paid coins, for benchmarks and tests.
import { createMembersAsOperator } from '#modules/admin';
import { integerOption } from '../args';
import { settled, type ShopCommand } from '../command';

export const membersCreate: ShopCommand = {
  name: 'members:create',
  usage: '--count N [--coins C] [--prefix P] [--out file.json]',
  options: {
    count: { type: 'string' },
    coins: { type: 'string' },
    prefix: { type: 'string' },
    out: { type: 'string' },
  },
  async run({ db, out, operator, files, lifetimes }, { values }) {
    const count = integerOption(values, 'count', { min: 1, max: 100_000 });
    const coins = integerOption(values, 'coins', { min: 0, max: 1_000_000_000, fallback: 0 });
    const prefix =
      (typeof values.prefix === 'string' ? values.prefix : 'member').replace(/[^a-z0-9-]/gi, '').slice(0, 20) ||
      'member';
    const outFile = typeof values.out === 'string' ? values.out : undefined;
    const created = settled(await createMembersAsOperator(db, operator, { count, coins, prefix, lifetimes }));
    if (outFile) await files.write(outFile, JSON.stringify(created, null, 2));
    out(JSON.stringify({ created: created.length, out: outFile ?? null, members: outFile ? undefined : created }));
  },
};
