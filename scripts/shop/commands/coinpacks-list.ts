// coinpacks:list: the coin packs, active or not, one JSON line each in display order.
import { listAllCoinPacks } from '#modules/payments';
import type { ShopCommand } from '../command';

export const coinpacksList: ShopCommand = {
  name: 'coinpacks:list',
  usage: '',
  options: {},
  async run({ db, out }) {
    for (const pack of await listAllCoinPacks(db)) out(JSON.stringify(pack));
  },
};
