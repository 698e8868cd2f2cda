// pack:end <gachaId>: end the sale; the seed and the anonymised draw log become public.
import { endPack } from '#modules/gacha';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const packEnd: ShopCommand = {
  name: 'pack:end',
  usage: '<gachaId>',
  options: {},
  async run({ db, out }, { positionals: [gachaId] }) {
    if (!gachaId) throw new UsageError('ガチャIDを指定してください。');
    await endPack(db, gachaId);
    out(JSON.stringify({ ended: gachaId }));
  },
};
