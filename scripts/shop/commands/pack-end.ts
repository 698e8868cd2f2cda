// pack:end <gachaId>: end the sale; the seed and the anonymised draw log become public.
import { endPackAsOperator } from '#modules/admin';
import { UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

export const packEnd: ShopCommand = {
  name: 'pack:end',
  usage: '<gachaId>',
  options: {},
  async run({ db, out, operator }, { positionals: [gachaId] }) {
    if (!gachaId) throw new UsageError('ガチャIDを指定してください。');
    settled(await endPackAsOperator(db, operator, gachaId));
    out(JSON.stringify({ ended: gachaId }));
  },
};
