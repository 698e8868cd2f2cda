// stock:list: the stock cards (on hand, reserved, available), one JSON line each by name; --short: none available.
import { listStock } from '#modules/gacha';
import type { ShopCommand } from '../command';

export const stockList: ShopCommand = {
  name: 'stock:list',
  usage: '[--query 検索語] [--short]',
  options: { query: { type: 'string' }, short: { type: 'boolean' } },
  async run({ db, out }, { values }) {
    for (let page = 1; ; page++) {
      const listed = await listStock(db, {
        query: typeof values.query === 'string' ? values.query : undefined,
        shortOnly: Boolean(values.short),
        page,
      });
      for (const card of listed.items) out(JSON.stringify(card));
      if (!listed.hasNext) return;
    }
  },
};
