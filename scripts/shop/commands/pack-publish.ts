// pack:publish <gachaId>: fix the pack's lots and commitment; on sale now or at its saleStartsAt.
import { publishPack } from '#modules/gacha';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const packPublish: ShopCommand = {
  name: 'pack:publish',
  usage: '<gachaId>',
  options: {},
  async run({ db, out }, { positionals: [gachaId] }) {
    if (!gachaId) throw new UsageError('ガチャIDを指定してください。');
    out(JSON.stringify({ published: gachaId, ...(await publishPack(db, gachaId)) }));
  },
};
