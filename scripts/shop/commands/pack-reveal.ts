// pack:reveal <gachaId> [--out file.json]: the reveal file of a sold-out or ended pack (for npm run verify-pack).
import { getPackReveal } from '#modules/draw';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const packReveal: ShopCommand = {
  name: 'pack:reveal',
  usage: '<gachaId> [--out file.json]',
  options: { out: { type: 'string' } },
  async run({ db, out, files }, { values, positionals: [gachaId] }) {
    if (!gachaId) throw new UsageError('ガチャIDを指定してください。');
    const reveal = await getPackReveal(db, gachaId);
    if (!reveal) throw new UsageError('このガチャはまだ公開（完売または終了）されていません。');
    if (typeof values.out === 'string') await files.write(values.out, JSON.stringify(reveal, null, 2));
    else out(JSON.stringify(reveal));
  },
};
