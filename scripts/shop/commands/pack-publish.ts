// pack:publish <gachaId>: fix the pack's lots and commitment; on sale now or at its saleStartsAt.
import { publishPackAsOperator } from '#modules/admin';
import { UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

export const packPublish: ShopCommand = {
  name: 'pack:publish',
  usage: '<gachaId>',
  options: {},
  async run({ db, out, operator, beacon }, { positionals: [gachaId] }) {
    if (!gachaId) throw new UsageError('ガチャIDを指定してください。');
    out(
      JSON.stringify({
        published: gachaId,
        ...settled(await publishPackAsOperator(db, operator, gachaId, undefined, { beacon })),
      }),
    );
  },
};
